"""dataset.unpivot: a wide table's columns of one kind (a price per ticker, a count per year) stacked into
one column of their values beside one of their names, as a new table.

Real files often lay out the things compared as columns (AAPL, AMD, ... beside a month): a question
about "which stock" needs them as rows. The server writes the SQL (one SELECT per stacked column,
joined by UNION ALL, which every database here runs) from names it has checked, and counts the rows
before it writes any.
"""

from __future__ import annotations

from typing import Any

from agents.operations.datasets.joins import MAX_JOIN_ROWS, TABLE_PATTERN
from agents.operations.datasets.rows import check_quota
from agents.operations.datasets.store import Store, create_table, open_store, require_table, row_count, table_source
from agents.operations.datasets.wall import quote_identifier
from agents.sap import Call, ErrorDoc, Example, Operation, Param, format_block
from protocol.errors import ProtocolError, already_exists

MAX_STACKED = 1000
SOURCE = "dataset.unpivot of "
COLUMN = Param("string", "a column of the table", min_length=1, max_length=64, refers_to="column")


def _invalid(message: str, invalid: dict[str, Any], suggestion: str) -> ProtocolError:
    return ProtocolError("VALIDATION_FAILED", message, details={"invalid": invalid}, suggestion=[suggestion])


def _checked(columns: dict[str, dict[str, Any]], params: dict[str, Any]) -> tuple[list[str], list[str], str]:
    """The stacked columns, the kept ones and the stacked values' type, each checked against the table."""
    stacked, name, value = list(dict.fromkeys(params["columns"])), params["name"], params["value"]
    unknown = [c for c in stacked if c not in columns]
    if unknown:
        raise _invalid(f"no column {unknown[0]!r} in the table", {"columns": unknown}, "name columns of the table")
    keep = list(dict.fromkeys(params.get("keep") or [c for c in columns if c not in stacked]))
    if set(keep) & set(stacked) or [c for c in keep if c not in columns]:
        bad = [c for c in keep if c in stacked or c not in columns]
        raise _invalid(f"{bad[0]!r} is stacked or not in the table", {"keep": bad}, "keep other columns of the table")
    types = {columns[c]["type"] for c in stacked}
    if len(types) != 1:
        raise _invalid(
            "the stacked columns must share one type", {"types": sorted(types)}, "stack columns of one kind only"
        )
    if name == value or {name, value} & set(keep):
        raise _invalid("name and value must be new column names", {"name": name, "value": value}, "such as 'ticker'")
    return stacked, keep, types.pop()


def _write(store: Store, params: dict[str, Any], stacked: list[str], keep: list[str], kind: str) -> None:
    into, table = params["into"], params["table"]
    with store.atomic():
        if into in store.tables():
            if not (params["replace"] and (table_source(store, into) or "").startswith(SOURCE)):
                raise already_exists("TABLE", into, f"table {into!r} already exists", suggestion=["name another"])
            store.execute(f"DROP TABLE {store.qualified(into)}")
        columns = require_table(store, table)
        kept = [{**c, "nullable": True} for c in columns if c["name"] in keep]
        made = [*kept, {"name": params["name"], "type": "string"}, {"name": params["value"], "type": kind}]
        create_table(store, into, made, source=f"{SOURCE}{table}")
        names = ", ".join(quote_identifier(c["name"]) for c in made)
        kept_sql = "".join(f"{quote_identifier(c)}, " for c in keep)
        selects = " UNION ALL ".join(
            f"SELECT {kept_sql}'{c.replace(chr(39), chr(39) * 2)}', {quote_identifier(c)} FROM {store.qualified(table)}"
            for c in stacked
        )
        store.execute(f"INSERT INTO {store.qualified(into)} ({names}) {selects}")
        check_quota(store)


def unpivot(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    params = {**params, "into": params.get("into") or f"{params['table']}_long"[:64]}
    if params["into"] == params["table"]:
        raise _invalid("into must name a new table", {"into": params["into"]}, f"such as '{params['table']}_long'")
    with open_store(call.context.session_id) as store:
        columns = {c["name"]: c for c in require_table(store, params["table"])}
        stacked, keep, kind = _checked(columns, params)
        rows = row_count(store, params["table"]) * len(stacked)
        if rows > MAX_JOIN_ROWS:
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"stacking would make {rows:,} rows, more than {MAX_JOIN_ROWS:,}",
                details={"rows": rows, "limit": MAX_JOIN_ROWS},
                suggestion=["stack fewer columns, or filter the file first"],
            )
        _write(store, params, stacked, keep, kind)
        made = row_count(store, params["into"])
    return {
        "status": "success",
        "table": params["into"],
        "stacked": stacked,
        "keep": keep,
        "name": params["name"],
        "value": params["value"],
        "rows": made,
    }


OPERATION = Operation(
    "dataset.unpivot",
    "action",
    "Stack a wide table's columns of one kind (a price per ticker, a count per year) into a new table: one "
    "row per row and stacked column, the column's name in name and its value in value, beside the kept "
    "columns (all the others when keep is left out). The stacked columns must share one type. A table that "
    "would pass 1,000,000 rows is refused before anything is written.",
    unpivot,
    {
        "table": Param(
            "string", "a table of this session", required=True, min_length=1, max_length=64, pattern=TABLE_PATTERN
        ),
        "columns": Param(
            "array", "the columns to stack", required=True, min_items=2, max_items=MAX_STACKED, items=COLUMN
        ),
        "keep": Param(
            "array", "the columns kept beside them; all the others when left out", max_items=64, items=COLUMN
        ),
        "name": Param(
            "string",
            "the new column of the stacked columns' names",
            default="name",
            min_length=1,
            max_length=64,
            pattern=TABLE_PATTERN,
        ),
        "value": Param(
            "string",
            "the new column of their values",
            default="value",
            min_length=1,
            max_length=64,
            pattern=TABLE_PATTERN,
        ),
        "into": Param(
            "string",
            "the new table's name; <table>_long when not given",
            min_length=1,
            max_length=64,
            pattern=TABLE_PATTERN,
        ),
        "replace": Param("boolean", "replace into when an earlier dataset.unpivot made it", default=False),
    },
    examples=(
        Example(
            format_block(
                "action",
                "dataset.unpivot",
                {"table": "monthly", "columns": ["sales", "visits"], "keep": ["month", "shop"], "name": "measure"},
                "u1",
            ),
            format_block(
                "result",
                "dataset.unpivot",
                {
                    "status": "success",
                    "table": "monthly_long",
                    "stacked": ["sales", "visits"],
                    "keep": ["month", "shop"],
                    "name": "measure",
                    "value": "value",
                    "rows": 4,
                },
                "u1",
            ),
        ),
    ),
    errors=(
        ErrorDoc("RESOURCE_NOT_FOUND", "No such table in this session.", "List them with dataset.list-tables."),
        ErrorDoc(
            "VALIDATION_FAILED",
            "A column is not in the table, the stacked columns differ in type, or a new name is taken.",
            "Stack columns of one kind, and name new columns.",
        ),
        ErrorDoc("LIMIT_EXCEEDED", "The new table would pass 1,000,000 rows, or the quota.", "Stack fewer columns."),
        ErrorDoc("RESOURCE_ALREADY_EXISTS", "into names a table that exists.", "Name another, or set replace."),
    ),
    side_effects=True,
    heavy=True,
)
