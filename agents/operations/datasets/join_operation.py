"""dataset.join's manual: its parameters, example and errors (the join itself is joins.py's)."""

from __future__ import annotations

from agents.operations.datasets.joins import MAX_JOIN_ROWS, MAX_KEY_COLUMNS, TABLE_PATTERN, join_tables
from agents.sap import ErrorDoc, Example, Operation, Param, format_block

JOIN_TABLE = Param(
    "string", "a table of this session", required=True, min_length=1, max_length=64, pattern=TABLE_PATTERN
)

OPERATION = Operation(
    "dataset.join",
    "action",
    "Join two of the session's tables on a key into a new table; the server writes the SQL. The key is the "
    "columns named in on (each in both tables, with the same type), or when on is left out the shared column "
    "of the same name and type whose values overlap, preferring one unique on a side and an id-like name. "
    "how: inner keeps rows with a match, left keeps every row of left. Right-table columns whose names the "
    "left has already are renamed <name>_<right>. A join that would make more than max_rows rows is refused "
    "before anything is written (a many-to-many key, usually). The result says the key and why, each side's "
    "rows, matched and unmatched rows with a few unmatched keys, whether the key is unique there, and the new "
    "table's rows and columns.",
    join_tables,
    {
        "left": JOIN_TABLE,
        "right": JOIN_TABLE,
        "on": Param(
            "array",
            "the key's column names (in both tables); found by the server when left out",
            min_items=1,
            max_items=MAX_KEY_COLUMNS,
            items=Param("string", pattern=TABLE_PATTERN, max_length=64),
        ),
        "how": Param(
            "string", "inner: rows with a match; left: every row of left", default="inner", enum=("inner", "left")
        ),
        "into": Param(
            "string",
            "the new table's name; <left>_<right> when not given",
            min_length=1,
            max_length=64,
            pattern=TABLE_PATTERN,
        ),
        "max_rows": Param(
            "integer",
            "refuse a join that would make more rows",
            default=MAX_JOIN_ROWS,
            minimum=1,
            maximum=MAX_JOIN_ROWS,
        ),
        "replace": Param("boolean", "replace into when an earlier dataset.join made it", default=False),
    },
    examples=(
        Example(
            format_block("action", "dataset.join", {"left": "sales", "right": "regions", "how": "left"}, "j1"),
            format_block(
                "result",
                "dataset.join",
                {
                    "status": "success",
                    "table": "sales_regions",
                    "on": ["region"],
                    "how": "left",
                    "key": {
                        "found": True,
                        "why": "'region' is in both tables with the same type; 1 of its values are in both",
                    },
                    "left": {
                        "table": "sales",
                        "rows": 1,
                        "matched": 1,
                        "unmatched": 0,
                        "unmatched_keys": [],
                        "key_unique": True,
                    },
                    "right": {
                        "table": "regions",
                        "rows": 2,
                        "matched": 1,
                        "unmatched": 1,
                        "unmatched_keys": ["US"],
                        "key_unique": True,
                    },
                    "rows": 1,
                    "columns": [{"name": "region", "type": "string", "nullable": True}],
                },
                "j1",
            ),
        ),
    ),
    errors=(
        ErrorDoc("RESOURCE_NOT_FOUND", "No such table in this session.", "List them with dataset.list-tables."),
        ErrorDoc(
            "VALIDATION_FAILED",
            "A key column is not in both tables with one type, or no shared key was found.",
            "Name the key in on (details.shared_columns lists the candidates).",
        ),
        ErrorDoc(
            "LIMIT_EXCEEDED",
            "The join would make more than max_rows rows (details.many_to_many says why), or pass the quota.",
            "Join on more columns or aggregate one side first.",
        ),
        ErrorDoc("RESOURCE_ALREADY_EXISTS", "into names a table that exists.", "Name another, or set replace."),
    ),
    side_effects=True,
    heavy=True,
)
