"""Runs the request blocks of a stream in order; each gets events, then one result or error."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Generator, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import Any

from agents.sap.blocks import Block, ParseError, Text
from agents.sap.bounded import Bounds, run_in_child
from agents.sap.parser import Item
from agents.sap.placeholders import resolve
from agents.sap.registry import Operation, Registry
from protocol.errors import ProtocolError, new_request_id

logger = logging.getLogger(__name__)

PARSE_ERROR_NAME = "protocol.parse"
BUDGET_NAME = "protocol.budget"


@dataclass
class Budget:
    """What one request (one stream) may spend: operations run, workflow steps included, and wall
    time, checked before an operation starts (the first always starts); a heavy operation is also held
    to the time left, ``max_memory_bytes`` and ``max_answer_bytes`` while it runs, and stopped when
    ``cancelled`` is set (its caller went away)."""

    max_operations: int
    max_seconds: float
    max_memory_bytes: int = 1 << 30
    max_answer_bytes: int = 10 << 20
    cancelled: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.perf_counter)
    used: int = 0

    def bounds(self, extra_seconds: float = 0.0) -> Bounds:
        """What a heavy operation starting now may spend: the time left, and ``extra_seconds`` more when
        the operation grants them for its input (the request's later blocks are not given them)."""
        left = max(0.0, self.max_seconds - (time.perf_counter() - self.started)) + extra_seconds
        return Bounds(time.monotonic() + left, self.max_memory_bytes, self.max_answer_bytes, self.cancelled, left)

    def spend(self) -> None:
        """Count one operation, or raise ProtocolError(LIMIT_EXCEEDED) naming the budget it would exceed."""
        elapsed = time.perf_counter() - self.started
        if self.used >= self.max_operations:
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"a request runs at most {self.max_operations} operations",
                details={"budget": "operations", "limit": self.max_operations},
            )
        if self.used and elapsed >= self.max_seconds:
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"a request runs for at most {self.max_seconds:g} seconds",
                details={"budget": "time", "limit": self.max_seconds, "elapsed_s": round(elapsed, 3)},
            )
        self.used += 1


@dataclass(frozen=True)
class Worker:
    """How heavy operations run: ``admit(context)`` is entered around each (it refuses a caller past its
    rate with RATE_LIMITED), ``separable()`` says whether a child process would see what the operation
    reads (not a transaction the caller holds open), ``in_child`` is what the child forgets of its parent."""

    admit: Callable[[Any], AbstractContextManager[None]]
    separable: Callable[[], bool]
    in_child: Callable[[], None]


# What a ``refers_to`` parameter may name, by kind, for a request's body in a context (None: unknown).
KnownNames = Callable[[str, dict[str, Any], Any], Collection[str] | None]


@dataclass
class Call:
    """What an operation's handler gets besides its parameters."""

    block: Block
    operation: Operation
    registry: Registry
    context: Any
    request_id: str
    dispatcher: Dispatcher


@dataclass
class Outcome:
    """A finished request, for auditing: what ran, for whom, how it ended and how long it took."""

    block: Block
    operation: Operation | None
    response: Block
    duration_s: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.response.type == "result"


def error_block(block_name: str, block_id: str | None, error: ProtocolError) -> Block:
    return Block("error", block_name, block_id, error.as_dict())


def parse_error_block(error: ParseError) -> Block:
    sap_error = ProtocolError(
        error.code,
        error.message,
        details={"line": error.line, **error.details},
        suggestion=list(error.suggestion),
    )
    return error_block(PARSE_ERROR_NAME, None, sap_error)


