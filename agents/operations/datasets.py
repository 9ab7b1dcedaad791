"""dataset.* operations: tables that belong to one session.

Isolation is the database's: on SQLite each session's tables live in a database file of their own,
read through a read-only connection whose authorizer allows only SELECT, reads of that file's tables
and an allow-list of functions; on PostgreSQL each session has a schema of its own, read through a
login role of its own that may only SELECT there. Identifiers are always quoted, values always bound,
and a raw ``sql`` query is first checked (one SELECT of this session's tables, allowed functions) to
give a friendly structured error; the database is the wall.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
import sqlite3
import time
import uuid
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from urllib.parse import quote

import psycopg
import sqlglot
from django.conf import settings
from django.db import DatabaseError, connections, transaction
from psycopg import sql as pg_sql
from sqlglot import expressions as exp

from agents.operations.files import check_room, existing_file, safe_name, storage_for, store_bytes
from agents.sap import ErrorDoc, Example, Operation, Param, SapError, format_block
from agents.sap.values import json_safe

ALIAS = "datasets"
TYPES = {"string": "TEXT", "number": "DOUBLE PRECISION", "boolean": "BOOLEAN", "date": "DATE"}
DECLARED = {"text": "string", "double precision": "number", "real": "number", "boolean": "boolean", "date": "date"}
TABLE = Param(
    "string",
    "table name: letters, digits, underscore",
    required=True,
    min_length=1,
    max_length=64,
    pattern=r"^[a-zA-Z_][a-zA-Z0-9_]*$",
)
COLUMN_NAME = r"^[a-zA-Z_][a-zA-Z0-9_]*$"
MAX_ROWS = 10_000
AGGREGATES = ("count", "sum", "avg", "min", "max")
OPS = ("=", "!=", "<", "<=", ">", ">=", "in", "like", "is_null")
MAX_VALUE_BYTES = 10 * 1024 * 1024
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
NOT_FOUND = ErrorDoc("RESOURCE_NOT_FOUND", "No such table in this session.", "List them with dataset.list-tables.")


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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

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

    def execute(self, sql: str, params=(), *, fetch: bool = False):
        cursor = self.writer.execute(sql, params)
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

    def read(self, sql: str, values: list, *, limit: int, offset: int) -> tuple[list[str], list, int | None]:
        deadline = time.monotonic() + settings.DATASET_QUERY_TIMEOUT_S
        reader = sqlite3.connect(f"file:{quote(str(self.path))}?mode=ro", uri=True, timeout=20)
        try:
            reader.text_factory = _lenient_text
            reader.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
            reader.set_authorizer(_sqlite_authorizer)
            reader.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
            return _paged(reader.cursor(), sql, values, self.mark, limit=limit, offset=offset)
        except sqlite3.Error as exc:
            raise _read_error(str(exc)) from None
        finally:
            reader.close()


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
        """The session's schema and reader role, gone (a session deleted, a test database dropped)."""
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

    def read(self, sql: str, values: list, *, limit: int, offset: int) -> tuple[list[str], list, int | None]:
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
                result = _paged(cursor, sql, values, self.mark, limit=limit, offset=offset)
                transaction.set_rollback(True, using=ALIAS)
        except (DatabaseError, psycopg.Error) as exc:
            raise _read_error(str(exc)) from None
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


def _paged(cursor, sql: str, values: list, mark: str, *, limit: int, offset: int) -> tuple[list[str], list, int | None]:
    """Rows of ``sql`` (one more than ``limit``, to know there are more) and the total when cut."""
    cursor.execute(f"SELECT * FROM ({sql}) AS limited LIMIT {mark} OFFSET {mark}", [*values, limit + 1, offset])
    names = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    total = None
    if len(rows) > limit:
        cursor.execute(f"SELECT COUNT(*) FROM ({sql}) AS counted", values)
        total = cursor.fetchone()[0]
    return names, [[json_safe(v) for v in row] for row in rows[:limit]], total


