"""The grouping a question implies but does not name. Plain Python."""

from __future__ import annotations

from agents.analysis.schema import MAX_GROUPS, Schema
from agents.analysis.words import Mention


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
