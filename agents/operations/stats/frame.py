"""A session's table as a pandas DataFrame: read through the dataset store's own wall and filters.

The rows come from the same compiled, parameterised query ``dataset.query`` runs (so a filter means
the same thing in both), typed by the table's declared column types.
"""

from __future__ import annotations

import difflib
from typing import Any

import pandas as pd

from agents.operations.datasets.compiler import compile_query
from agents.operations.datasets.store import open_store, require_table
from protocol.errors import ProtocolError

MAX_FRAME_ROWS = 1_000_000


def load_frame(session_id: Any, table: str, columns: list[str], filters: dict[str, Any] | None) -> pd.DataFrame:
    """The named columns of ``table`` over the rows ``filters`` keep (every column when none named)."""
    with open_store(session_id) as store:
        declared = require_table(store, table)
        wanted = list(dict.fromkeys(columns)) or [c["name"] for c in declared]
        query = {"select": wanted, **({"filters": filters} if filters else {})}
        sql, values, _ = compile_query(store, table, declared, query)
        names, rows, total = store.read(sql, values, limit=MAX_FRAME_ROWS, offset=0)
    if total is not None:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"{table} has {total} rows after the filters; statistics read at most {MAX_FRAME_ROWS}",
            details={"limit": MAX_FRAME_ROWS, "rows": total},
            suggestion=["filter the rows first"],
        )
    frame = pd.DataFrame(rows, columns=names)
    types = {c["name"]: c["type"] for c in declared}
    for name in names:
        if types[name] == "number":
            frame[name] = pd.to_numeric(frame[name], errors="coerce")
        elif types[name] == "date":
            frame[name] = pd.to_datetime(frame[name], errors="coerce")
        elif types[name] == "boolean":  # stored as 1/0 (SQLite) or true/false (PostgreSQL): said as yes/no
            frame[name] = frame[name].map(_yes_no, na_action="ignore")
    frame.attrs["types"] = types
    return frame


def _yes_no(value: Any) -> str | None:
    if value in (1, True, "1", "t", "true"):
        return "yes"
    return "no" if value in (0, False, "0", "f", "false") else None


def require_number(frame: pd.DataFrame, table: str, name: str, where: str) -> None:
    """A measure must be a number column: say which ones are, when it is not."""
    if frame.attrs["types"].get(name) != "number":
        numbers = sorted(n for n, t in frame.attrs["types"].items() if t == "number")
        close = difflib.get_close_matches(name, numbers, n=1)
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{where}: {name!r} in {table!r} is not a number column",
            details={"invalid": {where: f"{name!r} is {frame.attrs['types'].get(name)}"}, "number_columns": numbers},
            suggestion=[f"did you mean {close[0]!r}?"] if close else ["use a number column as the measure"],
        )


def role_frame(
    session_id: Any, params: dict[str, Any], roles: dict[str, str | None], numbers: tuple[str, ...] = ()
) -> pd.DataFrame:
    """The rows a call reads: the column each role names (each its own: a measure is never its own group),
    over the call's filters; the roles in ``numbers`` must name number columns."""
    named = {role: column for role, column in roles.items() if column}
    if len(set(named.values())) < len(named):
        raise ProtocolError("VALIDATION_FAILED", "each role needs a column of its own", details={"invalid": named})
    frame = load_frame(session_id, params["table"], list(dict.fromkeys(named.values())), params.get("filters"))
    for role in numbers:
        if named.get(role):
            require_number(frame, params["table"], named[role], role)
    return frame
