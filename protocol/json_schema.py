"""JSON Schema (draft 2020-12) for typed parameters: the one translation of ``protocol.params`` that MCP
tool schemas and the REST schema share, so a tool's schema accepts what validation accepts."""

from __future__ import annotations

from typing import Any

from protocol.params import Param

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# What protocol.validation takes for a date: an ISO 8601 date, or a date and time.
ISO_DATE = r"^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$"


def param_schema(param: Param) -> dict[str, Any]:
    """The schema of one parameter, its constraints and default included."""
    schema: dict[str, Any] = {"type": "string", "pattern": ISO_DATE} if param.type == "date" else {"type": param.type}
    if param.description:
        schema["description"] = param.description
    if param.pattern is not None:  # SAP patterns match the whole value; JSON Schema's search for a match
        schema["pattern"] = f"^(?:{param.pattern})$"
    for key, schema_key in (
        ("min_length", "minLength"),
        ("max_length", "maxLength"),
        ("minimum", "minimum"),
        ("maximum", "maximum"),
        ("min_items", "minItems"),
        ("max_items", "maxItems"),
    ):
        if (value := getattr(param, key)) is not None:
            schema[schema_key] = value
    if param.enum is not None:
        schema["enum"] = [*param.enum, *([None] if param.nullable else [])]
    if param.has_default:
        schema["default"] = param.default
    if param.items is not None:
        schema["items"] = param_schema(param.items)
    if param.properties is not None:
        schema.update(object_schema(param.properties))
    if param.nullable:
        schema["type"] = [schema["type"], "null"]
    return schema


def object_schema(params: dict[str, Param]) -> dict[str, Any]:
    """An object with exactly these fields, the required ones listed (unknown fields are refused, as
    validation refuses them)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: param_schema(param) for name, param in params.items()},
        "additionalProperties": False,
    }
    required = [name for name, param in params.items() if param.required]
    if required:
        schema["required"] = required
    return schema


def parameters_schema(params: dict[str, Param]) -> dict[str, Any]:
    """A whole request body's schema, with its dialect named: an operation's or a payload's parameters."""
    return {"$schema": DIALECT, **object_schema(params)}
