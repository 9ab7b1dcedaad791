"""Operations: what each one takes, returns and can fail with, and the manuals built from that."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from agents.sap.blocks import NAME_RE
from protocol.params import Param
from protocol.validation import Known, validate_params


@dataclass(frozen=True)
class Example:
    request: str
    response: str


@dataclass(frozen=True)
class ErrorDoc:
    code: str
    description: str
    recovery: str


@dataclass(frozen=True)
class Operation:
    """One SAP operation. ``handler(call, params)`` returns the result body, or is a generator
    that yields progress dicts (sent as ``event`` blocks) and returns the result body."""

    name: str
    kind: str
    description: str
    handler: Callable[..., Any]
    parameters: dict[str, Param] = field(default_factory=dict)
    version: str = "1.0.0"
    examples: tuple[Example, ...] = ()
    errors: tuple[ErrorDoc, ...] = ()
    side_effects: bool = False
    irreversible: bool = False
    permission: str = ""
    # For calls that are destructive only sometimes (a write that overwrites): ``risk(params, context)``
    # returns why this call needs a human's approval, or None.
    risk: Callable[[dict[str, Any], Any], str | None] | None = None
    # True for operations (workflow.execute) whose body holds placeholders for their own steps.
    resolves_own_placeholders: bool = False
    # What the audit record keeps of a request's body, when not all of it (a file's content: its size
    # and hash instead). ``recorded(body)`` returns the body to record.
    recorded: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # What a request that will never run lets go of (a rejected approval's staged upload): ``release(params)``.
    release: Callable[[dict[str, Any]], None] | None = None
    # True for work the database does not bound (pandas, a whole file parsed): it runs in a process of
    # its own held to the request's budget, and each caller may start only so many (dispatcher.Worker).
    heavy: bool = False
    # For a heavy operation whose work grows with its input (an import with its file's size):
    # ``extra_seconds(params, context)`` is what this call may run past the request's time left; the
    # operation bounds it.
    extra_seconds: Callable[[dict[str, Any], Any], float] | None = None

    def __post_init__(self) -> None:
        if not NAME_RE.fullmatch(self.name):
            raise ValueError(f"operation name {self.name!r} is not domain.action")
        if self.kind not in ("query", "action"):
            raise ValueError(f"operation kind must be query or action, not {self.kind!r}")
        if not self.permission:
            object.__setattr__(self, "permission", self.name)

    @property
    def domain(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def summary(self) -> str:
        return self.description.split(". ")[0].rstrip(".")

    def validate(self, body: dict[str, Any], *, known: Known | None = None) -> dict[str, Any]:
        """The parameters with defaults filled in, or ProtocolError(VALIDATION_FAILED) for the first problem
        class; ``known`` says what names ``refers_to`` parameters may take."""
        return validate_params(self.parameters, body, manual_hint=f"send @@describe:{self.name} with {{}}", known=known)

    def manual(self) -> dict[str, Any]:
        return {
            "operation": self.name,
            "description": self.description,
            "version": self.version,
            "parameters": {name: param.manual() for name, param in self.parameters.items()},
            "examples": [{"request": ex.request, "response": ex.response} for ex in self.examples],
            "errors": [{"code": e.code, "description": e.description, "recovery": e.recovery} for e in self.errors],
        }


class Registry:
    def __init__(self, operations: list[Operation] | None = None):
        self._operations: dict[str, Operation] = {}
        for operation in operations or []:
            self.register(operation)

    def register(self, operation: Operation) -> Operation:
        if operation.name in self._operations:
            raise ValueError(f"operation {operation.name!r} is registered twice")
        self._operations[operation.name] = operation
        return operation

    def get(self, name: str) -> Operation | None:
        return self._operations.get(name)

    def __iter__(self) -> Iterator[Operation]:
        return iter(sorted(self._operations.values(), key=lambda op: op.name))

    def __contains__(self, name: str) -> bool:
        return name in self._operations

    def domains(self) -> list[str]:
        return sorted({op.domain for op in self._operations.values()})

    def nearest(self, name: str, limit: int = 3) -> list[str]:
        return difflib.get_close_matches(name, list(self._operations), n=limit, cutoff=0.5)

    def capabilities(self, *, scope: str = "all", detailed: bool = False) -> list[dict[str, Any]]:
        chosen = [op for op in self if scope == "all" or op.domain == scope]
        if detailed:
            return [op.manual() for op in chosen]
        return [{"name": op.name, "kind": op.kind, "summary": op.summary} for op in chosen]

    def prompt_listing(self) -> str:
        """The operation list for an LLM system prompt: one line each, required parameters starred."""
        lines = ["SAP operations (* = required; send @@describe:NAME with {} for the full manual):"]
        for op in self:
            params = ",".join(f"{name}{'*' if param.required else ''}" for name, param in op.parameters.items())
            flag = "!" if op.irreversible else ""
            lines.append(f"{op.kind} {op.name}{flag}({params}) {op.summary}")
        lines.append("! = irreversible: a human must approve it first.")
        return "\n".join(lines)
