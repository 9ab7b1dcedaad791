"""The SAP reference's dataset.create-table, registered against an in-memory table set, for core tests."""

from agents.sap import ErrorDoc, Example, Operation, Param, Registry, format_block
from agents.sap.system import CORE_OPERATIONS
from protocol.errors import ProtocolError

COLUMN = Param(
    "object",
    properties={
        "name": Param("string", required=True),
        "type": Param("string", enum=("string", "number", "boolean", "date")),
        "nullable": Param("boolean", default=True),
    },
)


def reference_registry(existing_tables=("users",)) -> Registry:
    tables = set(existing_tables)

    def create_table(call, params):
        if params["table"] in tables and not params["if_not_exists"]:
            raise ProtocolError(
                "RESOURCE_ALREADY_EXISTS",
                f"table {params['table']!r} already exists",
                details={"resource_type": "TABLE", "resource_name": params["table"]},
                suggestion=["use a different table name", f"such as '{params['table']}_v2'", "set if_not_exists"],
            )
        tables.add(params["table"])
        return {"status": "success", "table": params["table"]}

    def slow_count(call, params):
        for done in range(1, params["steps"] + 1):
            yield {"progress": {"done": done, "total": params["steps"]}}
        return {"counted": params["steps"]}

    def broken(call, params):
        raise ZeroDivisionError("boom")

    return Registry(
        [
            *CORE_OPERATIONS,
            Operation(
                name="dataset.create-table",
                kind="action",
                description="Create a new table in the session's database.",
                version="1.2.0",
                handler=create_table,
                side_effects=True,
                parameters={
                    "table": Param(
                        "string",
                        "table name: letters, digits, underscore",
                        required=True,
                        min_length=1,
                        max_length=64,
                        pattern=r"^[a-zA-Z_][a-zA-Z0-9_]*$",
                    ),
                    "columns": Param("array", "column definitions", required=True, min_items=1, items=COLUMN),
                    "if_not_exists": Param("boolean", "succeed quietly when the table exists", default=False),
                },
                examples=(
                    Example(
                        format_block(
                            "action",
                            "dataset.create-table",
                            {"table": "users", "columns": [{"name": "id", "type": "number", "nullable": False}]},
                            "ex1",
                        ),
                        format_block("result", "dataset.create-table", {"status": "success", "table": "users"}, "ex1"),
                    ),
                ),
                errors=(
                    ErrorDoc("RESOURCE_ALREADY_EXISTS", "The table exists already.", "Set if_not_exists to true."),
                ),
            ),
            Operation(
                name="dataset.count-slowly",
                kind="query",
                description="Count with progress.",
                handler=slow_count,
                parameters={"steps": Param("integer", required=True, minimum=1, maximum=10)},
            ),
            Operation(name="debug.broken", kind="action", description="Always fails.", handler=broken),
        ]
    )