def _read_error(text: str) -> SapError:
    if any(word in text for word in ("interrupt", "timeout", "cancel")):
        return SapError(
            "TIMEOUT",
            f"the query ran past {settings.DATASET_QUERY_TIMEOUT_S} s",
            details={"limit_s": settings.DATASET_QUERY_TIMEOUT_S},
            suggestion=["add filters, or aggregate"],
        )
    if any(word in text for word in ("not authorized", "permission denied", "read-only")):
        return SapError(
            "PERMISSION_DENIED",
            "the query reaches beyond this session's tables or calls a function that is not allowed",
            details={"permission": "dataset.query", "database": text.splitlines()[0]},
            suggestion=["read only this session's tables (dataset.list-tables)", "use the structured query fields"],
        )
    return SapError(
        "VALIDATION_FAILED", f"the query failed: {text.splitlines()[0]}", details={"invalid": {"sql": text}}
    )


def _columns(store, table: str) -> list[dict]:
    return [
        {"name": name, "type": DECLARED.get(kind.lower(), "string"), "nullable": bool(nullable)}
        for name, kind, nullable in store.column_rows(table)
    ]


def _require(store, table: str) -> list[dict]:
    columns = _columns(store, table)
    if not columns:
        raise SapError(
            "RESOURCE_NOT_FOUND",
            f"no table {table!r} in this session",
            details={"resource_type": "TABLE", "resource_name": table, "tables": store.tables()},
            suggestion=["create it with dataset.create-table or dataset.import-csv"],
        )
    return columns


def _create(store, table: str, columns: list[dict]) -> None:
    store.prepare_schema()
    spec = ", ".join(
        f"{quote_identifier(c['name'])} {TYPES[c.get('type') or 'string']}"
        + ("" if c.get("nullable", True) else " NOT NULL")
        for c in columns
    )
    store.execute(f"CREATE TABLE {store.qualified(table)} ({spec})")


def _check_quota(store) -> None:
    """Inside the writing transaction, so a write that passes the quota is undone whole."""
    used = store.used_bytes()
    if used > settings.DATASET_QUOTA_BYTES:
        raise SapError(
            "LIMIT_EXCEEDED",
            f"the session's datasets would take {used} bytes, more than the quota of {settings.DATASET_QUOTA_BYTES}",
            details={"limit": settings.DATASET_QUOTA_BYTES, "used": used},
            suggestion=["drop tables you no longer need", "load fewer rows, or aggregate first"],
        )


def _value(column: dict, value, where: str):
    """A JSON value as the column stores it; SapError naming ``where`` when it does not fit."""
    if value is None:
        if not column["nullable"]:
            raise SapError(
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
        or (kind == "date" and isinstance(value, str) and _is_date(value))
    )
    if not ok:
        raise SapError(
            "VALIDATION_FAILED",
            f"{where}: {column['name']} expects {kind}, got {value!r}",
            details={"invalid": {where: f"expected {kind}"}},
        )
    return value


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _insert(store, table: str, columns: list[dict], rows: list[list]) -> None:
    names = ", ".join(quote_identifier(c["name"]) for c in columns)
    marks = ", ".join([store.mark] * len(columns))
    store.executemany(f"INSERT INTO {store.qualified(table)} ({names}) VALUES ({marks})", rows)
    _check_quota(store)


def _create_table(call, params):
    table = params["table"]
    with open_store(call.context.session_id) as store:
        if table in store.tables():
            if params["if_not_exists"]:
                return {"status": "exists", "table": table}
            raise _already_exists(table)
        _check_column_names(params["columns"])
        with store.atomic():
            _create(store, table, params["columns"])
        return {"status": "success", "table": table, "columns": _columns(store, table)}


def _already_exists(table: str) -> SapError:
    return SapError(
        "RESOURCE_ALREADY_EXISTS",
        f"table {table!r} already exists",
        details={"resource_type": "TABLE", "resource_name": table, "conflict_type": "NAME_DUPLICATE"},
        suggestion=[
            "use a different table name",
            f"such as '{table}_v2'",
            "drop the existing table first (needs approval)",
            'set "if_not_exists": true',
        ],
    )


def _check_column_names(columns: list[dict]) -> None:
    names = [c["name"] for c in columns]
    bad = [n for n in names if not re.fullmatch(COLUMN_NAME, n)]
    if bad or len(set(names)) != len(names):
        raise SapError(
            "VALIDATION_FAILED",
            "column names are letters, digits and underscores, each used once",
            details={"violations": {"columns": bad or "duplicate names"}},
        )


