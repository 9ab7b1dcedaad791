"""Where one session's tables live, and the wall around them.

On SQLite each session's tables live in a database file of their own, read through a read-only
connection whose authorizer allows only SELECT, reads of that file's tables and an allow-list of
functions; on PostgreSQL each session has a schema of its own, read through a role of its own that
may only SELECT there. Identifiers are always quoted and values always bound.
"""

from __future__ import annotations

import math
import sqlite3
import time
import uuid
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.db import DatabaseError, connections, transaction
from psycopg import sql as pg_sql

from agents.operations.datasets.pages import MAX_VALUE_BYTES, Page, postgres_page, read_error, sqlite_page
from agents.sap.values import json_safe
from protocol.errors import ProtocolError

ALIAS = "datasets"
TYPES = {"string": "TEXT", "number": "DOUBLE PRECISION", "boolean": "BOOLEAN", "date": "DATE"}
DECLARED = {"text": "string", "double precision": "number", "real": "number", "boolean": "boolean", "date": "date"}
COLUMN_NAME = r"^[a-zA-Z_][a-zA-Z0-9_]*$"
# How the databases' own catalogues are named; no session table takes such a name, and dataset SQL
# may name none (PostgreSQL reads an unqualified pg_class as its catalogue's, whatever the path says).
CATALOGUE_PREFIXES = ("pg_", "information_schema", "sqlite_")
# The functions a raw query may call, by the database's own names; everything else is refused
# (by the SQLite authorizer itself, and on both databases by the friendly check first).
ALLOWED_FUNCTIONS = frozenset(
    [
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "total",
        "group_concat",
        "string_agg",
        "stddev",
        "stddev_samp",
        "stddev_pop",
        "variance",
        "var_samp",
        "var_pop",
        "percentile_cont",
        "percentile_disc",
        "mode",
        "corr",
        "covar_samp",
        "covar_pop",
        "bool_and",
        "bool_or",
        "every",
        "abs",
        "round",
        "lower",
        "upper",
        "length",
        "char_length",
        "substr",
        "substring",
        "trim",
        "ltrim",
        "rtrim",
        "replace",
        "coalesce",
        "ifnull",
        "nullif",
        "iif",
        "instr",
        "position",
        "like",
        "glob",
        "typeof",
        "sign",
        "floor",
        "ceil",
        "ceiling",
        "sqrt",
        "power",
        "pow",
        "exp",
        "ln",
        "log",
        "log10",
        "mod",
        "date",
        "time",
        "datetime",
        "julianday",
        "strftime",
        "unixepoch",
        "date_trunc",
        "date_part",
        "extract",
        "to_char",
        "age",
        "concat",
        "concat_ws",
        "left",
        "right",
        "lpad",
        "rpad",
        "greatest",
        "least",
        "row_number",
        "rank",
        "dense_rank",
        "percent_rank",
        "cume_dist",
        "ntile",
        "lag",
        "lead",
        "first_value",
        "last_value",
        "nth_value",
    ]
)


def quote_identifier(name: str) -> str:
    """SQL's own identifier quoting (an embedded quote doubled): the same rule in SQLite and PostgreSQL."""
    return '"' + name.replace('"', '""') + '"'


def open_store(session_id) -> SqliteStore | PostgresStore:
    engine = PostgresStore if connections[ALIAS].vendor == "postgresql" else SqliteStore
    return engine(session_id)


