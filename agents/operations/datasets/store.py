"""Where one session's tables live, and the wall around them.

On SQLite each session's tables live in a database file of their own, read through a read-only
connection whose authorizer allows only SELECT, reads of that file's tables and an allow-list of
functions; on PostgreSQL each session has a schema of its own, read through a role of its own that
may only SELECT there. Identifiers are always quoted and values always bound. What the wall lets
through is ``wall``'s; what a row's values may be, ``rows``'.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.db import DatabaseError, connections, transaction
from psycopg import sql as pg_sql

from agents.operations.context import SessionId
from agents.operations.datasets.columnar import forget
from agents.operations.datasets.pages import MAX_VALUE_BYTES, Page, postgres_page, read_error, sqlite_page
from agents.operations.datasets.wall import CATALOGUE_PREFIXES, quote_identifier, sqlite_authorizer
from protocol.errors import ProtocolError, not_found

ALIAS = "datasets"
SOURCE_MARK = "chap-source: "
TYPES = {"string": "TEXT", "number": "DOUBLE PRECISION", "boolean": "BOOLEAN", "date": "DATE"}
DECLARED = {"text": "string", "double precision": "number", "real": "number", "boolean": "boolean", "date": "date"}


def open_store(session_id: SessionId) -> Store:
    engine = PostgresStore if connections[ALIAS].vendor == "postgresql" else SqliteStore
    return engine(session_id)


def readable_from_another_process() -> bool:
    """Whether another process would read the tables as this one does: not while a transaction is open
    on PostgreSQL's datasets connection (its writes are seen only there); SQLite's files commit at once."""
    datasets = connections[ALIAS]
    return datasets.vendor != "postgresql" or not datasets.in_atomic_block


class SqliteStore:
    """One session's tables in a database file of its own: no statement can name another session's
    tables, since none exist there. Reads run on a read-only connection with an authorizer."""

    postgres = False
    mark = "?"
    max_columns = 2000  # SQLITE_MAX_COLUMN as SQLite is built by default

    def __init__(self, session_id: SessionId) -> None:
        self.hex = uuid.UUID(str(session_id)).hex
        self.path = Path(settings.DATA_DIR) / "datasets" / f"{self.hex}.sqlite3"
        self._writer: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        for connection in (self._writer, self._reader):
            if connection is not None:
                connection.close()
        self._writer = self._reader = None

    def drop(self) -> None:
        """The session's database file, gone (a session deleted)."""
        self.__exit__()
        forget(self.hex)
        for suffix in ("", "-wal", "-shm"):
            self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)

    @property
    def writer(self) -> sqlite3.Connection:
        if self._writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = sqlite3.connect(self.path, timeout=20, isolation_level=None, check_same_thread=False)
            self._writer.execute("PRAGMA journal_mode=WAL")
            self._writer.execute("PRAGMA synchronous=NORMAL")
            self._writer.text_factory = _lenient_text
        return self._writer

    def qualified(self, table: str) -> str:
        return quote_identifier(table)

    @property
    def reader(self) -> sqlite3.Connection:
        """One read-only connection for the catalogue and the queries of this store's life: a query
        opens the file once. The authorizer is on only while a caller's statement runs."""
        if self._reader is None:
            self._reader = sqlite3.connect(
                f"file:{quote(str(self.path))}?mode=ro", uri=True, timeout=20, isolation_level=None
            )
            self._reader.text_factory = _lenient_text
            self._reader.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        return self._reader

    def execute(self, sql: str, params: Any = (), *, fetch: bool = False) -> Any:
        """A write, or a read of our own making (a write in progress sees its own rows)."""
        connection = self.reader if fetch and self._writer is None else self.writer
        if not fetch:
            forget(self.hex)  # the columnar copies would be stale: the next analysis rebuilds them
        cursor = connection.execute(sql, params)
        return cursor.fetchall() if fetch else cursor.rowcount

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        forget(self.hex)
        self.writer.executemany(sql, rows)

    def chunks(self, sql: str, size: int) -> Iterator[list[Any]]:
        """A read of our own making, ``size`` rows at a time (a whole table, to copy it)."""
        cursor = (self.reader if self._writer is None else self.writer).execute(sql)
        while rows := cursor.fetchmany(size):
            yield rows

    def insert(self, table: str, names: list[str], rows: Sequence[Sequence[Any]]) -> None:
        listed = ", ".join(quote_identifier(name) for name in names)
        marks = ", ".join([self.mark] * len(names))
        self.executemany(f"INSERT INTO {self.qualified(table)} ({listed}) VALUES ({marks})", rows)

    @contextmanager
    def atomic(self) -> Iterator[None]:
        self.writer.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.writer.execute("ROLLBACK")
            raise
        self.writer.execute("COMMIT")

    def tables(self) -> list[str]:
        if not self.path.exists():
            return []
        rows = self.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1", fetch=True)
        return [name for (name,) in rows]

    def column_rows(self, table: str) -> list[tuple[str, str, bool]]:
        if table not in self.tables():
            return []
        return [(r[1], r[2], not r[3]) for r in self.execute(f"PRAGMA table_info({self.qualified(table)})", fetch=True)]

    def create(self, table: str, spec: str, source: str | None) -> None:
        """SQLite keeps a CREATE statement as written, so the source rides in it as a comment."""
        note = f" /* {_source_note(source).replace('*/', '')} */" if source else ""
        self.execute(f"CREATE TABLE {self.qualified(table)} ({spec}{note})")

    def note(self, table: str) -> str:
        rows = self.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table], fetch=True)
        return str(rows[0][0] or "") if rows else ""

    def prepare_schema(self) -> None:
        """Nothing to prepare: the file is the session's own."""

    def used_bytes(self) -> int:
        page_count = self.execute("PRAGMA page_count", fetch=True)[0][0]
        return int(page_count * self.execute("PRAGMA page_size", fetch=True)[0][0])

    def read(self, sql: str, values: list[Any], *, limit: int, offset: int) -> Page:
        deadline = time.monotonic() + settings.DATASET_QUERY_TIMEOUT_S
        reader = self.reader
        reader.set_authorizer(sqlite_authorizer)
        reader.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        try:
            return sqlite_page(reader.cursor(), sql, values, limit=limit, offset=offset)
        except sqlite3.Error as exc:
            raise read_error(str(exc)) from None
        finally:
            reader.set_authorizer(None)
            reader.set_progress_handler(None, 0)


