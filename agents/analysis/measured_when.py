"""A measure taken at several moments, one column a moment (roland_0, roland_3m, roland_1y, roland_2y;
bp_pre, bp_post): the moments a question says ("at the two-year visit", "from entry to one year") choose
the columns it names. Plain Python.
"""

from __future__ import annotations

import re

from agents.analysis.comparisons import NUMBER_WORDS
from agents.analysis.schema import Schema
from agents.analysis.words import Mention

START, END = 0.0, float("inf")
# a column named by its measure and a moment: "_0", "_3m", "_1y", "_12w", "_baseline", "_post"
MOMENT_NAMED = re.compile(
    r"^(?P<measure>.+?)_(?P<when>\d+(?:\.\d+)?[dwmy]|0|baseline|base|pre|entry|post|end|final)$", re.I
)
UNIT_MONTHS = {"d": 1 / 30.4, "w": 7 / 30.4, "m": 1.0, "y": 12.0, "day": 1 / 30.4, "week": 7 / 30.4, "month": 1.0,
               "year": 12.0}  # fmt: skip
_AMOUNT = r"(\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
MOMENT_SAID = re.compile(
    rf"\b{_AMOUNT}[- ](year|month|week|day)s?(?:[- ](?:visit|follow-?up|check-?up|mark))?\b"
    rf"|\b(year|month|week|day) {_AMOUNT}\b"
    r"|\b(entry|baseline|the start|enrol\w*|admission|intake|at first)\b",
    re.I,
)


def _months(when: str) -> float:
    """A column's moment in months: 0 for the start, infinity for "post" or "end"."""
    said = when.lower()
    if said in ("0", "baseline", "base", "pre", "entry"):
        return START
    if said in ("post", "end", "final"):
        return END
    return float(said[:-1]) * UNIT_MONTHS[said[-1]]


def _amount(said: str) -> float:
    said = said.lower()
    return 1.0 if said in ("a", "an") else float(NUMBER_WORDS[said]) if said in NUMBER_WORDS else float(said)


def moments_said(text: str) -> list[tuple[float, int, int]]:
    """Each moment the text says, in months from the start, with where it is said."""
    found = []
    for match in MOMENT_SAID.finditer(text):
        if match.group(5):
            months = START
        elif match.group(1):
            months = _amount(match.group(1)) * UNIT_MONTHS[match.group(2).lower()]
        else:
            months = _amount(match.group(4)) * UNIT_MONTHS[match.group(3).lower()]
        found.append((months, match.start(), match.end()))
    return found


def by_moment(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """``found`` with a measure taken at several moments named at the moments said: the first moment's
    column where the measure is named, and a second moment's column where that moment is said."""
    said = moments_said(text)
    if not said:
        return found
    chosen: list[Mention] = []
    for mention in found:
        named = MOMENT_NAMED.match(mention.column)
        if named is None:
            chosen.append(mention)
            continue
        siblings = {
            _months(m["when"]): column
            for column in schema.measures
            if (m := MOMENT_NAMED.match(column)) and m["measure"] == named["measure"]
        }
        at = [(siblings[months], start, end) for months, start, end in said if months in siblings]
        if not at:
            chosen.append(mention)
            continue
        chosen.append(Mention(at[0][0], mention.start, mention.end, mention.score, mention.exact))
        later = [(column, start, end) for column, start, end in at if column != at[0][0]]
        chosen += [Mention(column, start, end, mention.score, False) for column, start, end in later[:1]]
    return chosen
