"""Comparisons with a number read from a person's words: "above 5", "5 or more", "older than 50",
"between 2 and 4", "in the 1990s", "post-1950", with number words as digits ("five or more"). Each is
found once, with its span, its operator, its value and whether it speaks of time; which column it is about
is ``agents.analysis.filters``' to decide. Plain Python.
"""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.words import stem

NUMBER = r"[$€£]?\s?(-?\d[\d,]*(?:\.\d+)?)((?:k|m|bn)\b|\s+(?:thousand|million|billion)\b|\s*%|\s*percent\b)?"
SCALES = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000, "bn": 1e9, "billion": 1e9}
BEFORE = [  # a comparison said before its number; the longer phrases first
    (r"(?:greater|more|higher|larger) than or equal to|at or above|on or after", ">="),
    (r"(?:less|fewer|lower|smaller) than or equal to|at or below|on or before", "<="),
    (
        r">=|=>|≥|at least|no less than|not less than|a minimum of|minimum of|upwards of|since|starting (?:in|from)",
        ">=",
    ),
    (r"<=|=<|≤|at most|no more than|not more than|up to|a maximum of|maximum of|no higher than|until|through", "<="),
    (r"after|later than", ">"),
    (r"before|earlier than|prior to", "<"),
    (
        r"greater than|more than|higher than|bigger than|larger than|in excess of|exceeding|exceeds?|tops|topping"
        r"|above|over|>",
        ">",
    ),
    (r"less than|fewer than|lower than|smaller than|below|under|beneath|<", "<"),
    (r"not equal to|other than|!=|≠", "!="),
    (r"equal to|equals?|exactly|==|=", "="),
]
AFTER = [  # a comparison said after its number: "5 or more", "50 and over", "10+"
    (
        r"or more|or above|or higher|or greater|or over|and above|and over|and up|or older|and older|or later"
        r"|and later|onwards?|on(?=\s*(?:[,.;:?!)]|$))|or after|and after|\+",  # "from 1990 on,"
        ">=",
    ),
    (
        r"or less|or fewer|or below|or lower|or under|and below|and under|or younger|and younger|or earlier"
        r"|or before",
        "<=",
    ),
]
LOWER_ADJECTIVES = {"young", "short", "light", "small", "low", "few", "cheap", "narrow", "slow", "cold", "early",
                    "thin", "less", "poor", "close", "near"}  # fmt: skip
COMPARATIVE = re.compile(rf"\b(\w+er)\s+than\s+{NUMBER}", re.I)
COMPARATIVE_AFTER = re.compile(rf"{NUMBER}\s*(?:[A-Za-z]+\s+){{0,2}}or\s+([a-z]+(?:er|ier))\b", re.I)
NOT_COMPARATIVE = {"other", "either", "neither", "whether", "never", "rather", "together", "further", "under", "over",
                   "after", "later", "ever", "number", "order", "per", "older", "younger", "earlier"}  # fmt: skip
SIGNED = re.compile(r"\b(?:is|was|were|are|been|turned|went)\s+(negative|positive|below zero|above zero)\b", re.I)
YEARS = re.compile(
    r"\b(?:over|in|during|for|across|from|between)?\s*((?:1[5-9]|20|21)\d\d)\s*(?:-|\u2013|to|through|until|and)\s*"
    r"((?:1[5-9]|20|21)?\d\d)\b",
    re.I,
)
# "the 1990s" is a decade, "the 1800s" (a round hundred) the century
DECADE = re.compile(r"\b(?:in|during|from|of|over)?\s*the\s+((?:1[5-9]|20)\d0)'?s\b", re.I)
BETWEEN = re.compile(rf"\b(?:between|from)\s+{NUMBER}\s+(?:and|to|-)\s+{NUMBER}", re.I)
PRE_POST = re.compile(r"\b(pre|post)[- ]?((?:1[5-9]|20)\d\d)\b", re.I)
YEAR_DURING = re.compile(
    r"(?:\b(?:across|throughout)|\b(?:changed?|trend\w*|up|down|evolved?|moved?)\s+over)"
    r"\s+((?:1[5-9]|20|21)\d\d)\b(?!\s*(?:-|to|and)\s*\d)",
    re.I,
)


def _number(text: str, scale: str | None) -> float | int:
    value = float(text.replace(",", ""))
    value *= SCALES.get((scale or "").strip().lower(), 1)
    return int(value) if value.is_integer() else value


Comparison = tuple[int, int, str, Any, str | None, bool]

TIMELY = re.compile(r"^(?:in|during|since|after|before|until|through|on or|starting|from|between|prior|later|earlier)"
                    r"|(?:onwards?|or later|and later|or earlier|or after|or before)$", re.I)  # fmt: skip
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                "fifty": 50, "hundred": 100}  # fmt: skip


