"""The columnar copy of a session's tables that the statistics read: DuckDB, in process.

Each table has a DuckDB file of its own in the session's analysis folder
(DATA_DIR/analysis/<session>/), written once (to a temporary name, then renamed into place) and
afterwards only read, so readers in any number of processes never wait on a lock. A write to the
table in the SQL store removes the session's copies; the next read rebuilds them from the store.
An import writes its copy at once, from the rows it has just read.

A read opens the one file read-only with external access off and the configuration locked: that
connection can name no other file, no other session's tables and no extension, whatever SQL it is
given. That is the wall, by construction.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
from django.conf import settings

from agents.operations.datasets.wall import quote_identifier

ENGINE_TYPES = {"string": "VARCHAR", "number": "DOUBLE", "boolean": "BOOLEAN", "date": "DATE"}
CHUNK_ROWS = 100_000
# Nothing outside the one file (no files, extensions or attachments) and no way to change that.
READ_CONFIG: dict[str, Any] = {"enable_external_access": False, "memory_limit": "1GB", "threads": 2}
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_]{1,100}")


def quiet(connection: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """No progress bar (DuckDB prints one on stdout past two seconds; it is a session setting)."""
    connection.execute("SET enable_progress_bar = false")
    return connection


def session_folder(session_hex: str) -> Path:
    return Path(settings.DATA_DIR) / "analysis" / session_hex


def copy_path(session_hex: str, table: str) -> Path:
    """A plain table name is its own file name; any other is hashed (no name reaches the path as written)."""
    stem = table if _PLAIN_NAME.fullmatch(table) else "t_" + hashlib.sha256(table.encode()).hexdigest()[:32]
    return session_folder(session_hex) / f"{stem}.duckdb"


def forget(session_hex: str) -> None:
    """Every copy of the session's tables, gone (a write to the store, or the session deleted).
    A reader holding a file open keeps reading it: the file goes when it closes."""
    shutil.rmtree(session_folder(session_hex), ignore_errors=True)


class CopyWriter:
    """A table's copy being written: typed columns appended in chunks, renamed into place on ``finish``."""

    def __init__(self, session_hex: str, table: str, columns: list[dict[str, Any]]) -> None:
        self.path = copy_path(session_hex, table)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.temporary = self.path.with_name(f".{self.path.name}.{secrets.token_hex(8)}")
        self.table, self.columns = table, columns
        self.connection = quiet(duckdb.connect(str(self.temporary)))
        spec = ", ".join(f"{quote_identifier(c['name'])} {ENGINE_TYPES[c['type']]}" for c in columns)
        self.connection.execute(f"CREATE TABLE {quote_identifier(table)} ({spec})")

    def append(self, rows: list[list[Any]] | pd.DataFrame) -> None:
        chunk = rows if isinstance(rows, pd.DataFrame) else _typed_chunk(rows, self.columns)
        self.connection.register("chap_chunk", chunk)
        self.connection.execute(f"INSERT INTO {quote_identifier(self.table)} SELECT * FROM chap_chunk")
        self.connection.unregister("chap_chunk")

    def finish(self) -> None:
        self.connection.close()
        os.replace(self.temporary, self.path)

    def discard(self) -> None:
        self.connection.close()
        self.temporary.unlink(missing_ok=True)


def write_copy(session_hex: str, table: str, columns: list[dict[str, Any]], chunks: Iterable[list[list[Any]]]) -> None:
    """The table's copy, from its rows in chunks (a chunk is at most ``CHUNK_ROWS`` rows in memory)."""
    writer = CopyWriter(session_hex, table, columns)
    try:
        for chunk in chunks:
            writer.append(chunk)
    except BaseException:
        writer.discard()
        raise
    writer.finish()


def in_chunks(rows: Iterable[list[Any]], size: int = CHUNK_ROWS) -> Iterator[list[list[Any]]]:
    chunk: list[list[Any]] = []
    for row in rows:
        chunk.append(list(row))
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _typed_chunk(rows: list[list[Any]], columns: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows as the SQL store keeps them (numbers, ISO dates, 1/0 or true/false) in the copy's types."""
    frame = pd.DataFrame(rows, columns=[c["name"] for c in columns], dtype=object)
    for column in columns:
        name, kind = column["name"], column["type"]
        if kind == "number":
            frame[name] = pd.to_numeric(frame[name], errors="coerce").astype("float64")
        elif kind == "date":
            frame[name] = pd.to_datetime(frame[name], errors="coerce")
        elif kind == "boolean":
            frame[name] = frame[name].map(_truth, na_action="ignore").astype("boolean")
        else:
            frame[name] = frame[name].astype("string")
    return frame


def _truth(value: Any) -> bool | None:
    if value in (1, True, "1", "t", "true"):
        return True
    return False if value in (0, False, "0", "f", "false") else None


@contextmanager
def read_copy(session_hex: str, table: str) -> Iterator[duckdb.DuckDBPyConnection | None]:
    """A read-only connection to the table's copy (None when there is none yet: the caller builds it)."""
    path = copy_path(session_hex, table)
    try:
        connection = quiet(duckdb.connect(str(path), read_only=True, config=READ_CONFIG))
        connection.execute("SET lock_configuration = true")  # before any statement of a caller's
    except duckdb.IOException:
        if path.exists():
            raise
        yield None
        return
    try:
        yield connection
    finally:
        connection.close()
