"""The periods a question speaks of: a span said as two periods, the period a course is told in. Plain Python."""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.phrases import MONTH_NAMED


def periods_spanned(filters: list[dict[str, Any]], time: str | None) -> list[dict[str, Any]]:
    """ "From the first week of 2019 to the last week of 2023": two periods of the time column said are
    the ends of the span, not two filters no row meets together."""
    ranges = [f for f in filters if _range_of(f, time) is not None]
    if len(ranges) < 2:
        return filters
    ends = [end for f in ranges for end in _range_of(f, time) or ()]
    span = {"and": [{"column": time, "op": ">=", "value": min(ends)}, {"column": time, "op": "<=", "value": max(ends)}]}
    return [f for f in filters if f not in ranges] + [span]


def _range_of(condition: dict[str, Any], time: str | None) -> tuple[Any, Any] | None:
    """The two ends of a "between" condition on the time column (as the filter reader writes it)."""
    parts = condition.get("and") or []
    if len(parts) != 2 or any(p.get("column") != time for p in parts):
        return None
    if [p.get("op") for p in parts] != [">=", "<="]:
        return None
    return parts[0]["value"], parts[1]["value"]


IN_A_CYCLE = re.compile(
    r"\b(?:days? of (?:the )?week|months? of (?:the )?year|calendar months?|time of (?:the )?year)\b", re.I
)


def period_of(text: str) -> str:
    """The period a course is told in: named ("monthly", "per quarter"), or a month's name ("January's
    revenue against December's": months). A place in a cycle ("the day of the week") is no period."""
    text = IN_A_CYCLE.sub(" ", text)
    for period in ("year", "quarter", "month", "week", "day"):
        if re.search(rf"\b(?:{period}(?:s|ly)?|{'annual' if period == 'year' else period}\w*)\b", text, re.I):
            return period
    if MONTH_NAMED.search(text):
        return "month"
    return "auto"


WHOLE_YEAR = re.compile(r"^\d{4}(?:-01-01|-12-31)?$")


def years_said(filters: list[dict[str, Any]], time: str | None) -> bool:
    """Whether the filters on a date column are whole years ("in 2014 and in 2022", "from 2014 to 2022"):
    the course is told in years."""
    parts = [p for f in filters for p in (f.get("and") or [f]) if p.get("column") == time]
    return bool(parts) and all(WHOLE_YEAR.match(str(p.get("value"))) for p in parts)
