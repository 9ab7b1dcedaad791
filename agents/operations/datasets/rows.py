"""A row's values on their way into a session's table and back out as JSON.

A value is checked against its column's declared type before it is bound, and a write is checked
against the session's quota inside its own transaction, so a write over the quota is undone whole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date
from typing import Any

from django.conf import settings

from agents.operations.datasets.store import Store
from agents.sap.values import json_safe
from protocol.errors import ProtocolError


def check_quota(store: Store) -> None:
    """Inside the writing transaction, so a write that passes the quota is undone whole."""
    used = store.used_bytes()
    if used > settings.DATASET_QUOTA_BYTES:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"the session's datasets would take {used} bytes, more than the quota of {settings.DATASET_QUOTA_BYTES}",
            details={"limit": settings.DATASET_QUOTA_BYTES, "used": used},
            suggestion=["drop tables you no longer need", "load fewer rows, or aggregate first"],
        )


def column_value(column: dict[str, Any], value: Any, where: str) -> Any:
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
        or (kind == "number" and isinstance(value, int | float) and not isinstance(value, bool) and _a_double(value))
        or (kind == "boolean" and isinstance(value, bool))
        or (kind == "date" and isinstance(value, str) and is_date(value))
    )
    if not ok:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{where}: {column['name']} expects {kind}, got {value!r}",
            details={"invalid": {where: f"expected {kind}"}},
        )
    return float(value) if kind == "number" else value  # an integer past 64 bits binds on SQLite too


def _a_double(value: int | float) -> bool:
    """Whether the number fits a DOUBLE PRECISION column (10**400 is a JSON integer that does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def insert_rows(store: Store, table: str, columns: list[dict[str, Any]], rows: Sequence[Sequence[Any]]) -> None:
    store.insert(table, [c["name"] for c in columns], rows)
    check_quota(store)


def stored_as_json(column: dict[str, Any], value: Any) -> Any:
    if value is None:
        return None
    if column["type"] == "boolean":
        return bool(value)
    if column["type"] == "date":
        return value.isoformat() if isinstance(value, date) else str(value)
    return json_safe(value)