def _table_exists(call, params):
    with open_store(call.context.session_id) as store:
        return {"table": params["table"], "exists": params["table"] in store.tables()}


def _count(store, table: str) -> int:
    return store.execute(f"SELECT COUNT(*) FROM {store.qualified(table)}", fetch=True)[0][0]


def _list_tables(call, params):
    with open_store(call.context.session_id) as store:
        return {"tables": [{"table": t, "rows": _count(store, t)} for t in store.tables()]}


def _describe_table(call, params):
    table = params["table"]
    with open_store(call.context.session_id) as store:
        columns = _require(store, table)
        parts = ["COUNT(*)"]
        for c in columns:
            q = quote_identifier(c["name"])
            ordered = f"CAST({q} AS INTEGER)" if c["type"] == "boolean" else q  # PostgreSQL has no MIN(boolean)
            parts += [f"COUNT(*) - COUNT({q})", f"MIN({ordered})", f"MAX({ordered})", f"COUNT(DISTINCT {q})"]
        row = store.execute(f"SELECT {', '.join(parts)} FROM {store.qualified(table)}", fetch=True)[0]
    described = []
    for index, c in enumerate(columns):
        nulls, low, high, distinct = row[1 + index * 4 : 5 + index * 4]
        described.append(
            {**c, "null_count": nulls, "min": _json(c, low), "max": _json(c, high), "distinct_estimate": distinct}
        )
    return {"table": table, "row_count": row[0], "columns": described}


def _json(column: dict, value):
    if value is None:
        return None
    if column["type"] == "boolean":
        return bool(value)
    if column["type"] == "date":
        return value.isoformat() if isinstance(value, date) else str(value)
    return json_safe(value)


def _insert_rows(call, params):
    table = params["table"]
    with open_store(call.context.session_id) as store:
        columns = _require(store, table)
        known = {c["name"] for c in columns}
        rows = []
        for index, row in enumerate(params["rows"]):
            unknown = sorted(set(row) - known)
            if unknown:
                raise SapError(
                    "VALIDATION_FAILED",
                    f"rows[{index}] has unknown columns {unknown}",
                    details={"invalid": {f"rows[{index}]": f"unknown columns {unknown}"}, "columns": sorted(known)},
                )
            rows.append([_value(c, row.get(c["name"]), f"rows[{index}].{c['name']}") for c in columns])
        with store.atomic():
            _insert(store, table, columns, rows)
    return {"status": "success", "table": table, "inserted": len(rows)}


# -- queries ----------------------------------------------------------------------------------


