"""dataset.* operations: tables that belong to one session, in the "datasets" database alias.

Isolation: on SQLite every table of a session is named ``s_<session hex>__<table>``; on PostgreSQL
each session has its own schema ``session_<hex>``. Identifiers are always quoted, values always
bound as parameters, and a raw ``sql`` query is accepted only when sqlglot parses it as one SELECT
that reads only this session's tables (their names are then rewritten to the qualified ones).
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
import time
import uuid
from contextlib import nullcontext
from datetime import date

import sqlglot
from django.conf import settings
from django.db import DatabaseError, OperationalError, connections, transaction
from sqlglot import expressions as exp

from agents.operations.files import _decode, _store, existing_file, safe_name, storage_for
from agents.sap import ErrorDoc, Example, Operation, Param, SapError, format_block

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
FORBIDDEN_FUNCTIONS = {
    "pg_sleep",
    "pg_read_file",
    "pg_read_binary_file",
    "pg_ls_dir",
    "lo_import",
    "lo_export",
    "dblink",
    "load_extension",
    "readfile",
    "writefile",
    "set_config",
    "current_setting",
}
NOT_FOUND = ErrorDoc("RESOURCE_NOT_FOUND", "No such table in this session.", "List them with dataset.list-tables.")


class Store:
    """The tables of one session."""

    def __init__(self, session_id):
        self.connection = connections[ALIAS]
        self.postgres = self.connection.vendor == "postgresql"
        self.hex = uuid.UUID(str(session_id)).hex
        self.schema = f"session_{self.hex}"

    def quote(self, name: str) -> str:
        return self.connection.ops.quote_name(name)

    def physical(self, table: str) -> str:
        return table if self.postgres else f"s_{self.hex}__{table}"

    def qualified(self, table: str) -> str:
        if self.postgres:
            return f"{self.quote(self.schema)}.{self.quote(table)}"
        return self.quote(self.physical(table))

    def execute(self, sql: str, params=(), *, fetch: bool = False):
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if fetch else cursor.rowcount

    def tables(self) -> list[str]:
        if self.postgres:
            rows = self.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r' ORDER BY 1",
                [self.schema],
                fetch=True,
            )
            return [name for (name,) in rows]
        prefix = f"s_{self.hex}__"
        rows = self.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, %s) = %s ORDER BY 1",
            [len(prefix), prefix],
            fetch=True,
        )
        return [name[len(prefix) :] for (name,) in rows]

    def exists(self, table: str) -> bool:
        return table in self.tables()

    def columns(self, table: str) -> list[dict]:
        if self.postgres:
            rows = self.execute(
                # pg_catalog, not information_schema: the same answer, many times faster.
                "SELECT a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull FROM pg_attribute a "
                "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                [self.schema, table],
                fetch=True,
            )
        else:
            rows = [
                (r[1], r[2], not r[3]) for r in self.execute(f"PRAGMA table_info({self.qualified(table)})", fetch=True)
            ]
        return [
            {"name": name, "type": DECLARED.get(kind.lower(), "string"), "nullable": bool(nullable)}
            for name, kind, nullable in rows
        ]

    def require(self, table: str) -> list[dict]:
        columns = self.columns(table)
        if not columns:
            raise SapError(
                "RESOURCE_NOT_FOUND",
                f"no table {table!r} in this session",
                details={"resource_type": "TABLE", "resource_name": table, "tables": self.tables()},
                suggestion=["create it with dataset.create-table or dataset.import-csv"],
            )
        return columns

    def create(self, table: str, columns: list[dict]) -> None:
        if self.postgres:
            self.execute(f"CREATE SCHEMA IF NOT EXISTS {self.quote(self.schema)}")
        spec = ", ".join(
            f"{self.quote(c['name'])} {TYPES[c.get('type') or 'string']}"
            + ("" if c.get("nullable", True) else " NOT NULL")
            for c in columns
        )
        self.execute(f"CREATE TABLE {self.qualified(table)} ({spec})")


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


def _insert(store: Store, table: str, columns: list[dict], rows: list[list]) -> None:
    names = ", ".join(store.quote(c["name"]) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    with store.connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {store.qualified(table)} ({names}) VALUES ({marks})", rows)


def _create_table(call, params):
    store = Store(call.context.session_id)
    table = params["table"]
    if store.exists(table):
        if params["if_not_exists"]:
            return {"status": "exists", "table": table}
        raise SapError(
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
    names = [c["name"] for c in params["columns"]]
    bad = [n for n in names if not re.fullmatch(COLUMN_NAME, n)]
    if bad or len(set(names)) != len(names):
        raise SapError(
            "VALIDATION_FAILED",
            "column names are letters, digits and underscores, each used once",
            details={"violations": {"columns": bad or "duplicate names"}},
        )
    with transaction.atomic(using=ALIAS):
        store.create(table, params["columns"])
    return {"status": "success", "table": table, "columns": store.columns(table)}


def _table_exists(call, params):
    return {"table": params["table"], "exists": Store(call.context.session_id).exists(params["table"])}


def _count(store: Store, table: str) -> int:
    return store.execute(f"SELECT COUNT(*) FROM {store.qualified(table)}", fetch=True)[0][0]


def _list_tables(call, params):
    store = Store(call.context.session_id)
    return {"tables": [{"table": t, "rows": _count(store, t)} for t in store.tables()]}


def _describe_table(call, params):
    store = Store(call.context.session_id)
    table = params["table"]
    columns = store.require(table)
    parts = ["COUNT(*)"]
    for c in columns:
        q = store.quote(c["name"])
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
    return value


def _insert_rows(call, params):
    store = Store(call.context.session_id)
    table = params["table"]
    columns = store.require(table)
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
    with transaction.atomic(using=ALIAS):
        _insert(store, table, columns, rows)
    return {"status": "success", "table": table, "inserted": len(rows)}


# -- queries ----------------------------------------------------------------------------------


def _compile(store: Store, table: str, columns: list[dict] | None, params: dict) -> tuple[str, list, list[str]]:
    """A structured query as parameterised SQL over quoted identifiers; returns (sql, params, names).

    With ``columns`` None the names are left for the database to check, which only PostgreSQL may
    do: SQLite reads a double-quoted name that is no column as a string.
    """
    known = None if columns is None else {c["name"] for c in columns}

    def column(name: str, where: str) -> str:
        if known is not None and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise SapError(
                "VALIDATION_FAILED",
                f"{where}: no column {name!r} in {table!r}",
                details={"invalid": {where: f"unknown column {name!r}"}, "columns": sorted(known)},
                suggestion=[f"did you mean {close[0]!r}?"] if close else [],
            )
        return store.quote(name)

    select, names = [], []
    everything = ["*"] if columns is None else [c["name"] for c in columns]
    for index, item in enumerate(params.get("select") or everything):
        if item == "*":
            select.append("*")
            continue
        if isinstance(item, str):
            select.append(column(item, f"select[{index}]"))
            names.append(item)
            continue
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
        select.append(f"{fn.upper()}({target}) AS {store.quote(alias)}")
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
            return f"{target} IN ({', '.join(['%s'] * len(value))})"
        if isinstance(value, dict | list):
            raise SapError(
                "VALIDATION_FAILED",
                f"{where}.value must be a plain value",
                details={"invalid": {f"{where}.value": "expected scalar"}},
            )
        values.append(value)
        return f"{target} {'LIKE' if op == 'like' else op} %s"

    sql = f"SELECT {', '.join(select)} FROM {store.qualified(table)}"
    if params.get("filters"):
        sql += " WHERE " + condition(params["filters"], "filters")
    if params.get("group_by"):
        sql += " GROUP BY " + ", ".join(column(name, f"group_by[{i}]") for i, name in enumerate(params["group_by"]))
    orders = []
    for index, order in enumerate(params.get("order_by") or []):
        name = order.get("column", "")
        is_alias = name in names and (known is None or name not in known)
        quoted = store.quote(name) if is_alias else column(name, f"order_by[{index}].column")
        orders.append(f"{quoted} {'DESC' if order.get('direction') == 'desc' else 'ASC'}")
    if orders:
        sql += " ORDER BY " + ", ".join(orders)
    return sql, values, names


def _checked_sql(store: Store, text: str) -> str:
    """The raw query rewritten to this session's tables, if it is exactly one read-only SELECT."""
    dialect = "postgres" if store.postgres else "sqlite"
    try:
        statements = [s for s in sqlglot.parse(text, read=dialect) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise SapError(
            "VALIDATION_FAILED",
            f"sql does not parse: {str(exc).splitlines()[0]}",
            details={"invalid": {"sql": "unparseable"}},
        ) from None
    if len(statements) != 1 or not isinstance(statements[0], exp.Select):
        raise SapError(
            "PERMISSION_DENIED",
            "sql must be exactly one SELECT statement",
            details={"permission": "dataset.query", "statements": len(statements)},
            suggestion=["use the structured query fields for anything else"],
        )
    tree = statements[0]
    forbidden = [
        node
        for node in tree.walk()
        if isinstance(
            node, exp.Into | exp.Insert | exp.Update | exp.Delete | exp.Create | exp.Drop | exp.Command | exp.Lock
        )
    ]
    calls = {(node.name or node.sql_name()).lower() for node in tree.find_all(exp.Func)}
    if forbidden or calls & FORBIDDEN_FUNCTIONS:
        raise SapError(
            "PERMISSION_DENIED",
            "sql may only read data",
            details={"permission": "dataset.query", "refused": sorted(calls & FORBIDDEN_FUNCTIONS) or "a write"},
        )
    mine = set(store.tables())
    ctes = {cte.alias for cte in tree.find_all(exp.CTE)}
    for node in list(tree.find_all(exp.Table)):
        if node.name in ctes and not node.db:
            continue
        if node.db or node.catalog or node.name not in mine:
            raise SapError(
                "PERMISSION_DENIED",
                f"sql may read only this session's tables, not {node.sql()!r}",
                details={"permission": "dataset.query", "table": node.sql(), "tables": sorted(mine)},
            )
        alias = node.alias or node.name
        if store.postgres:
            node.set("db", exp.to_identifier(store.schema, quoted=True))
            node.set("this", exp.to_identifier(node.name, quoted=True))
        else:
            node.set("this", exp.to_identifier(store.physical(node.name), quoted=True))
        node.set("alias", exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
    return tree.sql(dialect=dialect)


def run_limited(store: Store, sql: str, values: list, *, limit: int, offset: int = 0) -> dict:
    """Rows of ``sql`` within the time and row limits; ``truncated`` says when there were more."""
    paged = f"SELECT * FROM ({sql}) AS limited LIMIT %s OFFSET %s"
    # PostgreSQL's statement_timeout is set on the datasets connection (workbench/env.py); SQLite
    # is interrupted by a progress handler. No transaction: a read needs none.
    deadline = time.monotonic() + settings.DATASET_QUERY_TIMEOUT_S
    raw = None
    # Inside a caller's transaction a failed statement must not poison it: use a savepoint there.
    scope = transaction.atomic(using=ALIAS) if store.connection.in_atomic_block else nullcontext()
    try:
        with scope, store.connection.cursor() as cursor:
            if not store.postgres:
                raw = store.connection.connection
                raw.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
            cursor.execute(paged, [*values, limit + 1, offset])
            names = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
            total = None
            if len(rows) > limit:
                cursor.execute(f"SELECT COUNT(*) FROM ({sql}) AS counted", values)
                total = cursor.fetchone()[0]
    except DatabaseError as exc:
        if isinstance(exc, OperationalError) and any(word in str(exc) for word in ("interrupt", "timeout", "cancel")):
            raise SapError(
                "TIMEOUT",
                f"the query ran past {settings.DATASET_QUERY_TIMEOUT_S} s",
                details={"limit_s": settings.DATASET_QUERY_TIMEOUT_S},
                suggestion=["add filters, or aggregate"],
            ) from None
        raise SapError(
            "VALIDATION_FAILED", f"the query failed: {exc}", details={"invalid": {"sql": str(exc)}}
        ) from None
    finally:
        if raw is not None:
            raw.set_progress_handler(None, 0)
    truncated = total is not None
    rows = rows[:limit]
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
    store = Store(call.context.session_id)
    limits = {"limit": params["limit"], "offset": params["offset"]}
    if params.get("sql"):
        sql = _checked_sql(store, params["sql"])
        return {**run_limited(store, sql, [], **limits), "query": {"sql": sql}}
    table = params.get("table")
    if not table:
        raise SapError(
            "VALIDATION_FAILED", "give either table (a structured query) or sql", details={"missing": ["table"]}
        )
    # On PostgreSQL the database checks the names, saving a catalogue round trip per query; when it
    # refuses one, the catalogue says which, with the errors SQLite gives before running.
    columns = None if store.postgres else store.require(table)
    sql, values, _ = _compile(store, table, columns, params)
    try:
        result = run_limited(store, sql, values, **limits)
    except SapError as error:
        if columns is None and error.code == "VALIDATION_FAILED":
            _compile(store, table, store.require(table), params)
        raise
    return {**result, "query": {"sql": sql, "params": values}}


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
    store = Store(session_id)
    table = params["table"]
    with transaction.atomic(using=ALIAS):
        if store.exists(table):
            raise SapError(
                "RESOURCE_ALREADY_EXISTS",
                f"table {table!r} already exists",
                details={"resource_type": "TABLE", "resource_name": table},
                suggestion=["import into another table name", f"such as '{table}_v2'"],
            )
        store.create(table, columns)
        _insert(
            store,
            table,
            store.columns(table),
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
    store = Store(session_id)
    columns = store.require(params["table"])
    name = safe_name(session_id, params["path"])
    storage = storage_for(session_id)
    if storage.exists(name) and not params["overwrite"]:
        raise SapError(
            "RESOURCE_ALREADY_EXISTS",
            f"file {name!r} exists already",
            details={"resource_type": "FILE", "resource_name": name},
            suggestion=["choose another path", 'set "overwrite": true (needs approval)'],
        )
    rows = store.execute(f"SELECT * FROM {store.qualified(params['table'])}", fetch=True)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([c["name"] for c in columns])
    for row in rows:
        writer.writerow(["" if v is None else _json(c, v) for c, v in zip(columns, row, strict=True)])
    _store(storage, name, _decode(out.getvalue(), "utf-8"))
    return {"status": "success", "table": params["table"], "path": name, "rows": len(rows)}


def _export_overwrites(params, context) -> str | None:
    session_id = context.session_id
    if params.get("overwrite") and storage_for(session_id).exists(safe_name(session_id, params["path"])):
        return f"overwrites the existing file {params['path']!r}"
    return None


def _drop_table(call, params):
    store = Store(call.context.session_id)
    store.require(params["table"])
    with transaction.atomic(using=ALIAS):
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
            "offset": Param("integer", default=0, minimum=0),
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