class PostgresStore:
    """One session's tables in a schema of its own, read as a role of its own that may only SELECT
    there, never as the application's role. A query cannot switch back: ``set_config`` is not
    executable by PUBLIC (the ``chap_datasets.E001`` check), and ``SET ROLE`` is no SELECT."""

    postgres = True
    mark = "%s"
    max_columns = 1600  # MaxHeapAttributeNumber

    def __init__(self, session_id: SessionId) -> None:
        self.connection = connections[ALIAS]
        self.hex = uuid.UUID(str(session_id)).hex
        self.schema = f"session_{self.hex}"
        self.role = f"chap_ds_{self.hex}"

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def qualified(self, table: str) -> str:
        return self._compose(pg_sql.Identifier(self.schema, table))

    def _compose(self, composable: pg_sql.Composable) -> str:
        self.connection.ensure_connection()
        return composable.as_string(self.connection.connection)

    def execute(self, sql: str, params: Any = (), *, fetch: bool = False) -> Any:
        """The fetched rows, or the count of rows written."""
        if not fetch:
            self._forget_copies()
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if fetch else cursor.rowcount

    def chunks(self, sql: str, size: int) -> Iterator[list[Any]]:
        """A read of our own making, ``size`` rows at a time (a whole table, to copy it)."""
        with self.connection.cursor() as cursor:
            cursor.execute(sql)
            while rows := cursor.fetchmany(size):
                yield rows

    def _forget_copies(self) -> None:
        """Now, and again when the write commits: a copy rebuilt in between read the rows before it."""
        forget(self.hex)
        transaction.on_commit(partial(forget, self.hex), using=ALIAS)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._forget_copies()
        with self._row_size_said(), self.connection.cursor() as cursor:
            cursor.executemany(sql, rows)

    def insert(self, table: str, names: list[str], rows: Sequence[Sequence[Any]]) -> None:
        """Rows in by COPY: one statement streaming every row, not one INSERT a row."""
        self._forget_copies()
        listed = pg_sql.SQL(", ").join(pg_sql.Identifier(name) for name in names)
        statement = pg_sql.SQL("COPY {} ({}) FROM STDIN").format(pg_sql.Identifier(self.schema, table), listed)
        with self._row_size_said(), self.connection.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)

    @contextmanager
    def _row_size_said(self) -> Iterator[None]:
        try:
            yield
        except (DatabaseError, psycopg.Error) as exc:
            if "row is too big" not in str(exc):
                raise
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"a row is larger than PostgreSQL stores in one row: {str(exc).splitlines()[0]}",
                details={"limit": "row size", "database": str(exc).splitlines()[0]},
                suggestion=["keep fewer columns in one table (split the file)", "keep long texts in workspace files"],
            ) from None

    def atomic(self) -> AbstractContextManager[None]:
        return transaction.atomic(using=ALIAS)

    def tables(self) -> list[str]:
        rows = self.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1",
            [self.schema],
            fetch=True,
        )
        return [name for (name,) in rows]

    def column_rows(self, table: str) -> list[tuple[str, str, bool]]:
        rows: list[tuple[str, str, bool]] = self.execute(
            # pg_catalog, not information_schema: the same answer, many times faster.
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            [self.schema, table],
            fetch=True,
        )
        return rows

    def create(self, table: str, spec: str, source: str | None) -> None:
        self.execute(f"CREATE TABLE {self.qualified(table)} ({spec})")
        if source:
            comment = pg_sql.SQL("COMMENT ON TABLE {} IS {}").format(
                pg_sql.Identifier(self.schema, table), pg_sql.Literal(_source_note(source))
            )
            self.execute(self._compose(comment))

    def note(self, table: str) -> str:
        rows = self.execute(
            "SELECT obj_description(c.oid, 'pg_class') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = %s",
            [self.schema, table],
            fetch=True,
        )
        return str(rows[0][0] or "") if rows else ""

    def prepare_schema(self) -> None:
        """The schema and its reader role, idempotently."""
        schema, role = pg_sql.Identifier(self.schema), pg_sql.Identifier(self.role)
        self.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [self.role], fetch=True)
        self.execute(self._compose(pg_sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema)))
        if not self.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [self.role], fetch=True):
            self.execute(self._compose(pg_sql.SQL("CREATE ROLE {} NOLOGIN NOINHERIT").format(role)))
        for statement in (
            "GRANT {role} TO CURRENT_USER",
            "GRANT USAGE ON SCHEMA {schema} TO {role}",
            "GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}",
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT SELECT ON TABLES TO {role}",
        ):
            self.execute(self._compose(pg_sql.SQL(statement).format(schema=schema, role=role)))

    def drop(self) -> None:
        """The session's schema and reader role, gone (a session deleted, the database about to be).
        The role belongs to the cluster, not the database: dropping the database would leave it."""
        forget(self.hex)
        with self.atomic():
            if self.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [self.role], fetch=True):
                self.execute(self._compose(pg_sql.SQL("DROP OWNED BY {}").format(pg_sql.Identifier(self.role))))
                self.execute(self._compose(pg_sql.SQL("DROP ROLE {}").format(pg_sql.Identifier(self.role))))
            self.execute(
                self._compose(pg_sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(pg_sql.Identifier(self.schema)))
            )

    def used_bytes(self) -> int:
        rows = self.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
            [self.schema],
            fetch=True,
        )
        return int(rows[0][0])

    def read(self, sql: str, values: list[Any], *, limit: int, offset: int) -> Page:
        timeout_ms = max(1, int(settings.DATASET_QUERY_TIMEOUT_S * 1000))
        settings_sql = pg_sql.SQL(
            "SET LOCAL ROLE {role}; SET LOCAL search_path = {schema}; SET LOCAL statement_timeout = {timeout}; "
            "SET LOCAL transaction_read_only = on"
        ).format(
            role=pg_sql.Identifier(self.role), schema=pg_sql.Identifier(self.schema), timeout=pg_sql.Literal(timeout_ms)
        )
        try:
            # Its own transaction (a savepoint inside a caller's), always rolled back: the role, the
            # path and read-only end with it, and a failed statement poisons nothing.
            with transaction.atomic(using=ALIAS), self.connection.cursor() as cursor:
                cursor.execute(self._compose(settings_sql))
                result = postgres_page(cursor, sql, values, limit=limit, offset=offset)
                transaction.set_rollback(True, using=ALIAS)
        except (DatabaseError, psycopg.Error) as exc:
            raise read_error(str(exc)) from None
        return result