def _compile(store, table: str, columns: list[dict], params: dict) -> tuple[str, list, list[str]]:
    """A structured query as parameterised SQL over quoted identifiers; returns (sql, params, names).

    Every name is checked against the table's columns first (SQLite would read a double-quoted
    name that is no column as a string, and no name should reach SQL unchecked anyway).
    """
    known = {c["name"] for c in columns}

    def column(name, where: str) -> str:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise SapError(
                "VALIDATION_FAILED",
                f"{where}: no column {name!r} in {table!r}",
                details={"invalid": {where: f"unknown column {name!r}"}, "columns": sorted(known)},
                suggestion=[f"did you mean {close[0]!r}?"] if close else [],
            )
        return quote_identifier(name)

    select, names = [], []
    everything = [c["name"] for c in columns]
    for index, item in enumerate(params.get("select") or everything):
        if item == "*":
            select.append("*")
            continue
        if isinstance(item, str):
            select.append(column(item, f"select[{index}]"))
            names.append(item)
            continue
        if not isinstance(item, dict):
            raise SapError(
                "VALIDATION_FAILED",
                f"select[{index}] must be a column name or {{fn, column, as}}",
                details={"invalid": {f"select[{index}]": f"expected string or object, got {type(item).__name__}"}},
            )
        fn = item.get("fn")
        if fn not in AGGREGATES:
            raise SapError(
                "VALIDATION_FAILED",
                f"select[{index}].fn must be one of {list(AGGREGATES)}",
                details={"violations": {f"select[{index}].fn": fn}},
            )
        target = (
            "*"
            if item.get("column", "*") == "*" and fn == "count"
            else column(item.get("column", ""), f"select[{index}].column")
        )
        alias = item.get("as") or f"{fn}_{item.get('column', 'all')}".replace("*", "all")
        if not re.fullmatch(COLUMN_NAME, alias):
            raise SapError(
                "VALIDATION_FAILED",
                f"select[{index}].as must be an identifier",
                details={"violations": {f"select[{index}].as": alias}},
            )
        select.append(f"{fn.upper()}({target}) AS {quote_identifier(alias)}")
        names.append(alias)
    values: list = []

    def condition(node, where: str, depth: int = 0) -> str:
        if depth > 8:
            raise SapError(
                "VALIDATION_FAILED",
                "filters nest too deep (at most 8 levels)",
                details={"violations": {where: "too deep"}},
            )
        if not isinstance(node, dict):
            raise SapError(
                "VALIDATION_FAILED", f"{where} must be an object", details={"invalid": {where: "expected object"}}
            )
        for joiner in ("and", "or"):
            if joiner in node:
                parts = node[joiner]
                if not isinstance(parts, list) or not parts:
                    raise SapError(
                        "VALIDATION_FAILED",
                        f"{where}.{joiner} must be a non-empty list",
                        details={"invalid": {f"{where}.{joiner}": "expected array"}},
                    )
                inner = f" {joiner.upper()} ".join(
                    condition(p, f"{where}.{joiner}[{i}]", depth + 1) for i, p in enumerate(parts)
                )
                return f"({inner})"
        op = node.get("op", "=")
        if op not in OPS:
            raise SapError(
                "VALIDATION_FAILED",
                f"{where}.op must be one of {list(OPS)}",
                details={"violations": {f"{where}.op": op}},
            )
        target = column(str(node.get("column")), f"{where}.column")
        value = node.get("value")
        if op == "is_null":
            return f"{target} IS {'' if value is not False else 'NOT '}NULL"
        if op == "in":
            if not isinstance(value, list) or not value or len(value) > 1000:
                raise SapError(
                    "VALIDATION_FAILED",
                    f"{where}.value must be a list of 1 to 1000 values",
                    details={"invalid": {f"{where}.value": "expected array"}},
                )
            values.extend(value)
            return f"{target} IN ({', '.join([store.mark] * len(value))})"
        if isinstance(value, dict | list):
            raise SapError(
                "VALIDATION_FAILED",
                f"{where}.value must be a plain value",
                details={"invalid": {f"{where}.value": "expected scalar"}},
            )
        values.append(value)
        return f"{target} {'LIKE' if op == 'like' else op} {store.mark}"

    sql = f"SELECT {', '.join(select)} FROM {store.qualified(table)}"
    if params.get("filters"):
        sql += " WHERE " + condition(params["filters"], "filters")
    if params.get("group_by"):
        sql += " GROUP BY " + ", ".join(column(name, f"group_by[{i}]") for i, name in enumerate(params["group_by"]))
    orders = []
    for index, order in enumerate(params.get("order_by") or []):
        if not isinstance(order, dict):
            raise SapError(
                "VALIDATION_FAILED",
                f"order_by[{index}] must be {{column, direction}}",
                details={"invalid": {f"order_by[{index}]": "expected object"}},
            )
        name = order.get("column", "")
        is_alias = name in names and name not in known
        quoted = quote_identifier(name) if is_alias else column(name, f"order_by[{index}].column")
        orders.append(f"{quoted} {'DESC' if order.get('direction') == 'desc' else 'ASC'}")
    if orders:
        sql += " ORDER BY " + ", ".join(orders)
    return sql, values, names


