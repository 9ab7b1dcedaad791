"""Progressive validation: one class of problem per reply, in the order an agent can fix them.

1. missing required parameters, 2. wrong types and shapes (and unknown names),
3. constraint violations (nesting depth included), 4. names of things that do not exist where the
request is made (a column its table lacks, a wildcard). Only a request that passes all four reaches
the operation, so no handler, pandas or database sees a name it would trip on.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from protocol.errors import ProtocolError
from protocol.params import Param


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# What exists where a request is made, by kind (``Param.refers_to``): None when it cannot be said (the
# request names no table, or one that does not exist: the operation then says so itself).
Known = Callable[[str], Collection[str] | None]
WILDCARDS = frozenset("*?%")


def validate_params(
    params: dict[str, Param], body: dict[str, Any], *, manual_hint: str | None = None, known: Known | None = None
) -> dict[str, Any]:
    """Progressive validation of ``body`` against ``params``; ``manual_hint`` says where the full rules are,
    ``known`` what the names of ``refers_to`` parameters may be."""
    missing = [name for name, param in params.items() if param.required and name not in body]
    if missing:
        unknown_names = [name for name in body if name not in params]
        suggestion = [f"add {name!r}" for name in missing]
        for name in unknown_names:
            close = difflib.get_close_matches(name, missing, n=1, cutoff=0.6)
            if close:
                suggestion.append(f"{name!r} is not a parameter; did you mean {close[0]!r}?")
        if manual_hint:
            suggestion.append(f"{manual_hint} for the full manual")
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"missing required parameter{'s' if len(missing) > 1 else ''}: {', '.join(missing)}",
            details={"missing": missing},
            suggestion=suggestion,
        )

    invalid: dict[str, str] = {}
    unknown: dict[str, str | None] = {}
    for name, value in body.items():
        param = params.get(name)
        if param is None:
            close = difflib.get_close_matches(name, list(params), n=1, cutoff=0.6)
            unknown[name] = close[0] if close else None
            continue
        _check_shape(name, param, value, invalid)
    if invalid or unknown:
        details: dict[str, Any] = {}
        parts = []
        if invalid:
            details["invalid"] = invalid
            parts.append("; ".join(f"{path}: {why}" for path, why in invalid.items()))
        if unknown:
            details["unknown"] = unknown
            parts.append("unknown parameter" + ("s " if len(unknown) > 1 else " ") + ", ".join(unknown))
        suggestion = [f"use {close!r} instead of {name!r}" for name, close in unknown.items() if close]
        suggestion += [f"known parameters: {', '.join(params) or 'none'}"] if unknown else []
        raise ProtocolError("VALIDATION_FAILED", "; ".join(parts), details=details, suggestion=suggestion)

    violations: dict[str, str] = {}
    for name, value in body.items():
        _check_constraints(name, params[name], value, violations)
    if violations:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "; ".join(f"{path}: {why}" for path, why in violations.items()),
            details={"violations": violations},
            suggestion=[f"{manual_hint} for the constraints"] if manual_hint else [],
        )

    if known is not None:
        _check_references(params, body, known)
    return {
        **{name: param.default for name, param in params.items() if param.has_default and name not in body},
        **body,
    }


def _check_references(params: dict[str, Param], body: dict[str, Any], known: Known) -> None:
    """Every name a ``refers_to`` parameter gives is one that exists; a wildcard names nothing."""
    unknown: dict[str, str] = {}
    suggestion: list[str] = []
    seen: dict[str, list[str]] = {}
    for name, value in body.items():
        param = params[name]
        kind = param.refers_to or (param.items.refers_to if param.items is not None else None)
        if kind is None or value is None:
            continue
        if kind not in seen:
            names = known(kind)
            if names is None:
                continue
            seen[kind] = sorted(names)
        choices = seen[kind]
        given = [(f"{name}[{i}]", v) for i, v in enumerate(value)] if isinstance(value, list) else [(name, value)]
        for path, item in given:
            if item in choices:
                continue
            unknown[path] = f"no {kind} {item!r}"
            close = [] if WILDCARDS & set(item) else difflib.get_close_matches(item, choices, n=1, cutoff=0.5)
            if close:
                suggestion.append(f"did you mean {close[0]!r}?")
            else:
                wildcard = "wildcards name nothing here; " if WILDCARDS & set(item) else ""
                suggestion.append(f"{path}: {wildcard}name one {kind} of {', '.join(choices[:30])}")
    if unknown:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "; ".join(f"{path}: {why}" for path, why in unknown.items()),
            details={"invalid": unknown, "known": seen},
            suggestion=suggestion,
        )


def _check_shape(path: str, param: Param, value: Any, invalid: dict[str, str]) -> None:
    if value is None and param.nullable:
        return
    if not _type_matches(param.type, value):
        if param.type == "date" and isinstance(value, str):
            invalid[path] = f"expected date (ISO 8601, e.g. 2024-01-15), got {value!r}"
        else:
            invalid[path] = f"expected {param.type}, got {json_type(value)}"
        return
    if param.type == "array" and param.items is not None:
        for index, item in enumerate(value):
            _check_shape(f"{path}[{index}]", param.items, item, invalid)
    elif param.type == "object" and param.properties is not None:
        for name, prop in param.properties.items():
            if name in value:
                _check_shape(f"{path}.{name}", prop, value[name], invalid)
            elif prop.required:
                invalid[f"{path}.{name}"] = "required"
        for name in value:
            if name not in param.properties:
                close = difflib.get_close_matches(name, list(param.properties), n=1, cutoff=0.6)
                invalid[f"{path}.{name}"] = "unknown field" + (f"; did you mean {close[0]!r}?" if close else "")


def _type_matches(expected: str, value: object) -> bool:
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected == "array":
        return isinstance(value, list)
    if expected == "object":
        return isinstance(value, dict)
    if expected == "date":
        return isinstance(value, str) and _is_iso_date(value)
    return False


def _is_iso_date(value: str) -> bool:
    try:
        if len(value) == 10:
            date.fromisoformat(value)
        else:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _depth(value: Any) -> int:
    """Containers nested in ``value``, itself included; JSON bodies are depth-limited by their reader."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _check_constraints(path: str, param: Param, value: Any, violations: dict[str, str]) -> None:
    if value is None:
        return
    if param.max_depth is not None and (depth := _depth(value)) > param.max_depth:
        violations[path] = f"nests {depth} levels deep, at most {param.max_depth}"
        return
    if param.enum is not None and value not in param.enum:
        violations[path] = f"must be one of {list(param.enum)}, got {value!r}"
        return
    if isinstance(value, str):
        if param.min_length is not None and len(value) < param.min_length:
            violations[path] = f"must be at least {param.min_length} characters"
        elif param.max_length is not None and len(value) > param.max_length:
            violations[path] = f"must be at most {param.max_length} characters"
        elif param.pattern is not None and not _compiled(param.pattern).fullmatch(value):
            violations[path] = f"must match {param.pattern}"
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if param.minimum is not None and value < param.minimum:
            violations[path] = f"must be at least {param.minimum}"
        elif param.maximum is not None and value > param.maximum:
            violations[path] = f"must be at most {param.maximum}"
    elif isinstance(value, list):
        if param.min_items is not None and len(value) < param.min_items:
            violations[path] = f"must have at least {param.min_items} item{'s' if param.min_items > 1 else ''}"
        elif param.max_items is not None and len(value) > param.max_items:
            violations[path] = f"must have at most {param.max_items} items"
        elif param.items is not None:
            for index, item in enumerate(value):
                _check_constraints(f"{path}[{index}]", param.items, item, violations)
    elif isinstance(value, dict) and param.properties is not None:
        for name, prop in param.properties.items():
            if name in value:
                _check_constraints(f"{path}.{name}", prop, value[name], violations)
