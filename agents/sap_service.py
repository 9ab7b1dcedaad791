"""Running SAP for a caller in a session: permissions, approvals, and the audit trail.

Who may run what:
- members who may write (owners, editors) run every operation; commenters and viewers only queries;
- an agent runs what its ``allowed_operations`` patterns match (``file.read``, ``dataset.*``);
  ``system.ping``, ``system.capabilities`` and ``workflow.execute`` (whose steps are each checked)
  always, and ``describe`` of anything;
- an agent's call that its ``approval_operations`` match, that is irreversible, or that would
  destroy something (an overwriting write) does not run: it becomes a pending Approval and the
  reply is an ``approval.requested`` event. When an owner or editor approves, it runs with the
  agent's rights and its result is kept on the approval and recorded in the session.

Every finished request becomes an ``operation_record`` message in the session's log (and so a
node of the context graph), with caller, request, outcome and duration.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import threading
from collections.abc import Iterable, Iterator
from statistics import mean
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from agents.heavy import WORKER
from agents.models import Agent, Approval, ApprovalStatus
from agents.operations.context import SapContext
from agents.operations.datasets.store import column_names
from agents.operations.registry import workbench_registry
from agents.operations.uploads import StagedUpload, discard_staged
from agents.sap import Block, Dispatcher, Operation, Outcome, StreamParser, format_block
from agents.sap.dispatcher import Budget, error_block
from agents.sap.values import json_text
from protocol.errors import ProtocolError, new_request_id, not_found
from sessions.access import DECIDERS, SYSTEM, Access, Caller, SessionId, caller_for_agent, require_access
from sessions.chap.schemas import NUL_ESCAPE
from sessions.log import message_post_at_head
from sessions.models import Message, WorkSession

logger = logging.getLogger(__name__)
# Discovery, and workflows: each workflow step is authorised on its own, so a workflow adds no power.
ALWAYS_ALLOWED = ("system.ping", "system.capabilities", "workflow.execute")
RECORDED_RESPONSE_CHARS = 4000


def _matches(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def may_run(agent: Agent, operation: Operation) -> bool:
    """Whether ``agent`` may ask for ``operation`` at all (it may still wait for a person's approval)."""
    return (
        operation.name in ALWAYS_ALLOWED
        or _matches(operation.permission, agent.approval_operations)
        or _matches(operation.permission, agent.allowed_operations)
    )


def always_waits(agent: Agent, operation: Operation) -> bool:
    """Whether every call of ``operation`` by ``agent`` waits for a person's approval."""
    return operation.irreversible or _matches(operation.permission, agent.approval_operations)


def authorize(operation: Operation, block: Block, params: dict[str, Any], context: SapContext) -> Block | None:
    role = context.access.role
    if not context.access.can_write and operation.kind != "query":
        raise ProtocolError(
            "PERMISSION_DENIED",
            f"a {role} cannot run {operation.name}",
            details={"permission": operation.permission, "role": role},
        )
    agent = context.caller.agent
    if not isinstance(agent, Agent):  # a person: sessions, below agents, holds the agent as a KnownAgent
        return None
    needs_approval = _matches(operation.permission, agent.approval_operations)
    if not may_run(agent, operation):
        raise ProtocolError(
            "PERMISSION_DENIED",
            f"agent {agent.name!r} may not run {operation.name}",
            details={"permission": operation.permission, "allowed": agent.allowed_operations},
            suggestion=[f"ask an admin to allow {operation.permission!r} for this agent"],
        )
    reason = None
    if operation.irreversible:
        reason = f"{operation.name} is irreversible"
    elif needs_approval:
        reason = f"{operation.name} is marked as needing approval for {agent.name}"
    elif operation.risk is not None:
        reason = operation.risk(params, context)
    if reason is None:
        return None
    approval = Approval.objects.create(
        session_id=context.session_id,
        requested_by=f"agent:{agent.name}",
        agent=agent,
        operation=operation.name,
        block_type=block.type,
        block_id=block.id or "",
        request=params,
        reason=reason,
    )
    return Block(
        "event",
        block.name,
        block.id,
        {
            "event": "approval.requested",
            "approval_id": approval.pk,
            "operation": operation.name,
            "reason": reason,
            "status": "pending",
            "message": "a member of the session must approve this before it runs",
        },
    )


def record_outcome(outcome: Outcome, context: SapContext) -> None:
    """The audit trail: one operation_record message per finished request."""
    kind = "approval_requested" if outcome.response.type == "event" else ("result" if outcome.ok else "error")
    _record(context, outcome.block, outcome.response, kind, outcome.duration_s)


def _record(context: SapContext, block: Block, response: Block, kind: str, duration_s: float) -> None:
    operation = workbench_registry().get(block.name)
    request_body = operation.recorded(block.body) if operation and operation.recorded else block.body
    text = json_text(response.body)
    body = _stored(text) if len(text) <= RECORDED_RESPONSE_CHARS else {"truncated": True, "keys": sorted(response.body)}
    payload = {
        "operation": block.name,
        **({"request_message_id": context.request_message_id} if context.request_message_id else {}),
        "request": {
            "type": block.type,
            "id": block.id,
            "body": _storable(request_body),
            "caller": context.caller.sender,
        },
        "outcome": kind,
        "response": body,
        "duration_ms": round(duration_s * 1000, 3),
    }
    message_post_at_head(session_id=context.session_id, caller=SYSTEM, payload_type="operation_record", payload=payload)


def _storable(value: object) -> Any:
    """``value`` as the log can hold it: JSON-safe (no NaN, bytes or lone surrogates) and with NUL
    characters replaced; requests and results may carry them, the log may not."""
    return _stored(json_text(value))


def _stored(text: str) -> Any:
    """``text`` (JSON as ``json_text`` writes it) read back with its NUL characters replaced."""
    return json.loads(NUL_ESCAPE.sub(r"\1\\ufffd", text))


def known_names(kind: str, body: dict[str, Any], context: SapContext) -> list[str] | None:
    """What a ``refers_to`` parameter may name: a column of the table the request names."""
    table = body.get("table")
    if kind != "column" or not isinstance(table, str):
        return None
    return column_names(context.session_id, table)


def dispatcher(budget: Budget | None = None, *, outside: bool = True) -> Dispatcher:
    """The workbench's dispatcher; a request without a budget of its own gets a fresh one."""
    # An outside caller's heavy operations run in a child process held to the budget, and rate-limited;
    # a built-in agent's run in its own thread, its turn bounded by its task (a fork per operation from
    # the busy server process only slowed the analyst's turns and held the worker).
    worker = WORKER if outside else None
    return Dispatcher(
        workbench_registry(),
        authorize=authorize,
        on_outcome=record_outcome,
        budget=budget or request_budget(),
        worker=worker,
        known=known_names,
    )


def sap_run(
    *,
    session_id: SessionId,
    caller: Caller,
    text: str,
    request_message_id: str | None = None,
    cancelled: threading.Event | None = None,
) -> Iterator[str]:
    """Run every request block of ``text`` in order; yields the response blocks as SAP text.

    ``request_message_id`` names the CHAP message that asked for them: the records link to it.
    The request may run CHAP_SAP_MAX_OPERATIONS operations for CHAP_SAP_MAX_SECONDS; the blocks
    past either get one LIMIT_EXCEEDED block (and one record). A heavy operation running when
    ``cancelled`` is set (the caller went away) is stopped.
    Raises ProtocolError(RESOURCE_NOT_FOUND) before anything runs when the caller is not in the session.
    """
    access = require_access(session_id, caller)
    asking = Message.objects.filter(session_id=access.session_id, message_id=request_message_id)
    if request_message_id is not None and not asking.exists():
        raise not_found("MESSAGE", request_message_id, f"no message {request_message_id!r} in this session")
    context = SapContext(caller, access, request_message_id)
    parser = StreamParser()
    items = [*parser.feed(text), *parser.close()]
    budget = request_budget(cancelled)
    return (format_block(b.type, b.name, b.body, b.id) for b in dispatcher(budget).run(items, context))


def request_budget(cancelled: threading.Event | None = None) -> Budget:
    """One request's budget, from the settings (README, "Configuration")."""
    return Budget(
        settings.CHAP_SAP_MAX_OPERATIONS,
        settings.CHAP_SAP_MAX_SECONDS,
        max_memory_bytes=settings.CHAP_SAP_MAX_MEMORY_MB << 20,
        max_answer_bytes=settings.CHAP_SAP_MAX_ANSWER_MB << 20,
        cancelled=cancelled or threading.Event(),
    )


class InProcessSap:
    """SAP for code running in the workbench's own process (the built-in agents' behaviours): request
    blocks in, response blocks out, through the same dispatcher, permission check, approvals and audit
    trail as SAP text, without writing and parsing text between the two. The caller's access to the
    session is checked once, when it starts; each operation is still authorised on its own.

    Raises ProtocolError(RESOURCE_NOT_FOUND) when the caller is not in the session. ``access``: the
    caller's, when the edge has read it for this request already (then it is not read again).
    ``outside``: an outside agent's calls (MCP) run heavy operations bounded and rate-limited, as its
    SAP text does; a built-in agent's turn is bounded by its task instead."""

    def __init__(
        self, *, session_id: SessionId, caller: Caller, access: Access | None = None, outside: bool = False
    ) -> None:
        self.context = SapContext(caller, access or require_access(session_id, caller))
        self.outside = outside

    def run(self, requests: Iterable[Block]) -> list[Block]:
        """The responses to ``requests``, in order: one request, as one SAP text holding them would be
        (later blocks may use earlier results by id; the same budget)."""
        return list(self.stream(requests))

    def stream(self, requests: Iterable[Block]) -> Iterator[Block]:
        """``run``, each response as it comes: progress events reach the caller while the work goes on."""
        return dispatcher(outside=self.outside).run(requests, self.context)


def approvals_of(*, session_id: SessionId, caller: Caller, status: str | None = None) -> QuerySet[Approval]:
    access = require_access(session_id, caller)
    rows = Approval.objects.filter(session_id=access.session_id)
    return rows.filter(status=status) if status else rows


def approval_decide(
    *, session_id: SessionId, approval_id: int, caller: Caller, approve: bool, reason: str = ""
) -> Approval:
    """A member with the right role approves (the request runs now) or rejects (APPROVAL_DENIED)."""
    access = require_access(session_id, caller, write=True)
    if caller.kind != "human" or access.role not in DECIDERS:
        raise ProtocolError(
            "PERMISSION_DENIED",
            "only the session's owners and editors decide approvals",
            details={"role": access.role, "permission": "approval.decide"},
        )
    with transaction.atomic():
        approval = Approval.objects.select_for_update().filter(pk=approval_id, session_id=access.session_id).first()
        if approval is None:
            raise not_found("APPROVAL", None, f"no approval {approval_id} in this session")
        if approval.status != ApprovalStatus.PENDING:
            raise ProtocolError(
                "ALREADY_DECIDED",
                f"approval {approval_id} was {approval.status} already",
                details={"status": approval.status, "decided_by": str(approval.decided_by)},
            )
        approval.status = ApprovalStatus.APPROVED if approve else ApprovalStatus.REJECTED
        approval.decided_by, approval.decided_at, approval.decision_reason = caller.user, timezone.now(), reason
        approval.save()
    block = Block(approval.block_type, approval.operation, approval.block_id or None, approval.request)
    agent_access = require_access(session_id, caller_for_agent(approval.agent)) if approval.agent else access
    context = SapContext(caller_for_agent(approval.agent) if approval.agent else caller, agent_access)
    started = timezone.now()
    if approve:
        response = _run_approved(block, context)
    else:
        denied = ProtocolError(
            "APPROVAL_DENIED",
            f"{caller.sender_id} rejected {approval.operation}: {reason or 'no reason given'}",
            details={"approval_id": approval.pk, "reason": reason, "decided_by": caller.sender_id},
        )
        response = error_block(block.name, block.id, denied)
        operation = workbench_registry().get(block.name)
        if operation is not None and operation.release is not None:
            operation.release(approval.request)
    approval.response = {"type": response.type, "name": response.name, "id": response.id, "body": response.body}
    approval.save(update_fields=["response"])
    _record(
        context,
        block,
        response,
        "result" if response.type == "result" else "error",
        (timezone.now() - started).total_seconds(),
    )
    return approval


def _run_approved(block: Block, context: SapContext) -> Block:
    operation = workbench_registry().get(block.name)
    request_id = new_request_id()
    if operation is None:  # approved after the operation was taken out of the registry
        gone = ProtocolError(
            "OPERATION_NOT_FOUND", f"no operation is called {block.name!r} any more", request_id=request_id
        )
        return error_block(block.name, block.id, gone)
    try:
        runner = dispatcher().run_operation(operation, block, block.body, context, request_id)
        while True:
            next(runner)
    except StopIteration as finished:
        result: Block = finished.value
        return result
    except ProtocolError as error:
        error.request_id = error.request_id or request_id
        return error_block(block.name, block.id, error)
    except Exception:
        logger.exception("approved SAP operation %s failed (request %s)", block.name, request_id)
        failure = ProtocolError("INTERNAL_ERROR", f"{block.name} failed inside the server", request_id=request_id)
        return error_block(block.name, block.id, failure)


def workspace_upload(*, session_id: SessionId, caller: Caller, path: str, upload: StagedUpload) -> Block:
    """A staged upload into the workspace: the caller's own file.write, checked, approved and recorded
    as one (a person who may write; an agent within its allowed and approval operations). Refused, the
    staged file is discarded; waiting for approval, it stays staged until the decision."""
    response = None
    try:
        context = SapContext(caller, require_access(session_id, caller, write=True))
        body = {"path": path, "staged": upload.token}
        *_, response = dispatcher().execute(Block("action", "file.write", "upload", body), context)
    finally:
        if response is None or response.type == "error":
            discard_staged(upload)
    if response.type == "error":
        raise ProtocolError(
            response.body["code"],
            response.body["message"],
            details=response.body["details"],
            suggestion=response.body["suggestion"],
        )
    return response


def risky_step_wait(session: WorkSession) -> float | None:
    """How long SAP requests that needed a human's approval waited for the decision, on average."""
    decided = Approval.objects.filter(session=session, decided_at__isnull=False).values_list("created_at", "decided_at")
    waits = [(decided_at - created_at).total_seconds() for created_at, decided_at in decided if decided_at]
    return round(mean(waits), 3) if waits else None
