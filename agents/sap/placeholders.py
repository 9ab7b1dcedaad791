"""``{{steps.<id>.result.<field>}}``: use an earlier request's result in a later request.

A string that is exactly one placeholder becomes the value itself (a list stays a list); a
placeholder inside a longer string is replaced by the value as text (JSON for non-strings).
Fields may go deeper with dots, and list items by index: ``{{steps.1.result.files.0}}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from protocol.errors import ProtocolError

PLACEHOLDER = re.compile(r"\{\{\s*steps\.([A-Za-z0-9_.:-]+?)\.result((?:\.[A-Za-z0-9_-]+)*)\s*\}\}")


def resolve(value: Any, results: dict[str, dict[str, Any]]) -> Any:
    """``value`` with every placeholder replaced from ``results`` (id → result body)."""
    if isinstance(value, dict):
        return {key: resolve(item, results) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, results) for item in value]
    if not isinstance(value, str) or "{{" not in value:
        return value
    whole = PLACEHOLDER.fullmatch(value.strip())
    if whole:
        return _lookup(whole, results)
    return PLACEHOLDER.sub(lambda match: _as_text(_lookup(match, results)), value)


def _as_text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _lookup(match: re.Match[str], results: dict[str, dict[str, Any]]) -> Any:
    step, path = match.group(1), [part for part in match.group(2).split(".") if part]
    if step not in results:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"placeholder {match.group(0)} names no earlier step with a result",
            details={"invalid": {"placeholder": match.group(0)}, "known_steps": sorted(results)},
            suggestion=["refer to the id of an earlier request that succeeded"],
        )
    value: Any = results[step]
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"placeholder {match.group(0)}: the result of step {step!r} has no {part!r}",
                details={"invalid": {"placeholder": match.group(0)},
                         "available": sorted(value) if isinstance(value, dict) else None},
            )  # fmt: skip
    return value
