"""A big CSV imported by streaming: DuckDB reads the file, the careful reader decides how.

A file past ``STREAM_FROM_BYTES`` is never read into Python whole. The careful reader
(agents/tabular/) reads its head and decides the separator, the header and each column's type;
DuckDB's CSV reader then reads the whole file into the table's columnar copy with those decisions,
and the SQL store gets the rows from the copy in chunks (COPY on PostgreSQL). The head is read both
ways first: if DuckDB would read it differently from the careful reader (day-first dates, thousands
separators, missing-value words it does not know), the streamed read is not used and the caller reads
the file the careful way.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import duckdb
from django.conf import settings

from agents.operations.datasets.columnar import ENGINE_TYPES, copy_path, quiet
from agents.operations.datasets.wall import quote_identifier
from agents.tabular.reading import ReadTable

STREAM_FROM_BYTES = 2 * 1024 * 1024
HEAD_BYTES = 1024 * 1024
CHUNK_ROWS = 100_000
WRITE_CONFIG: dict[str, Any] = {"threads": 2, "memory_limit": "1GB"}


def head_of(path: Path) -> bytes:
    """The file's first ``HEAD_BYTES``, cut after its last whole line."""
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    return head[: head.rfind(b"\n") + 1] if b"\n" in head else head


def streamable(read: ReadTable) -> bool:
    """Whether DuckDB's reader can follow the careful reader's decisions on this file's head at all."""
    dialect = read.dialect
    return (
        dialect.encoding.lower().replace("-", "") in ("utf8", "ascii", "utf8sig")
        and dialect.decimal == "."
        and not dialect.thousands
        and not read.title
        and read.dropped_columns == 0
        and not read.rejected
    )


def _source(path: Path, read: ReadTable, header: bool, limit: int | None = None) -> str:
    """DuckDB's read of the file as text columns, each cast to the careful reader's type."""
    quote = read.dialect.quote or '"'
    names = [quote_identifier(f"c{i}") for i in range(len(read.columns))]
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(read.columns))) + "}"
    reader = (
        f"read_csv({_literal(str(path))}, delim={_literal(read.dialect.separator)}, quote={_literal(quote)}, "
        f"header={'true' if header else 'false'}, columns={columns})"
    )
    casts = ", ".join(
        f"TRY_CAST(NULLIF(trim({name}), '') AS {ENGINE_TYPES[column.type]}) AS {quote_identifier(column.name)}"
        if column.type != "string"
        else f"NULLIF({name}, '') AS {quote_identifier(column.name)}"
        for name, column in zip(names, read.columns, strict=True)
    )
    return f"SELECT {casts} FROM {reader}" + (f" LIMIT {int(limit)}" if limit is not None else "")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _as_stored(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def same_head(path: Path, read: ReadTable, header: bool) -> bool:
    """Whether DuckDB reads the head's rows as the careful reader did, value for value."""
    expected = [[_as_stored(v) for v in row] for row in read.rows()]
    connection = quiet(duckdb.connect(config=WRITE_CONFIG))
    try:
        got = connection.execute(_source(path, read, header, limit=len(expected))).fetchall()
    except duckdb.Error:
        return False
    finally:
        connection.close()
    return [[_as_stored(v) for v in row] for row in got] == expected


class StreamedCopy:
    """The file read by DuckDB into a copy waiting in the staging folder (outside the session's, which a
    write to the store empties): the SQL store is filled from it, then it moves into place."""

    def __init__(self, path: Path, read: ReadTable, header: bool) -> None:
        staging = Path(settings.DATA_DIR) / "analysis" / ".staging"
        staging.mkdir(parents=True, exist_ok=True)
        self.path = staging / f"{secrets.token_hex(16)}.duckdb"
        self.table = "imported"
        connection = quiet(duckdb.connect(str(self.path), config=WRITE_CONFIG))
        try:
            connection.execute(f"CREATE TABLE {self.table} AS {_source(path, read, header)}")
            found = connection.execute(f"SELECT COUNT(*) FROM {self.table}").fetchone()
        except BaseException:
            connection.close()
            self.path.unlink(missing_ok=True)
            raise
        connection.close()
        self.rows = int(found[0]) if found else 0
        self._stored = [  # a date as the SQL store keeps it, ISO text; the rest as DuckDB gives them
            f"strftime({quote_identifier(c.name)}, '%Y-%m-%d')" if c.type == "date" else quote_identifier(c.name)
            for c in read.columns
        ]

    def chunks(self) -> Iterator[list[tuple[Any, ...]]]:
        """The rows in chunks of ``CHUNK_ROWS``, valued as the SQL store keeps them."""
        connection = quiet(duckdb.connect(str(self.path), read_only=True, config=WRITE_CONFIG))
        try:
            cursor = connection.execute(f"SELECT {', '.join(self._stored)} FROM {self.table}")
            while chunk := cursor.fetchmany(CHUNK_ROWS):
                yield chunk
        finally:
            connection.close()

    def install(self, session_hex: str, table: str) -> None:
        """Into place as the table's copy, under the table's own name."""
        connection = quiet(duckdb.connect(str(self.path), config=WRITE_CONFIG))
        connection.execute(f"ALTER TABLE {self.table} RENAME TO {quote_identifier(table)}")
        connection.close()
        final = copy_path(session_hex, table)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self.path, final)

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


def streamed_read(
    path: Path, read_head: Callable[[bytes], ReadTable], header: bool
) -> tuple[ReadTable, StreamedCopy] | None:
    """The head's reading and the whole file streamed into a staged copy, or None when the file is
    small or DuckDB would read it otherwise than the careful reader (the caller reads it whole)."""
    if path.stat().st_size <= STREAM_FROM_BYTES:
        return None
    read = read_head(head_of(path))
    if not streamable(read) or not same_head(path, read, header):
        return None
    try:
        return read, StreamedCopy(path, read, header)
    except duckdb.Error:  # a line past the head DuckDB will not read (a stray quote, a short row)
        return None