def _checked_sql(store, text: str) -> str:
    """``text`` if it reads as one SELECT of this session's tables with allowed functions.

    The first, friendly line: it names what is wrong and what to do. The wall is the database (the
    session's own file or role), which runs the text as given.
    """
    dialect = "postgres" if store.postgres else "sqlite"
    try:
        statements = [s for s in sqlglot.parse(text, read=dialect) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise SapError(
            "VALIDATION_FAILED",
            f"sql does not parse: {str(exc).splitlines()[0]}",
            details={"invalid": {"sql": "unparseable"}},
        ) from None
    if len(statements) != 1 or not isinstance(statements[0], exp.Select | exp.Union):
        raise SapError(
            "PERMISSION_DENIED",
            "sql must be exactly one SELECT statement",
            details={"permission": "dataset.query", "statements": len(statements)},
            suggestion=["use the structured query fields for anything else"],
        )
    tree = statements[0]
    writes = [
        node
        for node in tree.walk()
        if isinstance(
            node, exp.Into | exp.Insert | exp.Update | exp.Delete | exp.Create | exp.Drop | exp.Command | exp.Lock
        )
    ]
    unknown = sorted({node.name.lower() for node in tree.find_all(exp.Anonymous)} - ALLOWED_FUNCTIONS)
    if writes or unknown:
        raise SapError(
            "PERMISSION_DENIED",
            "sql may only read data, with the functions of the allow-list",
            details={"permission": "dataset.query", "refused": unknown or "a write"},
            suggestion=[f"allowed functions: {', '.join(sorted(ALLOWED_FUNCTIONS))}"],
        )
    mine = set(store.tables())
    ctes = {cte.alias for cte in tree.find_all(exp.CTE)}
    for node in tree.find_all(exp.Table):
        if node.db or node.catalog or (node.name not in mine and node.name not in ctes):
            raise SapError(
                "PERMISSION_DENIED",
                f"sql may read only this session's tables, not {node.sql()!r}",
                details={"permission": "dataset.query", "table": node.sql(), "tables": sorted(mine)},
                suggestion=["list them with dataset.list-tables"],
            )
    return text


def _run(store, sql: str, values: list, *, limit: int, offset: int) -> dict:
    """Rows of ``sql`` within the time and row limits; ``truncated`` says when there were more."""
    names, rows, total = store.read(sql, values, limit=limit, offset=offset)
    truncated = total is not None
    return {
        "columns": names,
        # Rows as lists under "columns": a third of the size of one object per row, for people and
        # for the token budgets of LLM agents alike.
        "rows": rows,
        "row_count": len(rows),
        "truncated": truncated,
        "total_rows": total if truncated else offset + len(rows),
    }


def _query(call, params):
    limits = {"limit": params["limit"], "offset": params["offset"]}
    with open_store(call.context.session_id) as store:
        if params.get("sql"):
            sql = _checked_sql(store, params["sql"])
            return {**_run(store, sql, [], **limits), "query": {"sql": sql}}
        table = params.get("table")
        if not table:
            raise SapError(
                "VALIDATION_FAILED", "give either table (a structured query) or sql", details={"missing": ["table"]}
            )
        sql, values, _ = _compile(store, table, _require(store, table), params)
        return {**_run(store, sql, values, **limits), "query": {"sql": sql, "params": values}}


# -- CSV ----------------------------------------------------------------------------------------


def _infer(values: list[str]) -> str:
    present = [v for v in values if v != ""]
    if not present:
        return "string"
    if all(v.lower() in ("true", "false", "yes", "no") for v in present):
        return "boolean"
    try:
        if all(math.isfinite(float(v)) for v in present):
            return "number"
    except ValueError:
        pass
    if all(_is_date(v) for v in present):
        return "date"
    return "string"


def _convert(kind: str, text: str):
    if text == "":
        return None
    if kind == "number":
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if kind == "boolean":
        return text.lower() in ("true", "yes")
    return text


def _import_csv(call, params):
    session_id = call.context.session_id
    storage, name = existing_file(session_id, params["path"])
    with storage.open(name, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode(params["encoding"])
    except (UnicodeDecodeError, LookupError) as exc:
        raise SapError(
            "VALIDATION_FAILED",
            f"the file is not {params['encoding']}: {exc}",
            details={"invalid": {"encoding": params["encoding"]}},
        ) from None
    records = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=params["delimiter"]))
    if not records:
        raise SapError("VALIDATION_FAILED", "the file is empty", details={"invalid": {"path": "empty"}})
    header = records[0] if params["header"] else [f"column_{i + 1}" for i in range(len(records[0]))]
    body = records[1:] if params["header"] else records
    names = []
    for index, title in enumerate(header):
        clean = re.sub(r"[^A-Za-z0-9_]", "_", title.strip()) or f"column_{index + 1}"
        clean = f"c_{clean}" if clean[0].isdigit() else clean
        while clean in names:
            clean += "_"
        names.append(clean)
    good, rejected = [], []
    for offset, record in enumerate(body, start=2 if params["header"] else 1):
        if len(record) != len(names):
            rejected.append({"line": offset, "reason": f"{len(record)} fields, expected {len(names)}"})
        else:
            good.append(record)
    kinds = [_infer([row[i] for row in good]) for i in range(len(names))]
    columns = [{"name": n, "type": k, "nullable": True} for n, k in zip(names, kinds, strict=True)]
    table = params["table"]
    with open_store(session_id) as store, store.atomic():
        if table in store.tables():
            raise SapError(
                "RESOURCE_ALREADY_EXISTS",
                f"table {table!r} already exists",
                details={"resource_type": "TABLE", "resource_name": table},
                suggestion=["import into another table name", f"such as '{table}_v2'"],
            )
        _create(store, table, columns)
        _insert(
            store,
            table,
            _columns(store, table),
            [[_convert(k, v) for k, v in zip(kinds, row, strict=True)] for row in good],
        )
    return {
        "status": "success",
        "table": table,
        "columns": columns,
        "rows_loaded": len(good),
        "rows_rejected": len(rejected),
        "rejected": rejected[:50],
    }


