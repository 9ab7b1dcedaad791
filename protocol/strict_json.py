"""Strict JSON: what every edge accepts from outside (socket frames, REST bodies, SAP block bodies).

Python's ``json`` takes more than JSON: ``NaN`` and ``Infinity``, escapes that leave a lone UTF-16
surrogate (``"\\ud800"``, which no UTF-8 text, database or hash can hold), and nesting until the
interpreter's recursion limit. Each of these later broke a store, a renderer or a socket, so they are
refused here, at the door, with the reason.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, NoReturn

MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonRefused(ValueError):
    """The text is not strict JSON. ``reason`` is one of syntax, constant, surrogate, depth."""

    def __init__(self, reason: str, message: str, position: int | None = None):
        super().__init__(message)
        self.reason, self.message, self.position = reason, message, position


def _refuse_constant(name: str) -> NoReturn:
    raise JsonRefused("constant", f"{name} is not JSON; send null or a string instead")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999
        raise JsonRefused("constant", f"{text} is too large for a JSON number; send it as a string")
    return number


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``text``, or JsonRefused saying what is wrong with it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonRefused("syntax", f"not UTF-8 text: {exc.reason} at byte {exc.start}", exc.start) from None
    if _SURROGATE.search(text):  # a str from a socket can carry one unencoded
        raise JsonRefused("surrogate", "text holds a lone UTF-16 surrogate, which is not a character")
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise JsonRefused("depth", f"JSON nests deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise JsonRefused(
            "syntax", f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", exc.pos
        ) from None
    # Only an escape can make a surrogate, and nesting can only pass the limit with more brackets.
    if "\\u" in text or text.count("{") + text.count("[") > max_depth:
        check(value, max_depth=max_depth)
    return value


def check(value: object, *, max_depth: int = MAX_DEPTH) -> None:
    """JsonRefused unless ``value`` (decoded JSON, or data about to be stored as JSON) nests at most
    ``max_depth`` levels, holds only finite numbers and has no lone surrogate in a key or string."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise JsonRefused("surrogate", "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise JsonRefused("constant", f"{item} is not a JSON number; send null or a string instead")
        elif isinstance(item, dict | list):
            if level > max_depth:
                raise JsonRefused("depth", f"JSON nests deeper than {max_depth} levels")
            children = item.items() if isinstance(item, dict) else ((None, child) for child in item)
            for key, child in children:
                if key is not None:
                    stack.append((key, level))
                stack.append((child, level + 1))
