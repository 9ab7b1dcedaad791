"""The dataset.* operations: their parameters, manuals and handlers."""

from __future__ import annotations

import re
from typing import Any

from agents.operations.datasets.compiler import MAX_FILTER_LEVELS, OPS, checked_sql, compile_query
from agents.operations.datasets.csv_io import export_csv, import_csv
from agents.operations.datasets.import_pace import import_seconds
from agents.operations.datasets.rows import column_value, insert_rows, stored_as_json
from agents.operations.datasets.store import (
    TYPES,
    Store,
    create_table,
    open_store,
    require_table,
    row_count,
    table_columns,
)
from agents.operations.datasets.wall import COLUMN_NAME, quote_identifier
from agents.operations.files import overwrite_risk
from agents.sap import Call, ErrorDoc, Example, Operation, Param, format_block
from protocol.errors import ProtocolError, already_exists

TABLE = Param(
    "string",
    "table name: letters, digits, underscore",
    required=True,
    min_length=1,
    max_length=64,
    pattern=r"^[a-zA-Z_][a-zA-Z0-9_]*$",
)
MAX_ROWS = 10_000
NOT_FOUND = ErrorDoc("RESOURCE_NOT_FOUND", "No such table in this session.", "List them with dataset.list-tables.")

DESCRIBED_PER_STATEMENT = 250