def _export_csv(call, params):
    session_id = call.context.session_id
    name = safe_name(session_id, params["path"])
    storage = storage_for(session_id)
    exists = storage.exists(name)
    if exists and not params["overwrite"]:
        raise SapError(
            "RESOURCE_ALREADY_EXISTS",
            f"file {name!r} exists already",
            details={"resource_type": "FILE", "resource_name": name},
            suggestion=["choose another path", 'set "overwrite": true (needs approval)'],
        )
    with open_store(session_id) as store:
        columns = _require(store, params["table"])
        rows = store.execute(f"SELECT * FROM {store.qualified(params['table'])}", fetch=True)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([c["name"] for c in columns])
    for row in rows:
        writer.writerow(["" if v is None else _json(c, v) for c, v in zip(columns, row, strict=True)])
    data = out.getvalue().encode("utf-8")
    check_room(session_id, len(data), replacing=storage.size(name) if exists else 0)
    store_bytes(storage, name, data)
    return {"status": "success", "table": params["table"], "path": name, "rows": len(rows)}


def _export_overwrites(params, context) -> str | None:
    session_id = context.session_id
    if params.get("overwrite") and storage_for(session_id).exists(safe_name(session_id, params["path"])):
        return f"overwrites the existing file {params['path']!r}"
    return None


def _drop_table(call, params):
    with open_store(call.context.session_id) as store:
        _require(store, params["table"])
        with store.atomic():
            store.execute(f"DROP TABLE {store.qualified(params['table'])}")
    return {"status": "success", "dropped": params["table"]}


FILTER_DOC = (
    "a condition {column, op, value} with op one of " + ", ".join(OPS) + ", or {and: [...]} / {or: [...]} of them"
)

