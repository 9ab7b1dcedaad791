"""A structured row filter said back in a person's words, as the reading, the report and the table say it."""

from __future__ import annotations

import calendar
from typing import Any

OP_WORDS = {
    "=": "is",
    "!=": "is not",
    ">": "is above",
    ">=": "is at least",
    "<": "is below",
    "<=": "is at most",
    "in": "is",
}


def _calendar_words(parts: list[dict[str, Any]]) -> str:
    """A date range of whole years as said: "date in 2023", "date from 2021 to 2023"."""
    if len(parts) != 2 or [p.get("op") for p in parts] != [">=", "<="] or parts[0]["column"] != parts[1]["column"]:
        return ""
    low, high = str(parts[0]["value"]), str(parts[1]["value"])
    if not (low.endswith("-01-01") and high.endswith("-12-31")):
        return ""
    first, last = low[:4], high[:4]
    return f"{parts[0]['column']} in {first}" if first == last else f"{parts[0]['column']} from {first} to {last}"


def _months_words(condition: dict[str, Any]) -> str:
    """The same months in each year (calendar_filters) as said: "date in June to August of each year",
    "date outside December to February of each year"."""
    kept, joiner = ("or", "and") if "or" in condition else ("and", "or")
    spans = []
    for part in condition[kept]:
        bounds = [p for p in part.get(joiner) or [] if p.get("op") != "is_null"]
        if len(bounds) != 2 or len({p.get("column") for p in bounds}) != 1:
            return ""
        spans.append((bounds[0]["column"], str(bounds[0]["value"])[5:7], str(bounds[1]["value"])[5:7]))
    if len(spans) < 2 or len(set(spans)) != 1 or not all(m.isdigit() for m in spans[0][1:]):
        return ""
    column, first, last = spans[0]
    months = calendar.month_name[int(first)] + ("" if first == last else f" to {calendar.month_name[int(last)]}")
    return f"{column} {'in' if kept == 'or' else 'outside'} {months} of each year"


def condition_words(condition: dict[str, Any]) -> str:
    """A row filter as a person says it after "where": "region is north or south", "amount is above 10"."""
    if ("and" in condition or "or" in condition) and _months_words(condition):
        return _months_words(condition)
    if "and" in condition:
        return _calendar_words(condition["and"]) or " and ".join(condition_words(c) for c in condition["and"])
    if "or" in condition:
        parts = [c for c in condition["or"] if c.get("op") != "is_null"]
        missing = " (or missing)" if len(parts) < len(condition["or"]) else ""
        return " or ".join(condition_words(c) for c in parts) + missing
    if condition["op"] == "is_null":
        return f"{condition['column']} is {'missing' if condition['value'] else 'present'}"
    value = condition["value"]
    shown = (
        " or ".join(map(str, value))
        if isinstance(value, list)
        else f"{value:g}"
        if isinstance(value, float)
        else str(value)
    )
    return f"{condition['column']} {OP_WORDS.get(condition['op'], condition['op'])} {shown}"
