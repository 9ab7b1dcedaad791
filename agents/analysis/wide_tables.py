"""A wide table: the things a question compares laid out as columns (a month-end price per ticker: AAPL,
AMD, ... beside the month). A question about them as things ("which of these stocks multiplied the
most", "the top 3 tickers at the end of 2022", "each stock's yearly average") is answered on those
columns stacked as rows (dataset.unpivot); a question that names one of them ("has GE gone up?") on
the table as it is. Plain Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.analysis.columns_said import columns_named
from agents.analysis.schema import Schema
from agents.analysis.words import mentions, split_name, stem

MIN_STACKED = 3
# a column named as a code: a ticker, a symbol (AAPL, BRK_B, XOM, or as a table in lower case writes them)
CODE_NAME = re.compile(r"[A-Z][A-Z0-9]{0,5}(?:_[A-Z])?|[a-z][a-z0-9]{1,5}")
# the things such columns are, said as such: "which of these stocks", "top 3 tickers", "each fund's"
THINGS = re.compile(
    r"\b(stock|ticker|symbol|compan(?:y|ie)|fund|series|countr(?:y|ie)|product|brand|index|indice)(?:s|es|'s|s')?\b"
    r"(?!\s+(?:table|data|dataset|file|sheet|spreadsheet)\b)",  # "the stock table" is the table, no things
    re.I,
)
# the market indices a table of prices lays out beside its stocks
INDEX_NAME = re.compile(
    r"(?:sp_?500|gspc|nasdaq|ixic|ndx|djia|dji|dow|ftse|dax|nikkei|n225|cac|hsi|bovespa|ibov|russell\d*)", re.I
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
    named = list(dict.fromkeys(m.column for m in mentions(asked, codes) if m.score == 1))
    others = [
        m
        for m in columns_named(asked, schema)
        if m.column in schema.measures and m.column not in codes and _said_by_its_words(asked, m.start, m.end, m.column)
    ]
    if len(named) == 1 or others:
        return None  # "has GE gone up?", "Xerox's share price", "tracks the Istanbul index": a column named
    word = said.group(1).lower()
    name = SINGULAR.get(word, "index" if word.startswith("ind") else word)
    taken = {stem(c["name"].lower()) for c in schema.columns}
    if stem(name) in taken:
        return None  # a column already holds those things: the table is long already
    if not named and name in ("stock", "index"):  # "which stock": a company's, never an index beside them
        indices = [c for c in codes if INDEX_NAME.fullmatch(c)]
        kept = indices if name == "index" else [c for c in codes if c not in indices]
        codes = kept if len(kept) >= 2 else codes
    return Stack(named or codes, schema.times[:1], name)  # "which index grew more, the S&P or the Nasdaq"


def _said_by_its_words(text: str, start: int, end: int, column: str) -> bool:
    """Whether a word of the column's name is said ("in USD" of ise_usd), not only its initials ("share
    prices" spell sp500_index) or a concept."""
    said = {stem(w) for w in re.findall(r"[A-Za-z0-9]+", text[start:end].lower())}
    return bool(said & {stem(w) for w in split_name(column)})