def _create_table(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    table = params["table"]
    with open_store(call.context.session_id) as store:
        if table in store.tables():
            if params["if_not_exists"]:
                return {"status": "exists", "table": table}
            raise _already_exists(table)
        _check_column_names(params["columns"])
        with store.atomic():
            create_table(store, table, params["columns"])
        return {"status": "success", "table": table, "columns": table_columns(store, table)}


def _already_exists(table: str) -> ProtocolError:
    return already_exists(
        "TABLE",
        table,
        f"table {table!r} already exists",
        conflict_type="NAME_DUPLICATE",
        suggestion=[
            "use a different table name",
            f"such as '{table}_v2'",
            "drop the existing table first (needs approval)",
            'set "if_not_exists": true',
        ],
    )


def _check_column_names(columns: list[dict[str, Any]]) -> None:
    names = [c["name"] for c in columns]
    bad = [n for n in names if not re.fullmatch(COLUMN_NAME, n)]
    if bad or len({name.lower() for name in names}) != len(names):  # SQLite's column names ignore case
        raise ProtocolError(
            "VALIDATION_FAILED",
            "column names are letters, digits and underscores, each used once (whatever its case)",
            details={"violations": {"columns": bad or "duplicate names"}},
        )


def _table_exists(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    with open_store(call.context.session_id) as store:
        return {"table": params["table"], "exists": params["table"] in store.tables()}


def _list_tables(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    with open_store(call.context.session_id) as store:
        return {"tables": [{"table": t, "rows": row_count(store, t)} for t in store.tables()]}


def _describe_table(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    table = params["table"]
    with open_store(call.context.session_id) as store:
        columns = require_table(store, table)
        row: list[Any] = []
        # A few hundred columns a statement: four figures a column would pass SQLite's 2,000 result
        # columns and PostgreSQL's 1,664 target entries on a wide table.
        for start in range(0, len(columns), DESCRIBED_PER_STATEMENT):
            parts = ["COUNT(*)"]
            for c in columns[start : start + DESCRIBED_PER_STATEMENT]:
                q = quote_identifier(c["name"])
                ordered = f"CAST({q} AS INTEGER)" if c["type"] == "boolean" else q  # PostgreSQL has no MIN(boolean)
                parts += [f"COUNT(*) - COUNT({q})", f"MIN({ordered})", f"MAX({ordered})", f"COUNT(DISTINCT {q})"]
            found = store.execute(f"SELECT {', '.join(parts)} FROM {store.qualified(table)}", fetch=True)[0]
            row += found if not row else found[1:]
    described = []
    for index, c in enumerate(columns):
        nulls, low, high, distinct = row[1 + index * 4 : 5 + index * 4]
        described.append(
            {
                **c,
                "null_count": nulls,
                "min": stored_as_json(c, low),
                "max": stored_as_json(c, high),
                "distinct_estimate": distinct,
            }
        )
    return {"table": table, "row_count": row[0], "columns": described}


def _insert_rows(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    table = params["table"]
    with open_store(call.context.session_id) as store:
        columns = require_table(store, table)
        known = {c["name"] for c in columns}
        rows = []
        for index, row in enumerate(params["rows"]):
            unknown = sorted(set(row) - known)
            if unknown:
                raise ProtocolError(
                    "VALIDATION_FAILED",
                    f"rows[{index}] has unknown columns {unknown}",
                    details={"invalid": {f"rows[{index}]": f"unknown columns {unknown}"}, "columns": sorted(known)},
                )
            rows.append([column_value(c, row.get(c["name"]), f"rows[{index}].{c['name']}") for c in columns])
        with store.atomic():
            insert_rows(store, table, columns, rows)
    return {"status": "success", "table": table, "inserted": len(rows)}


# -- queries ----------------------------------------------------------------------------------


def _run(store: Store, sql: str, values: list[Any], *, limit: int, offset: int) -> dict[str, Any]:
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


def _query(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    limits = {"limit": params["limit"], "offset": params["offset"]}
    with open_store(call.context.session_id) as store:
        if params.get("sql"):
            sql = checked_sql(store, params["sql"])
            return {**_run(store, sql, [], **limits), "query": {"sql": sql}}
        table = params.get("table")
        if not table:
            raise ProtocolError(
                "VALIDATION_FAILED", "give either table (a structured query) or sql", details={"missing": ["table"]}
            )
        sql, values, _ = compile_query(store, table, require_table(store, table), params)
        return {**_run(store, sql, values, **limits), "query": {"sql": sql, "params": values}}


# -- CSV ----------------------------------------------------------------------------------------


def _drop_table(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    with open_store(call.context.session_id) as store:
        require_table(store, params["table"])
        with store.atomic():
            store.execute(f"DROP TABLE {store.qualified(params['table'])}")
    return {"status": "success", "dropped": params["table"]}


FILTER_DOC = (
    "a condition {column, op, value} with op one of "
    + ", ".join(OPS)
    + f", or {{and: [...]}} / {{or: [...]}} of them, at most {MAX_FILTER_LEVELS} and/or levels deep"
)
# The JSON depth of the deepest filter the compiler takes: an object and its list per and/or level,
# the condition, and the list of an ``in``.
FILTER_DEPTH = 2 * MAX_FILTER_LEVELS + 2

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
        heavy=True,
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
        f"of columns. At most {MAX_ROWS} rows, 10 MiB a value and a page, and "
        "the time limit; a cut result says truncated and total_rows.",
        _query,
        {
            "table": Param("string", "the table of a structured query", pattern=TABLE.pattern, max_length=64),
            "select": Param("array", "column names, or {fn, column, as}", max_items=100),
            "filters": Param("object", FILTER_DOC, max_depth=FILTER_DEPTH),
            "group_by": Param("array", items=Param("string", refers_to="column"), max_items=20),
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
                        "rows": [["EU", 120.5]],
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
            ErrorDoc("LIMIT_EXCEEDED", "A value or the page of rows is over 10 MiB.", "Select less, or fewer rows."),
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
        "Load a workspace CSV file into a new table as a careful analyst reads it: the separator, quote, "
        "decimal mark, thousands separator and encoding (a byte-order mark, UTF-8, Windows-1252, Latin-1) "
        "sniffed unless given; NA, N/A, NaN, null, '.', '-' and empty cells read as missing; numbers, dates in "
        "the common formats and yes/no typed. The result says the rows in the file and the rows loaded, each "
        "line not loaded and why, each column's missing values by marker, and what was guessed. A file past "
        "2 MB streams (its head read as above, the whole by DuckDB) and says how far it is in progress events "
        "({progress: {done, total}, phase: reading or loading, message}), at most one every "
        "CHAP_IMPORT_PROGRESS_SECONDS (5) and, while loading, one a tenth of the rows. An import may run for "
        "the request's time left and CHAP_SAP_IMPORT_SECONDS_PER_MB (1) seconds a MiB of its file more, the "
        "file counted up to the upload limit (WORKBENCH_MAX_UPLOAD_MB); the request's later blocks get only "
        "the request's own time.",
        import_csv,
        {
            "path": Param("string", "the CSV file in the workspace", required=True, max_length=1024),
            "table": TABLE,
            "delimiter": Param("string", "the separator; sniffed when not given", min_length=1, max_length=1),
            "encoding": Param("string", "the file's encoding; sniffed when not given", max_length=30),
            "decimal": Param("string", "the decimal mark; sniffed when not given", enum=(".", ",")),
            "thousands": Param(
                "string", "the thousands separator ('' for none); sniffed when not given", enum=("", ",", ".", " ", "'")
            ),
            "types": Param(
                "object",
                "column name -> type (number, date, boolean, string): read the column as that type, whatever "
                "the values suggest; values that do not read as it are missing, and counted",
            ),
            "header": Param("boolean", default=True),
            "replace": Param(
                "boolean",
                "replace the table when it is a copy of this same file (a re-import with other options)",
                default=False,
            ),
        },
        version="2.1.0",
        examples=(
            Example(
                format_block("action", "dataset.import-csv", {"path": "orders.csv", "table": "orders"}, "i1"),
                format_block(
                    "result",
                    "dataset.import-csv",
                    {
                        "status": "success",
                        "table": "orders",
                        "path": "orders.csv",
                        "columns": [{"name": "region", "type": "string"}, {"name": "amount", "type": "number"}],
                        "rows_in_file": 2,
                        "rows_loaded": 2,
                        "rows_rejected": 0,
                    },
                    "i1",
                ),
            ),
        ),
        errors=(
            ErrorDoc("RESOURCE_ALREADY_EXISTS", "The table exists.", "Import into another name."),
            ErrorDoc("LIMIT_EXCEEDED", "More columns than the database holds in a table.", "Keep fewer columns."),
            ErrorDoc(
                "TIMEOUT",
                "The import ran past its time (details.limit_s): the request's time left and its file's allowance.",
                "Import a smaller file, or split it.",
            ),
        ),
        side_effects=True,
        heavy=True,
        extra_seconds=import_seconds,
    ),
    Operation(
        "dataset.export-csv",
        "action",
        "Write a table to a workspace CSV file.",
        export_csv,
        {
            "table": TABLE,
            "path": Param("string", required=True, max_length=1024),
            "overwrite": Param("boolean", default=False),
        },
        errors=(NOT_FOUND,),
        side_effects=True,
        risk=overwrite_risk("path"),
        heavy=True,
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
