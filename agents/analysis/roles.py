"""Columns that say which rows a question is about: yes/no columns ("smokers", "without a balcony"),
codes listed after their column ("PartyID 0 and 6"), and numbers called levels. Plain Python."""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.filters import Found, excluded_at
from agents.analysis.phrases import COMPARE, GROUP_BEFORE, LEVELS, OTHER_SIDE, WHICH_BEFORE, asks_which
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import HIGH, LOW
from agents.analysis.words import Mention, stem


def levels_said(text: str, schema: Schema, named: list[Mention]) -> Schema:
    """ "the five marriage ratings (rate_marriage)", "levels of religious", "which monitor size", "by
    screen size": a few whole values called levels, or asked which of them, are categories, whatever the
    column's name."""
    called = {
        m.column
        for m in named
        if LEVELS.search(text[max(0, m.start - 40) : m.end + 40])
        or WHICH_BEFORE.search(text[: m.start])
        or GROUP_BEFORE.search(text[: m.start][-60:])
    }
    if not called:
        return schema
    columns = [{**c, "coded": True} if c["name"] in called else c for c in schema.columns]
    return Schema(schema.table, columns, schema.rows)


POSITIVE = ("1", "yes", "true", "y")
PERIOD_WORDS = {"day", "week", "month", "year", "hour", "time", "night"}


NONE_OF = re.compile(r"\b(?:without(?: any)?|with no|no|zero|free of)\s+$", re.I)
SOME_OF = re.compile(r"(?<!without )(?<!not )\b(?:any|some|at least one)\s+$", re.I)


YES_NO = ({"0", "1"}, {"yes", "no"}, {"true", "false"}, {"y", "n"})


NEGATED = re.compile(
    r"(?:\bnon[- ]?|\b(?:not|no|without|don't|doesn't|didn't|do not|does not|never|aren't|isn't|wasn't|weren't"
    r"|ain't|haven't|hasn't)\s+(?:\w+\s+){0,2})$",
    re.I,
)


def binary_filters(text: str, schema: Schema, free: list[Mention]) -> list[Found]:
    """ "smokers", "non-smokers", "flats without a balcony": a yes/no column named as who the rows are
    keeps the rows of that answer, unless the question compares by it."""
    found = []
    for mention in free:
        column = next(c for c in schema.columns if c["name"] == mention.column)
        values = [spoken_value(v) for v in column.get("values") or []]
        if column["type"] == "number" and column.get("min") == 0 and NONE_OF.search(text[: mention.start]):
            found.append(Found({"column": mention.column, "op": "=", "value": 0}, mention.start, mention.end,
                               mention.column))  # fmt: skip
            continue  # "people without any physical limitation", "with no chronic diseases"
        if column["type"] == "number" and column.get("min") == 0 and SOME_OF.search(text[: mention.start]):
            found.append(Found({"column": mention.column, "op": ">", "value": 0}, mention.start, mention.end,
                               mention.column))  # fmt: skip
            continue  # "mothers who smoked (any cigarettes a day)", "homes with at least one garage"
        if set(values) not in YES_NO or _only_a_period(text, mention):
            continue
        compared = any(p.search(text) for p in (COMPARE, OTHER_SIDE, HIGH, LOW)) or asks_which(text)
        if GROUP_BEFORE.search(text[: mention.start][-60:]) or compared:
            continue
        negated = bool(NEGATED.search(text[max(0, mention.start - 40) : mention.start]))
        raw = [v for v in column.get("values") or [] if (spoken_value(v) in POSITIVE) != negated]
        condition = {"column": mention.column, "op": "=", "value": raw[0]}
        found.append(Found(condition, mention.start, mention.end, mention.column))
    return found


def _only_a_period(text: str, mention: Mention) -> bool:
    """ "On days above 27 °C": a period word alone, part of working_day's name, says which rows are
    counted, not that they are working days."""
    said = text[mention.start : mention.end]
    return mention.score < 1 and " " not in said and stem(said) in PERIOD_WORDS


def spoken_value(value: Any) -> str:
    """1.0, 1, True and "Yes" as a person says them: "1", "1", "true", "yes"."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).lower()


def yes_no_columns(schema: Schema) -> set[str]:
    """The columns whose values are a yes and a no (yes/no, true/false, 1/0 said so)."""
    return {c["name"] for c in schema.columns if {spoken_value(v) for v in c.get("values") or []} in YES_NO}


def coded_values(text: str, schema: Schema, free: list[Mention]) -> list[Found]:
    """ "PartyID 0 and 6", "region = 2 or 3", "scored ECOG 0": values of a few-valued number column listed
    right after its name (as the question names it, or as the table spells it)."""
    found = []
    for column in schema.columns:
        name = column["name"]
        if column["type"] != "number" or not (name in schema.categories or column.get("values")):
            continue
        said = [(m.start, m.end) for m in free if m.column == name]
        said += [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I)]
        for start, end in said:
            listed = CODES.match(text[end:])
            known = {spoken_value(v): v for v in column.get("values") or []}
            codes = [known[c] for c in re.findall(r"\d+", listed.group(1)) if c in known] if listed else []
            if listed and codes:
                found.append(
                    Found(_codes_condition(name, codes, excluded_at(text, start)), start, end + listed.end(), name)
                )
                break
    return found


def _codes_condition(column: str, codes: list[Any], excluded: bool) -> dict[str, Any]:
    if len(codes) == 1:
        return {"column": column, "op": "!=" if excluded else "=", "value": codes[0]}
    if excluded:
        return {"and": [{"column": column, "op": "!=", "value": c} for c in codes]}
    return {"column": column, "op": "in", "value": codes}


CODES = re.compile(
    r"\s*(?:=|==|is|of|coded(?: as)?)?\s*(\d+(?:\s*(?:,|and|or|/|&|vs\.?|versus)\s*\d+)*)\b(?!\s*(?:to|-)\s*\d)"
)
