"""A wide table: the things a question compares laid out as columns (a month-end price per ticker: AAPL,
AMD, ... beside the month). A question about them as things ("which of these stocks multiplied the
most", "the top 3 tickers at the end of 2022", "each stock's yearly average") is answered on those
columns stacked as rows (dataset.unpivot); a question that names one of them ("has GE gone up?") on
the table as it is. Plain Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.analysis.schema import Schema
from agents.analysis.words import stem

MIN_STACKED = 3
# a column named as a code: a ticker, a symbol (AAPL, BRK_B, XOM)
CODE_NAME = re.compile(r"[A-Z][A-Z0-9]{0,5}(?:_[A-Z])?")
# the things such columns are, said as such: "which of these stocks", "top 3 tickers", "each fund's"
THINGS = re.compile(
    r"\b(stock|ticker|symbol|compan(?:y|ie)|fund|series|countr(?:y|ie)|product|brand)(?:s|'s|s')?\b", re.I
)
SINGULAR = {"companie": "company", "countrie": "country"}


@dataclass(frozen=True)
class Stack:
    """What to stack: the code-named columns, the time kept beside them, and the new column of their names."""

    columns: list[str]
    keep: list[str]
    name: str
    value: str = "value"


def stack_for(text: str, schema: Schema) -> Stack | None:
    """The stack a question about the columns as things needs (None when it names one of them, or none
    of its words calls them things)."""
    codes = [c for c in schema.measures if CODE_NAME.fullmatch(c)]
    said = THINGS.search(text)
    if len(codes) < MIN_STACKED or said is None or not schema.times:
        return None
    asked = text.split("?", 1)[0]  # the question itself, before any refinement added to it
    if any(re.search(rf"(?<![\w$]){re.escape(code)}(?!\w)", asked) for code in codes):
        return None  # "has GE gone up?": the column named is the measure
    word = said.group(1).lower()
    name = SINGULAR.get(word, word)
    taken = {stem(c["name"].lower()) for c in schema.columns}
    if stem(name) in taken:
        return None  # a column already holds those things: the table is long already
    return Stack(codes, schema.times[:1], name)