def _digits(text: str) -> str:
    """Number words as digits, padded so every offset stays where it was ("five or more" -> "5    or more")."""
    return re.sub(
        r"\b(" + "|".join(NUMBER_WORDS) + r")\b",
        lambda m: str(NUMBER_WORDS[m.group(1).lower()]).ljust(len(m.group(1))),
        text,
        flags=re.I,
    )


def comparisons(text: str) -> list[Comparison]:
    """(start, end, op, value, adjective, said of time) of each comparison with a number, left to right."""
    found: list[Comparison] = []
    taken: list[range] = []

    def add(start: int, end: int, op: str, value: Any, adjective: str | None = None, *, timely: bool = False) -> None:
        if not any(start in span or end - 1 in span for span in taken):
            taken.append(range(start, end))
            found.append((start, end, op, value, adjective, timely or bool(TIMELY.search(text[start:end]))))

    text = _digits(text)
    for match in YEARS.finditer(text):  # "over 2012-2023", "in 1990 to 2000"
        first, last = match.group(1), match.group(2)
        last = first[:2] + last if len(last) == 2 else last  # "1970-86" runs to 1986
        if int(last) > int(first):
            add(match.start(), match.end(), "between", (int(first), int(last)), timely=True)
    for match in BETWEEN.finditer(text):
        low, high = _number(match.group(1), match.group(2)), _number(match.group(3), match.group(4))
        add(match.start(), match.end(), "between", (min(low, high), max(low, high)))
    for match in COMPARATIVE.finditer(text):
        word = stem(match.group(1))
        if word in ("great", "more", "high", "large", "big", "low", "small", "less", "few", "oth"):
            continue  # said by the phrase lists below
        op = "<" if word in LOWER_ADJECTIVES else ">"
        add(match.start(), match.end(), op, _number(match.group(2), match.group(3)), match.group(1))
    for match in DECADE.finditer(text):  # "appointed in the 1800s", "the 1990s"
        first = int(match.group(1))
        add(match.start(), match.end(), "between", (first, first + (99 if first % 100 == 0 else 9)), timely=True)
    for match in PRE_POST.finditer(text):  # "the post-1950 peak", "pre-2000 prices"
        add(
            match.start(),
            match.end(),
            ">" if match.group(1).lower() == "post" else "<",
            int(match.group(2)),
            timely=True,
        )
    year_alone = (  # "in 2007", "the 2007 distribution", "2007's", "top 3 by rate, 2010."
        r"\b(?:in|during|at|for|of|only|the)\s+(?:the\s+year\s+)?((?:1[5-9]|20|21)\d\d)\b(?!\s*(?:-|to|and)\s*\d)"
        r"(?!\s*(?:or|and)\s+(?:earlier|later|before|after|more|less|over|under|above|below|older|newer|since))"
        r"|\b((?:1[5-9]|20|21)\d\d)['\u2019]s\b|,\s*((?:1[5-9]|20|21)\d\d)\s*[.?!]?\s*$"
    )
    for match in re.finditer(year_alone, text, re.I):
        year = int(match.group(1) or match.group(2) or match.group(3))
        add(match.start(), match.end(), "=", year, timely=True)  # "for 2016", ", 2010.": a time column's year
    for match in YEAR_DURING.finditer(text):  # "did it go up or down over 2015?": during it, not after
        add(match.start(), match.end(), "=", int(match.group(1)), timely=True)
    for match in SIGNED.finditer(text):  # "when production was negative"
        add(match.start(), match.end(), "<" if match.group(1).lower().startswith(("neg", "below")) else ">", 0)
    for words, op in BEFORE:
        for match in re.finditer(
            rf"(?<![\w])(?:{words})\s*(?:the\s+year\s+)?{NUMBER}", text, re.I
        ):  # "before the year 2000"
            add(match.start(), match.end(), op, _number(match.group(1), match.group(2)))
    for words, op in AFTER:
        for match in re.finditer(rf"{NUMBER}\s*(?:[A-Za-z]+\s+){{0,2}}(?:{words})", text, re.I):  # "36 inches or more"
            add(match.start(), match.end(), op, _number(match.group(1), match.group(2)))
    for match in COMPARATIVE_AFTER.finditer(text):  # "85 degrees F or hotter", "2 kg or heavier"
        word = stem(match.group(3))
        if word != match.group(3).lower() and match.group(3).lower() not in NOT_COMPARATIVE:
            op = "<=" if word in LOWER_ADJECTIVES else ">="
            add(match.start(), match.end(), op, _number(match.group(1), match.group(2)), match.group(3))
    return sorted(found)
