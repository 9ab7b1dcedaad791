"""The grouping a question implies but does not name. Plain Python."""

from __future__ import annotations

import re

from agents.analysis.phrases import CYCLE, CYCLES
from agents.analysis.schema import MAX_GROUPS, Schema
from agents.analysis.words import Mention, split_name

# a date's place in a cycle said as a grouping, with or without "which": "between the four seasons",
# "in which calendar month", "taking season into account", "what time of year"
CYCLE_GROUPING = re.compile(
    r"\b(?:(season)s?|calendar (month|quarter)s?|(month)s? of the year|time of (?:the )?(year)|(weekday)s?"
    r"|(day)s? of the week|(quarter)s? of the year)\b",
    re.I,
)
CYCLE_WORD = {"year": "month", "day": "day of the week"}  # "time of year" is its months


def cycle_said(text: str, schema: Schema) -> tuple[str, str | None] | None:
    """The grouping a cycle word says ("which month", "between the seasons"): a column the table holds
    for it (calendar_month: no cycle to read), else the table's date read as its place in the cycle."""
    found = CYCLE.search(text) or CYCLE_GROUPING.search(text)
    if found is None:
        return None
    word = next(g for g in found.groups() if g).lower()
    word = CYCLE_WORD.get(word.split()[0], word)
    held = [c for c in schema.categories if word.split()[0] in split_name(c)]  # a calendar_month column
    if held:
        return held[0], None
    dates = schema.names("date")
    return (dates[0], CYCLES[word]) if dates else None


def first_category(schema: Schema, free: list[Mention], *, besides: str | None = None) -> str | None:
    """The grouping a question implies but does not name: a named category, else the table's first
    text column with a handful of values."""
    distinct = {c["name"]: c.get("distinct") or 0 for c in schema.columns}
    named = [m.column for m in free if m.column in schema.categories and m.column != besides]
    if named:
        full = {m.column for m in free if m.score == 1}
        # "students taught with PSI": the yes/no PSI named in full, not the students' names
        return min(named, key=lambda n: (distinct[n] > 2, n not in full))
    text_columns = [
        c["name"]
        for c in schema.columns
        if c["type"] in ("string", "boolean") and 2 <= (c.get("distinct") or 0) <= MAX_GROUPS and c["name"] != besides
    ]
    return text_columns[0] if text_columns else None
