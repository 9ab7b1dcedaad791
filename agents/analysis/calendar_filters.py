"""Months of the year said without a year, of a table with one date column: "in the summer months, June
through August", "during the winter", "in December". They keep those months' rows in every year the table
spans, as plain date ranges the ``stats.*`` filters (and the code under an answer) take. Plain Python.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

from agents.analysis.filters import MONTH, MONTH_NAMES, MONTH_SPAN, Found, excluded_at, kept_where
from agents.operations.stats.timeline import SEASONS

SEASON_SAID = re.compile(
    r"\b(?:in|during|outside(?:\s+of)?|excluding|except(?:\s+in|\s+for)?)\s+(?:the\s+)?(winter|spring|summer|autumn|fall)(?:\s+(?:months?|season))?\b",
    re.I,
)
# a month alone, after a word that places rows in it; "may" only as a name ("in May", never "it may")
ONE_MONTH = re.compile(rf"\b(?:in|during)\s+(?:the\s+month\s+of\s+)?(?-i:(?!may\b)){MONTH}\b(?!\s*,?\s*\d)", re.I)
YEAR_AFTER = re.compile(r"^,?\s*(?:of\s+)?(?:1[5-9]|20)\d\d\b")
MAX_YEARS = 300  # a filter of one range a year; a longer table is left unfiltered rather than flooded


def months_said(text: str, dates: dict[str, tuple[int, int]], taken: list[range]) -> list[Found]:
    """The one span of months the text says (a season, "June through August", one month), of the table's
    one date column (``dates``: its first and last year); none when the text says two (a comparison of
    them) or a year with them (a month of one year, read elsewhere)."""
    if len(dates) != 1:
        return []
    column, (first, last) = next(iter(dates.items()))
    said = [m for m in _spans(text) if not any(m.start() in span for span in taken)]
    spans = {tuple(_months(m)) for m in said}  # "in summer (Jun-Aug)" says one span twice
    if len(spans) != 1 or last - first > MAX_YEARS:
        return []
    months = list(spans.pop())
    excluded = excluded_at(text, said[0].start(1))
    ranges = [kept_where(column, "between", span, excluded=excluded) for span in _ranges(months, first, last)]
    condition: dict[str, Any] = {"and" if excluded else "or": ranges}
    return [Found(condition, m.start(), m.end(), column) for m in said]


def _spans(text: str) -> list[re.Match[str]]:
    spans = [*MONTH_SPAN.finditer(text), *SEASON_SAID.finditer(text)]
    found = [m for m in spans if not YEAR_AFTER.match(text[m.end() :])]
    inside = [range(m.start(), m.end()) for m in found]
    alone = [
        m
        for m in ONE_MONTH.finditer(text)
        if not any(m.start(1) in span for span in inside) and not YEAR_AFTER.match(text[m.end() :])
    ]
    return sorted([*found, *alone], key=lambda m: m.start())


def _months(match: re.Match[str]) -> list[int]:
    """The months in calendar order from the first said, wrapping at December ("November to February")."""
    if match.re is SEASON_SAID:
        season = {"fall": "autumn"}.get(match.group(1).lower(), match.group(1).lower())
        return [m for m, name in SEASONS.items() if name == season]  # December first: winter wraps
    named = [MONTH_NAMES.index(g[:3].lower()) + 1 for g in match.groups() if g]
    start, end = named[0], named[-1]
    return [(start - 1 + step) % 12 + 1 for step in range((end - start) % 12 + 1)]


def _ranges(months: list[int], first: int, last: int) -> list[tuple[str, str]]:
    """One date range a year, each starting in its first month; a span wrapping past December ends in
    the next year ("winter 2015": December 2015 to February 2016)."""
    start, end = months[0], months[-1]
    wraps = end < start
    ranges = []
    for year in range(first - 1 if wraps else first, last + 1):
        end_year = year + 1 if wraps else year
        ranges.append((f"{year}-{start:02d}-01", f"{end_year}-{end:02d}-{calendar.monthrange(end_year, end)[1]:02d}"))
    return ranges