class SqliteStore:
    """One session's tables in a database file of its own: no statement can name another session's
    tables, since none exist there. Reads run on a read-only connection with an authorizer."""

    postgres = False
    mark = "?"

    def __init__(self, session_id):
        self.hex = uuid.UUID(str(session_id)).hex
        self.path = Path(settings.DATA_DIR) / "datasets" / f"{self.hex}.sqlite3"
        self._writer: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for connection in (self._writer, self._reader):
            if connection is not None:
                connection.close()
        self._writer = self._reader = None

    def drop(self) -> None:
        """The session's database file, gone (a session deleted)."""
        self.__exit__()
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

    def execute(self, sql: str, params=(), *, fetch: bool = False):
        """A write, or a read of our own making (a write in progress sees its own rows)."""
        connection = self.reader if fetch and self._writer is None else self.writer
        cursor = connection.execute(sql, params)
        return cursor.fetchall() if fetch else cursor.rowcount

    def executemany(self, sql: str, rows) -> None:
        self.writer.executemany(sql, rows)

    @contextmanager
    def atomic(self):
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

    def column_rows(self, table: str) -> list[tuple]:
        if table not in self.tables():
            return []
        return [(r[1], r[2], not r[3]) for r in self.execute(f"PRAGMA table_info({self.qualified(table)})", fetch=True)]

    def prepare_schema(self) -> None:
        """Nothing to prepare: the file is the session's own."""

    def used_bytes(self) -> int:
        page_count = self.execute("PRAGMA page_count", fetch=True)[0][0]
        return page_count * self.execute("PRAGMA page_size", fetch=True)[0][0]

    def read(self, sql: str, values: list, *, limit: int, offset: int) -> Page:
        deadline = time.monotonic() + settings.DATASET_QUERY_TIMEOUT_S
        reader = self.reader
        reader.set_authorizer(_sqlite_authorizer)
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

    def __init__(self, session_id):
        self.connection = connections[ALIAS]
        self.hex = uuid.UUID(str(session_id)).hex
        self.schema = f"session_{self.hex}"
        self.role = f"chap_ds_{self.hex}"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def qualified(self, table: str) -> str:
        return self._compose(pg_sql.Identifier(self.schema, table))

    def _compose(self, composable) -> str:
        self.connection.ensure_connection()
        return composable.as_string(self.connection.connection)

    def execute(self, sql: str, params=(), *, fetch: bool = False):
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if fetch else cursor.rowcount

    def executemany(self, sql: str, rows) -> None:
        with self.connection.cursor() as cursor:
            cursor.executemany(sql, rows)

    def atomic(self):
        return transaction.atomic(using=ALIAS)

    def tables(self) -> list[str]:
        rows = self.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1",
            [self.schema],
            fetch=True,
        )
        return [name for (name,) in rows]

    def column_rows(self, table: str) -> list[tuple]:
        return self.execute(
            # pg_catalog, not information_schema: the same answer, many times faster.
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            [self.schema, table],
            fetch=True,
        )

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

    def read(self, sql: str, values: list, *, limit: int, offset: int) -> Page:
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


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _sqlite_authorizer(action, first, second, database, _trigger):
    """Only SELECT, reads in this session's own file (its tables and common table expressions; not
    its catalogue) and the allowed functions: the database, not the parser, refuses ATTACH, PRAGMA,
    writes and everything else."""
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_READ and database in ("main", None) and not first.lower().startswith("sqlite_"):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and second.lower() in ALLOWED_FUNCTIONS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def table_columns(store, table: str) -> list[dict]:
    return [
        {"name": name, "type": DECLARED.get(kind.lower(), "string"), "nullable": bool(nullable)}
        for name, kind, nullable in store.column_rows(table)
    ]


def require_table(store, table: str) -> list[dict]:
    columns = table_columns(store, table)
    if not columns:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no table {table!r} in this session",
            details={"resource_type": "TABLE", "resource_name": table, "tables": store.tables()},
            suggestion=["create it with dataset.create-table or dataset.import-csv"],
        )
    return columns


def create_table(store, table: str, columns: list[dict]) -> None:
    if table.lower().startswith(CATALOGUE_PREFIXES):
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"table names starting with {', '.join(CATALOGUE_PREFIXES)} are the database's own",
            details={"violations": {"table": table}},
            suggestion=[f"such as 'my_{table}'"],
        )
    store.prepare_schema()
    spec = ", ".join(
        f"{quote_identifier(c['name'])} {TYPES[c.get('type') or 'string']}"
        + ("" if c.get("nullable", True) else " NOT NULL")
        for c in columns
    )
    store.execute(f"CREATE TABLE {store.qualified(table)} ({spec})")


def check_quota(store) -> None:
    """Inside the writing transaction, so a write that passes the quota is undone whole."""
    used = store.used_bytes()
    if used > settings.DATASET_QUOTA_BYTES:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"the session's datasets would take {used} bytes, more than the quota of {settings.DATASET_QUOTA_BYTES}",
            details={"limit": settings.DATASET_QUOTA_BYTES, "used": used},
            suggestion=["drop tables you no longer need", "load fewer rows, or aggregate first"],
        )


def column_value(column: dict, value, where: str):
    """A JSON value as the column stores it; ProtocolError naming ``where`` when it does not fit."""
    if value is None:
        if not column["nullable"]:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"{where}: {column['name']} may not be null",
                details={"invalid": {where: "null in a NOT NULL column"}},
            )
        return None
    kind = column["type"]
    ok = (
        (kind == "string" and isinstance(value, str))
        or (
            kind == "number" and isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
        or (kind == "boolean" and isinstance(value, bool))
        or (kind == "date" and isinstance(value, str) and is_date(value))
    )
    if not ok:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{where}: {column['name']} expects {kind}, got {value!r}",
            details={"invalid": {where: f"expected {kind}"}},
        )
    return value


def is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def insert_rows(store, table: str, columns: list[dict], rows: list[list]) -> None:
    names = ", ".join(quote_identifier(c["name"]) for c in columns)
    marks = ", ".join([store.mark] * len(columns))
    store.executemany(f"INSERT INTO {store.qualified(table)} ({names}) VALUES ({marks})", rows)
    check_quota(store)


def stored_as_json(column: dict, value):
    if value is None:
        return None
    if column["type"] == "boolean":
        return bool(value)
    if column["type"] == "date":
        return value.isoformat() if isinstance(value, date) else str(value)
    return json_safe(value)


def row_count(store, table: str) -> int:
    return store.execute(f"SELECT COUNT(*) FROM {store.qualified(table)}", fetch=True)[0][0]
