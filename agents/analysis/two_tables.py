"""Whether a question needs two tables: it names columns (or values) that no one table holds, but two
tables hold between them. Plain Python over the tables' schemas; the join itself is an operation's.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from agents.analysis.schema import Schema
from agents.analysis.value_words import value_mentions
from agents.analysis.words import mentions


@dataclass(frozen=True)
class Pair:
    """The two tables to join, the left one the question names most, and what it names of each."""

    left: str
    right: str
    named: dict[str, list[str]]
    by_name: bool  # each table's part is a column the question names, not only a value it says


def _by_name(question: str, schema: Schema) -> set[str]:
    return {m.column for m in mentions(question, [c["name"] for c in schema.columns]) if m.score >= 1.0}


def named_columns(question: str, schema: Schema) -> set[str]:
    """The columns the question names in full, or names a value of."""
    return _by_name(question, schema) | {column for column, _, _ in value_mentions(question, schema.values())}


def pair_to_join(question: str, schemas: list[Schema]) -> Pair | None:
    """The two tables whose columns between them hold every column the question names, when no one
    table holds them all; None when one table will do (or no two will)."""
    if len(schemas) < 2:
        return None
    names = {s.table: {c["name"] for c in s.columns} for s in schemas}
    named = {s.table: named_columns(question, s) for s in schemas}
    wanted = set().union(*named.values())
    if not wanted or any(wanted <= held for held in names.values()):
        return None
    pairs = [
        (a, b)
        for a, b in permutations(names, 2)
        if wanted <= names[a] | names[b] and named[a] - names[b] and named[b] - names[a]
    ]
    if not pairs:
        return None
    left, right = max(pairs, key=lambda p: (len(named[p[0]]), -len(names[p[0]] | names[p[1]]), p[1] > p[0]))
    own = {t: named[t] - names[other] for t, other in ((left, right), (right, left))}
    schema = {s.table: s for s in schemas}
    by_name = all(own[t] & _by_name(question, schema[t]) for t in (left, right))
    return Pair(left, right, {t: sorted(columns) for t, columns in own.items()}, by_name)


def join_name(left: str, right: str) -> str:
    """The table a join of ``left`` and ``right`` makes (and is known by later)."""
    return f"{left}_and_{right}"[:64]


def without_joins(tables: list[str]) -> list[str]:
    """The tables but those the analyst made of them, its own working tables: a join of two, or one's
    columns stacked as rows (``<table>_by_<name>``)."""
    made = {join_name(a, b) for a, b in permutations(tables, 2)}
    return [t for t in tables if t not in made and not any(t.startswith(f"{other}_by_") for other in tables)]
