"""Values as JSON can carry them: what a database hands back may be bytes, NaN, a huge integer or
text with lone surrogates, and one such value must never stop a result from being written."""

from __future__ import annotations

import base64
import json
import math
import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

SAFE_INTEGER = 2**53


def json_safe(value: object) -> Any:
    """``value`` with every part JSON and PostgreSQL's jsonb accept; exotic values become strings
    (``"NaN"``, ``"Infinity"``, digits) or ``{"base64": ...}`` for bytes."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -SAFE_INTEGER <= value <= SAFE_INTEGER else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, Decimal):
        return json_safe(float(value)) if value.is_finite() and abs(value) < SAFE_INTEGER else str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return {"base64": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, dict):
        return {json_safe(str(key)): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return json_safe(str(value))


# An integer token of 16 digits or more, which may lie past SAFE_INTEGER (digits inside a string also
# match: they only send the value the slow way).
LONG_INTEGER = re.compile(r"(?<![\d.])\d{16,}(?![\d.eE])")
# Every digit as "0": a run of 16 is found by a byte search, forty times faster than the pattern
# above, which only looks where such a run exists.
DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
SIXTEEN_DIGITS = b"0" * 16
SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: object) -> str:
    return json_plain(value)[0]


def json_plain(value: object) -> tuple[str, Any]:
    """``json_safe(value)`` as JSON text, and as a value. Results are mostly JSON's own types already (a
    page of rows was made safe value by value), so the C encoder tries first, and when it writes
    ``value`` as it is, ``value`` is returned; a value it cannot or must not write as it is (NaN, a
    date, a huge integer, a lone surrogate) sends the whole value through ``json_safe``."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = None
    if text is not None and not _long_integer(text) and not SURROGATE.search(text):
        return text, value
    safe = json_safe(value)
    return json.dumps(safe, ensure_ascii=False), safe


def _long_integer(text: str) -> bool:
    digits = text.encode("utf-8", "surrogatepass").translate(DIGITS_AS_ZERO)
    return SIXTEEN_DIGITS in digits and LONG_INTEGER.search(text) is not None
