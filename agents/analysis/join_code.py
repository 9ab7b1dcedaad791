"""The pandas code that reproduces an answer computed on two tables joined: both files read as the import
read them, joined as dataset.join joined them, then the operation's own lines (code.py's writers).
Plain Python: it writes text, it never runs it.
"""

from __future__ import annotations

from typing import Any

from agents.analysis.code import FLOATS, WRITERS, mask, reading


def joined_reproduction(
    operation: str, body: dict[str, Any], files: tuple[dict[str, Any], dict[str, Any]], joined: dict[str, Any]
) -> str | None:
    """The script beside the two files (None for an operation code.py cannot write). ``joined`` is
    dataset.join's result: the key, inner or left, and the joined table's columns (the right table's
    columns it renamed among them)."""
    writer = WRITERS.get(operation)
    if writer is None:
        return None
    left, right = files
    on, how = joined["on"], joined["how"]
    kept = [c["name"] for c in right["columns"] if c["name"] not in on]
    named = [c["name"] for c in joined["columns"]][len(left["columns"]) :]
    renamed = {old: new for old, new in zip(kept, named, strict=False) if old != new}
    lines = ["import pandas as pd", *writer.imports, "", FLOATS, *reading(left), "left = df", *reading(right)]
    # SQL never matches a missing key to another; pandas would.
    lines.append(f"right = df.dropna(subset={on!r})" + (f".rename(columns={renamed!r})" if renamed else ""))
    lines.append(f"df = left.merge(right, on={on!r}, how={how!r})  # as dataset.join joined them")
    if body.get("filters"):
        lines.append(f"df = df[{mask(body['filters'])}]  # the rows the question keeps")
    return "\n".join([*lines, *writer.write(body)]) + "\n"
