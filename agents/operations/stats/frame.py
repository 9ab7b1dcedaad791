"""A session's table for the statistics: its columnar copy (``columnar``), read-only behind its wall.

The columns and their types are the SQL store's; the rows are read from the copy with the same
compiled, parameterised filters ``dataset.query`` runs (so a filter means the same thing in both).
``load_frame`` brings the rows into pandas; ``engine_table`` gives the copy itself, for the
operations that compute their aggregates in the engine and bring only those back.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import duckdb
import pandas as pd

from agents.operations.datasets.columnar import CHUNK_ROWS, read_copy, write_copy
from agents.operations.datasets.compiler import compile_filter
from agents.operations.datasets.store import open_store, require_table
from agents.operations.datasets.wall import quote_identifier
from agents.operations.stats import timeline
from protocol.errors import ProtocolError

MAX_FRAME_ROWS = 5_000_000  # rows brought into pandas; the in-engine operations read any number
BUILD_ATTEMPTS = 3


class ColumnTypes(dict[str, str]):
    """The declared types, kept in ``frame.attrs``: pandas deep-copies attrs on every derived frame,
    which on a wide table was most of the work; these never change, so a copy is the same object."""

    def __deepcopy__(self, memo: dict[int, Any]) -> ColumnTypes:
        return self


@dataclass(frozen=True)
class EngineTable:
    """A table's columnar copy, open read-only: its connection, declared columns and filter."""

    connection: duckdb.DuckDBPyConnection
    table: str
    types: ColumnTypes
    where: str
    values: list[Any]

    mark = "?"

    def qualified(self, table: str) -> str:
        return quote_identifier(table)

    def frame(self, sql: str, values: list[Any] | None = None) -> pd.DataFrame:
        """The result of ``sql`` (its marks bound by ``values``, the filter's by default) as a DataFrame."""
        return self.connection.execute(sql, self.values if values is None else values).df()

    def rows(self) -> int:
        return int(self.frame(f"SELECT COUNT(*) AS n FROM {self.source}")["n"].iloc[0])

    @property
    def source(self) -> str:
        """The filtered rows, as a FROM clause (its marks bound by ``values``)."""
        return quote_identifier(self.table) + (f" WHERE {self.where}" if self.where else "")


@contextmanager
def engine_table(session_id: Any, table: str, filters: dict[str, Any] | None) -> Iterator[EngineTable]:
    """The table's copy (built from the SQL store first when a write removed it), with the call's filter."""
    with open_store(session_id) as store:
        declared = require_table(store, table)
        session_hex = store.hex
        for _ in range(BUILD_ATTEMPTS):
            with read_copy(session_hex, table) as connection:
                if connection is not None:
                    types = ColumnTypes({c["name"]: c["type"] for c in declared})
                    bare = EngineTable(connection, table, types, "", [])
                    where, values = compile_filter(bare, table, declared, filters)
                    yield EngineTable(connection, table, types, where, values)
                    return
            every_row = store.chunks(f"SELECT * FROM {store.qualified(table)}", CHUNK_ROWS)
            write_copy(session_hex, table, declared, every_row)
    raise ProtocolError("INVALID_STATE", f"{table} kept changing while it was read", suggestion=["try again"])


def load_frame(session_id: Any, table: str, columns: list[str], filters: dict[str, Any] | None) -> pd.DataFrame:
    """The named columns of ``table`` over the rows ``filters`` keep (every column when none named)."""
    with engine_table(session_id, table, filters) as source:
        wanted = list(dict.fromkeys(columns)) or list(source.types)
        total = source.rows()
        if total > MAX_FRAME_ROWS:
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"{table} has {total} rows after the filters; this statistic reads at most {MAX_FRAME_ROWS}",
                details={"limit": MAX_FRAME_ROWS, "rows": total},
                suggestion=["filter the rows first"],
            )
        names = ", ".join(quote_identifier(name) for name in wanted)
        frame = source.frame(f"SELECT {names} FROM {source.source}")
        types = source.types
    for name in wanted:
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


def require_number(types: dict[str, str], table: str, name: str, where: str) -> None:
    """A measure must be a number column: say which ones are, when it is not."""
    if types.get(name) != "number":
        numbers = sorted(n for n, t in types.items() if t == "number")
        close = difflib.get_close_matches(name, numbers, n=1)
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{where}: {name!r} in {table!r} is not a number column",
            details={"invalid": {where: f"{name!r} is {types.get(name)}"}, "number_columns": numbers},
            suggestion=[f"did you mean {close[0]!r}?"] if close else ["use a number column as the measure"],
        )


def role_frame(
    session_id: Any,
    params: dict[str, Any],
    roles: dict[str, str | None],
    numbers: tuple[str, ...] = (),
    cycled: tuple[str, ...] = ("group_by",),
) -> pd.DataFrame:
    """The rows a call reads: the column each role names (each its own: a measure is never its own group),
    over the call's filters; the roles in ``numbers`` must name number columns. With the call's ``cycle``,
    the date column of each role in ``cycled`` is also read as its place in the cycle, under
    ``timeline.grouping(params, column)`` (so "each season's warming" may read one date as time and as season)."""
    cycle = params.get("cycle")
    named = {role: column for role, column in roles.items() if column}
    keys = {role: timeline.grouping(params, column) if role in cycled else column for role, column in named.items()}
    if len(set(keys.values())) < len(keys):
        raise ProtocolError("VALIDATION_FAILED", "each role needs a column of its own", details={"invalid": named})
    frame = load_frame(session_id, params["table"], list(dict.fromkeys(named.values())), params.get("filters"))
    for role in numbers:
        if named.get(role):
            require_number(frame.attrs["types"], params["table"], named[role], role)
    for role in cycled:
        if cycle and named.get(role):
            read_as_cycle(frame, params, named[role], role)
    return frame


def read_as_above(frame: pd.DataFrame, column: str, threshold: float, *, sides: bool = False) -> str:
    """Adds whether each value of the number ``column`` is above ``threshold`` ("yes"/"no", or with
    ``sides`` each side by name, "production above 0" and "production at most 0"; a missing value
    missing), and says the name it goes by ("rain_hours above 0")."""
    name = timeline.above_name(column, threshold)
    values = frame[column]
    frame[name] = values.gt(threshold).map(timeline.above_sides(column, threshold, sides)).where(values.notna())
    return name


def read_as_cycle(frame: pd.DataFrame, params: dict[str, Any], column: str, role: str) -> str:
    """Adds the date ``column``'s place in the call's cycle to ``frame``, and says the name it goes by."""
    if frame.attrs["types"].get(column) != "date":
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{role}: cycle reads a date column, and {column!r} is {frame.attrs['types'].get(column)}",
            details={"invalid": {role: column, "cycle": params["cycle"]}},
            suggestion=["leave cycle out, or name a date column"],
        )
    name = timeline.grouping(params, column)
    frame[name] = timeline.seasonal(frame[column], params["cycle"])
    return name
