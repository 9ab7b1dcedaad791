"""Each column's type, read from its values as a careful analyst would: the usual missing markers are
missing, numbers may carry a decimal comma or thousands separators, dates come in the common formats.
Plain Python.

A column is a number (or a date, or yes/no) when its values are, leaving aside the missing markers and
at most a few stray words ("?", "unknown") that are then read as missing too, and said so.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

MISSING_MARKERS = {
    "": "empty",
    "na": "NA",
    "n/a": "N/A",
    "nan": "NaN",
    "null": "null",
    ".": ".",
    "-": "-",
    "#n/a": "#N/A",
}
BOOLEAN = {"true": True, "false": False, "yes": True, "no": False}
STRAY_SHARE = 0.05  # at most this share of a column's values may be stray words read as missing
STRAY_KINDS = 3  # ... and at most this many different ones
EVEN_SHARE = 0.8  # numbered subjects: this share of them have the commonest number of rows
LEADING_ZERO = re.compile(r"^0\d")
QUARTER = "%Y-Q%q"  # no strptime directive: read by QUARTER_DATE
QUARTER_DATE = re.compile(r"(\d{4})\s*[-/ ]?\s*Q([1-4])", re.I)
DATE_FORMATS = (
    ("%Y-%m-%d", "year-month-day"),
    ("%Y/%m/%d", "year/month/day"),
    ("%Y-%m", "year-month (the month's first day)"),  # a monthly series: "2000-01"
    (QUARTER, "year-quarter (the quarter's first day)"),  # a quarterly series: "2010-Q4"
    ("%d/%m/%Y", "day/month/year"),
    ("%m/%d/%Y", "month/day/year"),
    ("%d.%m.%Y", "day.month.year"),
    ("%d-%m-%Y", "day-month-year"),
    ("%d %b %Y", "day month-name year"),
    ("%d %B %Y", "day month-name year"),
    ("%b %d, %Y", "month-name day, year"),
    ("%B %d, %Y", "month-name day, year"),
    ("%d-%b-%Y", "day-month-name-year"),
    ("%Y-%m-%d %H:%M:%S", "year-month-day at midnight"),
    ("%Y-%m-%dT%H:%M:%S", "year-month-day at midnight"),
    ("%Y-%m-%d %H:%M", "year-month-day at midnight"),
    ("%d/%m/%Y %H:%M", "day/month/year at midnight"),
    ("%m/%d/%Y %H:%M", "month/day/year at midnight"),
)
TYPES = ("number", "date", "boolean", "string")
CURRENCIES = "$€£¥"


@dataclass
class TypedColumn:
    """One column as read: its type, its values converted, and why each missing value is missing."""

    name: str
    title: str
    type: str
    values: list[Any]
    missing: dict[str, int] = field(default_factory=dict)  # marker as said -> how many
    stray: dict[str, int] = field(default_factory=dict)  # words that were not of the type -> how many
    date_format: str = ""
    sign: str = ""  # the sign every number was written with ("4.98%", "$1,234"), read off
    guessed: str = ""  # what was guessed, in words

    def facts(self) -> dict[str, Any]:
        """What the analyst decides a column's role from (plain values, for the import's result)."""
        present = [v for v in self.values if v is not None]
        whole = self.type == "number" and all(float(v).is_integer() for v in present)
        distinct = len(set(present))
        numbered = bool(whole and present and min(present) in (0, 1) and max(present) - min(present) + 1 == distinct)
        facts: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "type": self.type,
            "missing": sum(self.missing.values()) + sum(self.stray.values()),
            "missing_markers": self.missing,
            "stray_values": self.stray,
            "distinct": distinct,
            "whole_numbers": whole,
            "numbered": numbered,
            "numbered_evenly": numbered and _evenly(present),
            "repeated_evenly": whole and bool(present) and distinct * 2 <= len(present) and _evenly(present),
        }
        if self.date_format:
            facts["date_format"] = self.date_format
        if self.sign:
            facts["sign"] = self.sign
        return facts


def _evenly(present: list[Any]) -> bool:
    """Most values as often as one another: subjects weighed on the same days, not counts of something."""
    counts = Counter(Counter(present).values())
    return counts.most_common(1)[0][1] >= EVEN_SHARE * sum(counts.values())


def missing_marker(text: str) -> str | None:
    return MISSING_MARKERS.get(text.strip().lower())


def number_of(text: str, decimal: str, thousands: str) -> float | None:
    """The number ``text`` says with these marks, or None ("1.234,5" with a decimal comma is 1234.5)."""
    text = text.strip()
    if thousands:
        grouped = re.fullmatch(rf"[+-]?\d{{1,3}}(?:{re.escape(thousands)}\d{{3}})+(?:{re.escape(decimal)}\d+)?", text)
        if grouped:
            text = text.replace(thousands, "")
    if decimal != ".":
        if "." in text:
            return None
        text = text.replace(decimal, ".")
    if not re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def date_of(text: str, pattern: str) -> date | None:
    if pattern == QUARTER:
        quarter = QUARTER_DATE.fullmatch(text.strip())
        return date(int(quarter[1]), 3 * int(quarter[2]) - 2, 1) if quarter else None
    try:
        moment = datetime.strptime(text.strip(), pattern)
    except ValueError:
        return None
    return moment.date() if moment.time() == datetime.min.time() else None


def _strays(texts: list[str], read: list[Any]) -> dict[str, int] | None:
    """The words that did not read as the type, when they are few enough to be stray; else None."""
    bad = Counter(t.strip() for t, v in zip(texts, read, strict=True) if v is None)
    if not bad:
        return {}
    if len(bad) > STRAY_KINDS or sum(bad.values()) > STRAY_SHARE * len(texts) or len(texts) - sum(bad.values()) < 3:
        return None
    return dict(bad)


UNIT_AFTER = re.compile(r"(?<=\d)( ?)([A-Za-z]{1,3})$")  # "1815 m", "12.5kg": one unit word after every number
# the units a value may carry; one letter only after a space ("20 s"), since "20s" and "5K" are no units
UNITS_WRITTEN = {"m", "km", "cm", "mm", "kg", "g", "mg", "lb", "lbs", "oz", "ft", "mi", "s", "sec", "min", "h",
                 "hr", "hrs", "kwh", "kw", "mw", "w", "l", "ml", "mph", "kmh", "kph", "ha"}  # fmt: skip


def sign_of(texts: list[str]) -> str:
    """The sign every value is written with, a percent or a unit after it or a currency before it ("" for
    none): "4.98%", "1815 m", "$1,234"."""
    stripped = [t.strip() for t in texts]
    if stripped and all(t.endswith("%") for t in stripped):
        return "%"
    units = {found.group() if (found := UNIT_AFTER.search(t)) and _a_unit(found) else "" for t in stripped}
    if len(units) == 1 and "" not in units:
        return units.pop()
    currencies = {t[:1] for t in stripped}
    return currencies.pop() if len(currencies) == 1 and currencies <= set(CURRENCIES) else ""


def _a_unit(found: re.Match[str]) -> bool:
    spaced, word = found.groups()
    return word.lower() in UNITS_WRITTEN and (bool(spaced) or len(word) > 1)


def unsigned(text: str, sign: str) -> str:
    return text.strip().removesuffix(sign).removeprefix(sign).strip() if sign else text


def _as_number(texts: list[str], decimal: str, thousands: str) -> tuple[list[Any], dict[str, int]] | None:
    sign = sign_of(texts)
    texts = [unsigned(t, sign) for t in texts]  # "4.98%" is 4.98 in a column of percentages
    if any(LEADING_ZERO.match(t.strip()) for t in texts):
        return None  # "007", "01234": codes whose zeros matter, not numbers
    read = [number_of(t, decimal, thousands) for t in texts]
    strays = _strays(texts, read)
    if strays is None:
        return None
    return [int(v) if v is not None and v.is_integer() and abs(v) < 2**53 else v for v in read], strays


def _as_date(texts: list[str], day_first: bool) -> tuple[list[Any], dict[str, int], str] | None:
    formats = sorted(DATE_FORMATS, key=lambda f: f[0].startswith("%m") == day_first)
    for pattern, words in formats:
        read = [date_of(t, pattern) for t in texts]
        strays = _strays(texts, read)
        if strays is not None and any(v is not None for v in read):
            return [v.isoformat() if v else None for v in read], strays, words
    return None


def _as_boolean(texts: list[str]) -> list[Any] | None:
    read = [BOOLEAN.get(t.strip().lower()) for t in texts]
    return read if all(v is not None for v in read) else None


def type_column(
    name: str, title: str, cells: list[str], *, decimal: str, thousands: str, day_first: bool, told: str | None = None
) -> TypedColumn:
    """The column typed from its cells (``told``, a type a person named, wins over the guess)."""
    missing = Counter(MISSING_MARKERS[c.strip().lower()] for c in cells if missing_marker(c) is not None)
    present = [c for c in cells if missing_marker(c) is None]
    column = TypedColumn(
        name, title, "string", [None if missing_marker(c) else c.strip() for c in cells], dict(missing)
    )
    if not present:
        return column
    positions = [i for i, c in enumerate(cells) if missing_marker(c) is None]

    def spread(read: list[Any]) -> list[Any]:
        values: list[Any] = [None] * len(cells)
        for index, value in zip(positions, read, strict=True):
            values[index] = value
        return values

    if told in (None, "boolean") and (flags := _as_boolean(present)) is not None:
        column.type, column.values = "boolean", spread(flags)
    elif told in (None, "number") and (number := _as_number(present, decimal, thousands)) is not None:
        column.type, column.values, column.stray = "number", spread(number[0]), number[1]
        column.sign = sign_of(present)
        if column.sign:
            said = f"a unit ({column.sign.strip()})" if column.sign[-1].isalpha() else f"a {column.sign} sign"
            column.guessed = f"{name}'s values carry {said}: read as the numbers without it"
    elif told in (None, "date") and (moment := _as_date(present, day_first)) is not None:
        column.type, column.values, column.stray, column.date_format = "date", spread(moment[0]), moment[1], moment[2]
        if "/" in moment[2] and not _unambiguous_days(present):
            column.guessed = f"{name}'s dates read as {moment[2]}: no day above 12 tells day and month apart"
        elif moment[2].startswith(("day", "month")):  # "31/12/1988": said, for a person to check at a glance
            column.guessed = f"{name}'s dates read as {moment[2]}"
    elif told in ("number", "date", "boolean"):
        _forced(column, present, spread, told, decimal, thousands, day_first)
    return column


def _unambiguous_days(texts: list[str]) -> bool:
    return any(int(part) > 12 for t in texts for part in re.split(r"[/ :]", t.strip())[:2] if part.isdigit())


def _forced(
    column: TypedColumn, present: list[str], spread: Any, told: str, decimal: str, thousands: str, day_first: bool
) -> None:
    """A type a person named, however many values do not read as it: those are missing, and counted."""
    if told == "number":
        read: list[Any] = [number_of(unsigned(t, sign_of([t])), decimal, thousands) for t in present]
    elif told == "boolean":
        read = [BOOLEAN.get(t.strip().lower()) for t in present]
    else:
        pattern = max(DATE_FORMATS, key=lambda f: sum(1 for t in present if date_of(t, f[0])))[0]
        read = [d.isoformat() if (d := date_of(t, pattern)) else None for t in present]
    column.type, column.values = told, spread(read)
    column.stray = dict(Counter(t.strip() for t, v in zip(present, read, strict=True) if v is None))