# Either database's store: the same methods, so the operations never ask which it is.
Store: TypeAlias = SqliteStore | PostgresStore


def _source_note(source: str) -> str:
    return f"{SOURCE_MARK}{json.dumps(source)}"


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def table_columns(store: Store, table: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "type": DECLARED.get(kind.lower(), "string"), "nullable": bool(nullable)}
        for name, kind, nullable in store.column_rows(table)
    ]


def column_names(session_id: SessionId, table: str) -> list[str] | None:
    """The names of ``table``'s columns, or None when the session has no such table."""
    with open_store(session_id) as store:
        return [name for name, _, _ in store.column_rows(table)] or None


def require_table(store: Store, table: str) -> list[dict[str, Any]]:
    columns = table_columns(store, table)
    if not columns:
        raise not_found(
            "TABLE",
            table,
            f"no table {table!r} in this session",
            suggestion=["create it with dataset.create-table or dataset.import-csv"],
            tables=store.tables(),
        )
    return columns


def create_table(store: Store, table: str, columns: list[dict[str, Any]], source: str | None = None) -> None:
    """The table; ``source``, the workspace file it is a copy of, is kept with it (``table_source``)."""
    if table.lower().startswith(CATALOGUE_PREFIXES):
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"table names starting with {', '.join(CATALOGUE_PREFIXES)} are the database's own",
            details={"violations": {"table": table}},
            suggestion=[f"such as 'my_{table}'"],
        )
    if len(columns) > store.max_columns:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"a table has at most {store.max_columns} columns on this database, not {len(columns)}",
            details={"limit": store.max_columns, "columns": len(columns), "database": type(store).__name__},
            suggestion=[
                f"keep the columns you need (at most {store.max_columns}) in the file",
                "split the file into tables that share a key column",
            ],
        )
    store.prepare_schema()
    spec = ", ".join(
        f"{quote_identifier(c['name'])} {TYPES[c.get('type') or 'string']}"
        + ("" if c.get("nullable", True) else " NOT NULL")
        for c in columns
    )
    store.create(table, spec, source)


def table_source(store: Store, table: str) -> str | None:
    """The workspace file a table was imported from (``create_table``'s ``source``), or None."""
    found = re.search(re.escape(SOURCE_MARK) + r'("(?:[^"\\]|\\.)*")', store.note(table))
    return str(json.loads(found.group(1))) if found else None


def row_count(store: Store, table: str) -> int:
    return int(store.execute(f"SELECT COUNT(*) FROM {store.qualified(table)}", fetch=True)[0][0])
