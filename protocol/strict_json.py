"""Strict JSON: what every edge accepts from outside (socket frames, REST bodies, SAP block bodies).

Python's ``json`` takes more than JSON: ``NaN`` and ``Infinity``, escapes that leave a lone UTF-16
surrogate (``"\\ud800"``, which no UTF-8 text, database or hash can hold), integers too long for
Python to print again, and nesting until the interpreter's recursion limit. Each of these later broke
a store, a renderer or a socket, so they are refused here, at the door, with the reason.

``canonical`` gives a value's numbers the one form every store reads back: what is hashed is what is
stored (sessions.chap.chain).
"""

from __future__ import annotations

import json
import math
import re
import sys
from decimal import Decimal
from typing import Any, NoReturn

MAX_DEPTH = 64
# The longest integer Python reads or writes as text (its default int/str limit): past it json.dumps fails.
MAX_INTEGER_DIGITS = sys.int_info.default_max_str_digits
_INTEGER_LIMIT = 10**MAX_INTEGER_DIGITS
_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonRefused(ValueError):
    """The text is not strict JSON. ``reason`` is one of syntax, constant, number, surrogate, depth, key;
    ``path`` names where in a value (``payload.rows.0``), when ``canonical`` found it."""

    def __init__(self, reason: str, message: str, position: int | None = None, path: str = ""):
        super().__init__(message)
        self.reason, self.message, self.position, self.path = reason, message, position, path


def _refuse_constant(name: str) -> NoReturn:
    raise JsonRefused("constant", f"{name} is not JSON; send null or a string instead")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999
        raise JsonRefused("constant", f"{text} is too large for a JSON number; send it as a string")
    return number


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise JsonRefused("number", f"an integer of more than {MAX_INTEGER_DIGITS} digits; send it as a string")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_integer)


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
        canonical(value, max_depth=max_depth)
    return value


def canonical_number(number: float) -> float | int:
    """``number`` as a database that keeps JSON numbers as exact decimals reads it back (PostgreSQL's
    ``jsonb``, through Python's ``json``): a float whose shortest form has a positive exponent
    (``1e+16``, ``2.5e+20``: from 1e16 up) is a whole number and comes back an integer, ``-0.0`` comes
    back ``0.0``. Every other finite float comes back as it went in."""
    if -1e16 < number < 1e16:
        return 0.0 if number == 0 else number
    text = float.__repr__(number)
    return int(Decimal(text)) if "e+" in text else number


def canonical(value: Any, *, max_depth: int = MAX_DEPTH) -> Any:
    """``value`` (decoded JSON, or data about to be stored as JSON) in the form every store reads it
    back: numbers canonical (``canonical_number``), tuples as lists, keys as the strings JSON writes.
    JsonRefused, its ``path`` naming where, unless it nests at most ``max_depth`` levels, holds only
    finite numbers and integers Python can print, and has no lone surrogate in a key or string.
    Containers come back as they were (the same objects) when nothing in them changed."""
    return _canonical(value, 1, max_depth)


def _canonical(item: Any, level: int, max_depth: int) -> Any:
    if isinstance(item, str):
        if _SURROGATE.search(item):
            raise JsonRefused("surrogate", "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)")
        return item
    if isinstance(item, float):
        if not math.isfinite(item):
            raise JsonRefused("constant", f"{item} is not a JSON number; send null or a string instead")
        return canonical_number(item)
    if isinstance(item, int) and not isinstance(item, bool):
        if abs(item) >= _INTEGER_LIMIT:
            raise JsonRefused("number", f"an integer of more than {MAX_INTEGER_DIGITS} digits; send it as a string")
        return item
    if not isinstance(item, dict | list | tuple):
        return item
    if level > max_depth:
        raise JsonRefused("depth", f"JSON nests deeper than {max_depth} levels")
    if not isinstance(item, dict):  # a tuple is stored, and so read back, as a list
        children = [_child(child, index, level, max_depth) for index, child in enumerate(item)]
        unchanged = isinstance(item, list) and all(new is old for new, old in zip(children, item, strict=True))
        return item if unchanged else children
    changed = False
    mapping: dict[str, Any] = {}
    for key, child in item.items():
        name = _child(key if isinstance(key, str) else _key(key), key, level - 1, max_depth)
        mapping[name] = new = _child(child, name, level, max_depth)
        changed = changed or new is not child or name is not key
    return mapping if changed else item


def _child(item: Any, key: object, level: int, max_depth: int) -> Any:
    """``item``, found under ``key``, canonical; a refusal's path is built on the way out, only then."""
    try:
        return _canonical(item, level + 1, max_depth)
    except JsonRefused as refused:
        refused.path = f"{key}.{refused.path}" if refused.path else str(key)
        raise


def _key(key: object) -> str:
    """A key that is not a string as JSON writes it (and so as every store reads it back)."""
    if isinstance(key, bool) or key is None:
        return json.dumps(key)
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float) and math.isfinite(key):
        return float.__repr__(key)
    raise JsonRefused("key", f"a key of type {type(key).__name__} is not JSON; use a string")