class Dispatcher:
    """``authorize(operation, block, params, context)`` raises ProtocolError to refuse, or returns a Block
    to answer in the operation's place (an approval request, say); ``on_outcome`` sees every
    finished request. With a ``budget``, a stream's requests past it get one error block together, and
    with a ``worker`` too, heavy operations run in a process held to it. ``known`` says what the names
    of ``refers_to`` parameters may be, checked before the operation runs."""

    def __init__(
        self,
        registry: Registry,
        *,
        authorize: Callable[[Operation, Block, dict[str, Any], Any], Block | None] | None = None,
        on_outcome: Callable[[Outcome, Any], None] | None = None,
        budget: Budget | None = None,
        worker: Worker | None = None,
        known: KnownNames | None = None,
    ):
        self.registry = registry
        self.authorize = authorize
        self.on_outcome = on_outcome
        self.budget = budget
        self.worker = worker
        self.known = known

    def run(self, items: Iterable[Item], context: Any = None) -> Iterator[Block]:
        """Responses for every request of a stream; later requests may use earlier results by id."""
        results: dict[str, dict[str, Any]] = {}
        items = iter(items)
        for item in items:
            if isinstance(item, Text):
                continue
            if isinstance(item, ParseError):
                yield parse_error_block(item)
                continue
            if self.budget is not None:
                try:
                    self.budget.spend()
                except ProtocolError as spent:
                    yield self._refuse_rest(item, items, spent, context)
                    return
            for response in self.execute(item, context, results=results, counted=True):
                if response.type == "result" and response.id:
                    results[response.id] = response.body
                yield response

    def _refuse_rest(self, first: Block, rest: Iterator[Item], spent: ProtocolError, context: Any) -> Block:
        """One error block, and one outcome, for every request the budget leaves unrun."""
        count = 1 + sum(isinstance(item, Block) for item in rest)
        spent.message += f": {count} request block{'s were' if count > 1 else ' was'} not run"
        spent.details |= {"refused": count, "first_refused": {"name": first.name, "id": first.id}}
        spent.suggestion = [f"send the blocks from {first.name} #{first.id} on in a new request"]
        spent.request_id = new_request_id()
        refusal = error_block(BUDGET_NAME, None, spent)
        request = Block(first.type, BUDGET_NAME, None, {"refused": count, "first_refused": first.name})
        if self.on_outcome is not None:
            self.on_outcome(Outcome(request, None, refusal, 0.0), context)
        return refusal

    def execute(
        self,
        block: Block,
        context: Any = None,
        *,
        results: dict[str, dict[str, Any]] | None = None,
        counted: bool = False,
    ) -> Iterator[Block]:
        """Run one request: its events, then its result or error. ``counted``: the budget was spent already."""
        started = time.perf_counter()
        operation: Operation | None = None
        request_id = new_request_id()
        try:
            if self.budget is not None and not counted:
                self.budget.spend()
            operation, response = yield from self._execute(block, context, request_id, results)
        except ProtocolError as error:
            error.request_id = error.request_id or request_id
            response = error_block(block.name, block.id, error)
        except Exception:
            logger.exception("SAP operation %s failed (request %s)", block.name, request_id)
            internal = ProtocolError(
                "INTERNAL_ERROR",
                f"operation {block.name!r} failed inside the server",
                details={"request_id": request_id},
                suggestion=["retry once; if it fails again, report the request id"],
                request_id=request_id,
            )
            response = error_block(block.name, block.id, internal)
        duration = time.perf_counter() - started
        try:
            yield response  # flushed to the caller before the outcome is recorded
        finally:
            # In ``finally``: a caller that stops reading (a dropped connection) still leaves a record.
            if self.on_outcome is not None:
                self.on_outcome(Outcome(block, operation, response, duration), context)

    def _execute(
        self, block: Block, context: Any, request_id: str, results: dict[str, dict[str, Any]] | None
    ) -> Generator[Block, None, tuple[Operation, Block]]:
        if not block.is_request:
            raise ProtocolError(
                "NOT_A_REQUEST",
                f"a {block.type} block is a response; requests are query, action and describe",
                suggestion=[f"send @@query:{block.name} or @@action:{block.name}"],
            )
        operation = self.registry.get(block.name)
        if operation is None:
            nearest = self.registry.nearest(block.name)
            raise ProtocolError(
                "OPERATION_NOT_FOUND",
                f"no operation is called {block.name!r}",
                details={"operation": block.name, "nearest": nearest},
                suggestion=[f"did you mean {name!r}?" for name in nearest]
                + ['send @@query:system.capabilities with {"scope": "all"} to list operations'],
            )
        if block.type == "describe":
            return operation, Block("result", block.name, block.id, operation.manual())
        if block.type != operation.kind:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"{operation.name} is an {operation.kind}, not a {block.type}",
                details={"invalid": {"type": f"expected {operation.kind}, got {block.type}"}},
                suggestion=[f"send it as @@{operation.kind}:{operation.name}"],
            )
        if results is not None and not operation.resolves_own_placeholders:
            block = replace(block, body=resolve(block.body, results))
        known, body = self.known, block.body
        params = operation.validate(body, known=None if known is None else lambda kind: known(kind, body, context))
        if self.authorize is not None:
            replacement = self.authorize(operation, block, params, context)
            if replacement is not None:
                return operation, replacement
        return operation, (yield from self.run_operation(operation, block, params, context, request_id))

    def run_operation(
        self, operation: Operation, block: Block, params: dict[str, Any], context: Any, request_id: str
    ) -> Generator[Block, None, Block]:
        """Run a validated, authorised request: progress events, then its result block (returned)."""
        call = Call(block, operation, self.registry, context, request_id, self)
        if operation.heavy and self.worker is not None:
            return Block("result", block.name, block.id, self._run_heavy(call, params))
        result = operation.handler(call, params)
        if isinstance(result, Generator):
            progress = result
            while True:
                try:
                    event = next(progress)
                except StopIteration as finished:
                    result = finished.value
                    break
                yield Block("event", block.name, block.id, event)
        return Block("result", block.name, block.id, result if isinstance(result, dict) else {"value": result})

    def _run_heavy(self, call: Call, params: dict[str, Any]) -> dict[str, Any]:
        """A heavy operation's answer (its progress events dropped): admitted for its caller, and run in a
        process held to the budget when there is one and the process could see the caller's data."""
        assert self.worker is not None
        with self.worker.admit(call.context):
            work = _answer_of(call, params)
            if self.budget is None or not self.worker.separable():
                return work()
            extra = call.operation.extra_seconds
            bounds = self.budget.bounds(extra(params, call.context) if extra is not None else 0.0)
            return run_in_child(work, bounds, in_child=self.worker.in_child)


def _answer_of(call: Call, params: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    def answer() -> dict[str, Any]:
        result = call.operation.handler(call, params)
        if isinstance(result, Generator):
            while True:
                try:
                    next(result)
                except StopIteration as finished:
                    result = finished.value
                    break
        return result if isinstance(result, dict) else {"value": result}

    return answer
