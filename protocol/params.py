"""Parameters: the typed, constrained fields that SAP operations take and CHAP payloads hold, and
their entry in a describe manual."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PARAM_TYPES = ("string", "number", "integer", "boolean", "date", "array", "object")
_MISSING = object()


@dataclass(frozen=True)
class Param:
    type: str
    description: str = ""
    required: bool = False
    nullable: bool = False
    default: Any = _MISSING
    enum: tuple[Any, ...] | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None
    items: Param | None = None
    properties: dict[str, Param] | None = None
    # Containers nested inside the value (a filter's and/or), counted from the value itself (1 = flat).
    max_depth: int | None = None
    # What the value names in the caller's world ("column": a column of the request's table); checked
    # against what exists there after the constraints (``validation.validate_params``'s ``known``).
    refers_to: str | None = None

    def __post_init__(self) -> None:
        if self.type not in PARAM_TYPES:
            raise ValueError(f"parameter type {self.type!r} is not one of {PARAM_TYPES}")

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING

    def manual(self) -> dict[str, Any]:
        """This parameter in the shape of the SAP reference's describe manual."""
        entry: dict[str, Any] = {"type": self.type, "required": self.required}
        if self.nullable:
            entry["nullable"] = True
        if self.description:
            entry["description"] = self.description
        if self.has_default:
            entry["default"] = self.default
        if self.enum is not None:
            entry["enum"] = list(self.enum)
        constraints = {
            key: value
            for key in ("min_length", "max_length", "pattern", "minimum", "maximum", "max_depth")
            if (value := getattr(self, key)) is not None
        }
        if constraints:
            entry["constraints"] = constraints
        if self.refers_to is not None:
            entry["refers_to"] = self.refers_to
        for key in ("min_items", "max_items"):
            if (value := getattr(self, key)) is not None:
                entry[key] = value
        if self.items is not None:
            entry["items"] = self.items.manual()
        if self.properties is not None:
            entry["properties"] = {name: param.manual() for name, param in self.properties.items()}
        return entry