OPERATIONS = (
    Operation(
        "dataset.create-table",
        "action",
        "Create a new table in the session's database.",
        _create_table,
        {
            "table": TABLE,
            "columns": Param(
                "array",
                "column definitions",
                required=True,
                min_items=1,
                max_items=200,
                items=Param(
                    "object",
                    properties={
                        "name": Param("string", required=True, pattern=COLUMN_NAME, max_length=64),
                        "type": Param("string", default="string", enum=tuple(TYPES)),
                        "nullable": Param("boolean", default=True),
                    },
                ),
            ),
            "if_not_exists": Param("boolean", "succeed quietly when the table exists", default=False),
        },
        version="1.2.0",
        examples=(
            Example(
                format_block(
                    "action",
                    "dataset.create-table",
                    {
                        "table": "users",
                        "columns": [
                            {"name": "id", "type": "number", "nullable": False},
                            {"name": "name", "type": "string", "nullable": False},
                        ],
                    },
                    "ex1",
                ),
                format_block("result", "dataset.create-table", {"status": "success", "table": "users"}, "ex1"),
            ),
        ),
        errors=(
            ErrorDoc(
                "RESOURCE_ALREADY_EXISTS",
                "The table exists already.",
                "Set if_not_exists to true, or use another name.",
            ),
        ),
        side_effects=True,
    ),
    Operation(
        "dataset.table-exists",
        "query",
        "Whether the session has a table of that name.",
        _table_exists,
        {"table": TABLE},
        examples=(
            Example(
                format_block("query", "dataset.table-exists", {"table": "users"}, "1"),
                format_block("result", "dataset.table-exists", {"table": "users", "exists": True}, "1"),
            ),
        ),
    ),
    Operation("dataset.list-tables", "query", "The session's tables with their row counts.", _list_tables),
    Operation(
        "dataset.describe-table",
        "query",
        "Columns, row count, and per column nulls, min, max and distinct values.",
        _describe_table,
        {"table": TABLE},
        errors=(NOT_FOUND,),
    ),
    Operation(
        "dataset.insert",
        "action",
        "Insert rows (objects keyed by column name).",
        _insert_rows,
        {"table": TABLE, "rows": Param("array", required=True, min_items=1, max_items=10_000, items=Param("object"))},
        errors=(NOT_FOUND,),
        side_effects=True,
    ),
    Operation(
        "dataset.query",
        "query",
        "Query a table: select columns and aggregates (count, sum, avg, min, max), filters, group_by, order_by, "
        "limit/offset; or a read-only sql SELECT over this session's tables. Rows come as lists in the order "
        f"of columns. At most {MAX_ROWS} rows and "
        "the time limit; a cut result says truncated and total_rows.",
        _query,
        {
            "table": Param("string", "the table of a structured query", pattern=TABLE.pattern, max_length=64),
            "select": Param("array", "column names, or {fn, column, as}", max_items=100),
            "filters": Param("object", FILTER_DOC),
            "group_by": Param("array", items=Param("string"), max_items=20),
            "order_by": Param("array", "{column, direction: asc|desc}", items=Param("object"), max_items=20),
            "limit": Param("integer", default=100, minimum=1, maximum=MAX_ROWS),
            "offset": Param("integer", default=0, minimum=0, maximum=2**31),
            "sql": Param("string", "one read-only SELECT over this session's tables", max_length=20_000),
        },
        examples=(
            Example(
                format_block(
                    "query",
                    "dataset.query",
                    {
                        "table": "sales",
                        "select": ["region", {"fn": "sum", "column": "amount", "as": "total"}],
                        "group_by": ["region"],
                        "order_by": [{"column": "total", "direction": "desc"}],
                    },
                    "q1",
                ),
                format_block(
                    "result",
                    "dataset.query",
                    {
                        "columns": ["region", "total"],
                        "rows": [{"region": "EU", "total": 120.5}],
                        "row_count": 1,
                        "truncated": False,
                        "total_rows": 1,
                    },
                    "q1",
                ),
            ),
        ),
        errors=(
            NOT_FOUND,
            ErrorDoc("TIMEOUT", "The query ran too long.", "Filter or aggregate more."),
            ErrorDoc(
                "PERMISSION_DENIED",
                "The sql is not one read-only SELECT of this session's tables.",
                "Use the structured fields.",
            ),
        ),
    ),
    Operation(
        "dataset.import-csv",
        "action",
        "Load a workspace CSV file into a new table, inferring column types.",
        _import_csv,
        {
            "path": Param("string", "the CSV file in the workspace", required=True, max_length=1024),
            "table": TABLE,
            "delimiter": Param("string", default=",", min_length=1, max_length=1),
            "encoding": Param("string", default="utf-8", max_length=30),
            "header": Param("boolean", default=True),
        },
        errors=(ErrorDoc("RESOURCE_ALREADY_EXISTS", "The table exists.", "Import into another name."),),
        side_effects=True,
    ),
    Operation(
        "dataset.export-csv",
        "action",
        "Write a table to a workspace CSV file.",
        _export_csv,
        {
            "table": TABLE,
            "path": Param("string", required=True, max_length=1024),
            "overwrite": Param("boolean", default=False),
        },
        errors=(NOT_FOUND,),
        side_effects=True,
        risk=_export_overwrites,
    ),
    Operation(
        "dataset.drop-table",
        "action",
        "Delete a table and its rows. Irreversible: a human approves it first.",
        _drop_table,
        {"table": TABLE},
        errors=(NOT_FOUND,),
        side_effects=True,
        irreversible=True,
    ),
)
