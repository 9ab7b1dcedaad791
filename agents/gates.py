"""What waits for a person in a session, and the one way a person decides it.

``waiting_for_people`` is the one list: the workspace's "Waiting for approval" panel, the scheduling
card, the sessions list and the REST API all read it, so they always show the same items. Each item
says in plain words what waits, what happens on approval (which agent runs what, with which inputs)
and who may decide. ``gate_decide`` approves, rejects or answers an item through the service that
owns it (SAP approvals, the scheduler, the message log), so a decision taken here is the same act as
anywhere else.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count

from agents.models import Approval, ApprovalStatus, Task, TaskState
from agents.sap_service import approval_decide
from agents.scheduling.acts import task_approve, task_cancel
from agents.scheduling.plans import plan_decide, task_artefact
from protocol.errors import ProtocolError
from sessions.access import DECIDERS, Access, Caller, SessionId, managers_only, require_access
from sessions.chap.decisions import Decision, already_decided, decision
from sessions.chap.graph import ContextGraph
from sessions.graphs import graph_cache
from sessions.log import answer_give
from sessions.models import Message, SessionState, WorkSession

WAITING_FOR_APPROVAL = "waiting for approval"
WAITING_FOR_AN_ANSWER = "waiting for an answer"
DETAIL_CHARS = 2000
SHOWN = 100  # of each kind; a session with more is stuck in a way a list will not fix
CLOSED = (SessionState.DONE, SessionState.ARCHIVED)  # nothing waits in these


@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class Gate:
    """One thing that waits for a person. ``key`` names it for ``gate_decide``; ``status`` says whether it
    waits for an approval or an answer."""

    kind: str  # "operation", "step", "plan" or "question"
    label: str  # what waits, in plain words
    on_approval: str  # what happens when a person says yes (or answers)
    asked_by: str
    since: datetime | None = None
    reason: str = ""  # why it waits
    detail: str = ""  # the request or the inputs, in full
    deciders: tuple[str, ...] = DECIDERS
    approval_id: int | None = None
    task_id: int | None = None
    message_id: str = ""
    question_index: int | None = None
    options: tuple[Option, ...] = ()

    @property
    def answered_not_approved(self) -> bool:
        """Questions get an answer; everything else an approval or a rejection."""
        return self.kind == "question"

    @property
    def key(self) -> str:
        """Names it for ``gate_decide``: operation:<approval id>, step:<task id>, plan:<message id>, or
        question:<message id> (with :<index> for one of a report's open questions)."""
        named = {"operation": self.approval_id, "step": self.task_id}.get(self.kind, self.message_id)
        return f"{self.kind}:{named}" + (f":{self.question_index}" if self.question_index is not None else "")

    @property
    def status(self) -> str:
        return WAITING_FOR_AN_ANSWER if self.answered_not_approved else WAITING_FOR_APPROVAL


def may_decide(role: str | None) -> bool:
    return role in DECIDERS


def _who(sender: str) -> str:
    kind, _, name = sender.partition(":")
    return name if kind == "agent" else sender


def _params(request: dict[str, Any]) -> str:
    shown = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)[:60]}" for key, value in request.items())
    return shown or "no parameters"


def _operations(session: WorkSession) -> list[Gate]:
    rows = Approval.objects.filter(session=session, status=ApprovalStatus.PENDING).select_related("agent")
    gates = []
    for approval in rows.order_by("created_at")[:SHOWN]:
        who = approval.agent.name if approval.agent else _who(approval.requested_by)
        gates.append(
            Gate(
                kind="operation",
                label=f"{who} asks to run {approval.operation}",
                on_approval=f"{approval.operation} runs with {who}'s rights, with {_params(approval.request)}",
                asked_by=who,
                since=approval.created_at,
                reason=approval.reason,
                detail=json.dumps(approval.request, indent=1, ensure_ascii=False)[:DETAIL_CHARS],
                approval_id=approval.pk,
            )
        )
    return gates


def _steps(session: WorkSession, graph: ContextGraph) -> list[Gate]:
    rows = (
        Task.objects.filter(session=session, state=TaskState.WAITING_APPROVAL)
        .select_related("agent")
        .prefetch_related("depends_on")
        .order_by("created_at")[:SHOWN]
    )
    gates = []
    for task in rows:
        runner = task.agent.name if task.agent else f"the first agent who can do {task.required_role or 'it'}"
        before = list(task.depends_on.all())
        inputs = "; ".join(f"#{b.pk} {task_artefact(graph, b)}" for b in before) or "no earlier results"
        waits_for = [f"#{b.pk}" for b in before if b.state != TaskState.DONE]
        when = f", once {' and '.join(waits_for)} {'is' if len(waits_for) == 1 else 'are'} done" if waits_for else ""
        step = f"step {task.plan_step} of the plan: " if task.plan_step else ""
        gates.append(
            Gate(
                kind="step",
                label=f"Start {step}“{task.title}”",
                on_approval=f"{runner} runs “{task.title}” with {inputs}{when}",
                asked_by="the plan" if task.plan_step else "the scheduler",
                since=task.created_at,
                reason="the plan marks this step as needing a person's approval",
                detail=task.instructions[:DETAIL_CHARS],
                task_id=task.pk,
                message_id=task.source_message_id,
            )
        )
    return gates


def _plans(session: WorkSession, graph: ContextGraph) -> list[Gate]:
    planned = Task.objects.filter(session=session, plan_step__isnull=False).values("source_message_id")
    rows = (
        Message.objects.filter(session=session, payload_type="agent_capability_declaration")
        .exclude(message_id__in=planned)
        .order_by("seq")
        .values_list("message_id", "sender_id", "envelope", "created_at")
    )
    gates = []
    for message_id, sender, envelope, created_at in rows:
        plan = envelope["payload"].get("proposed_plan") or []
        if not plan or graph.graph.nodes.get(message_id, {}).get("status") != "proposed":
            continue
        steps = sorted(plan, key=lambda s: s["step"])
        gated = [s["step"] for s in steps if s.get("requires_approval")]
        listed = "; ".join(
            f"{s['step']}. {s['action']}"
            + (f" ({s['required_capability']})" if s.get("required_capability") else "")
            + (" (needs approval)" if s.get("requires_approval") else "")
            for s in steps
        )
        gates.append(
            Gate(
                kind="plan",
                label=f"{sender}'s plan in {len(steps)} step{'s' if len(steps) != 1 else ''}",
                on_approval="its steps become tasks for the session's agents, each taking the previous one's output"
                + (f"; step {', '.join(map(str, gated))} will wait for approval again" if gated else ""),
                asked_by=sender,
                since=created_at,
                reason="agents start work only on a plan a person approved",
                detail=listed[:DETAIL_CHARS],
                message_id=message_id,
            )
        )
    return gates[-SHOWN:]


def _questions(session: WorkSession, graph: ContextGraph) -> list[Gate]:
    nodes = graph.graph.nodes
    shown = sorted(graph.open_asks, key=lambda n: (nodes[n]["seq"], n))[:SHOWN]  # only these messages are read
    rows = Message.objects.filter(session=session, message_id__in={nodes[n]["message"] for n in shown})
    found = {
        message_id: (envelope, at)
        for message_id, envelope, at in rows.values_list("message_id", "envelope", "created_at")
    }
    gates = []
    for node in shown:
        message_id = nodes[node]["message"]
        if message_id not in found:
            continue
        envelope, asked_at = found[message_id]
        who = envelope["sender"]["id"]
        payload = envelope["payload"]
        if nodes[node]["kind"] == "clarification":
            text, index = payload["question"], None
            options = tuple(Option(o["id"], o["label"]) for o in payload.get("options") or [])
        else:
            index = int(node.rsplit(":", 1)[1])
            text, options = payload["open_questions_for_human"][index], ()
        gates.append(
            Gate(
                kind="question",
                label=f"{who} asks: {text}",
                on_approval=f"{who} works again with your answer",
                asked_by=who,
                since=asked_at,
                message_id=message_id,
                question_index=index,
                options=options,
            )
        )
    return gates


def waiting_for_people(session: WorkSession, *, fresh: bool = False) -> tuple[Gate, ...]:
    """Everything in ``session`` that waits for a person's decision or answer, oldest first in each
    kind: SAP operations needing approval, plan steps at their gate, plans, then questions. The
    session's row is read again unless the caller read it just now (``fresh``), into a row of its own:
    the caller's keeps the head it read (a page's thread and the head its socket resumes from must be
    one; moving it on here lost the messages between them from the page). Nothing waits in a session
    marked done or archived: reopened, what still waits is listed again."""
    if not fresh:
        session = WorkSession.objects.get(pk=session.pk)  # the graph of the log as it is now
    if session.state in CLOSED:
        return ()
    entry = graph_cache.entry(session)
    with entry.lock:
        graph = entry.graph
        return (*_operations(session), *_steps(session, graph), *_plans(session, graph), *_questions(session, graph))


def waiting_counts(sessions: list[WorkSession]) -> dict[uuid.UUID, int]:
    """How many items ``waiting_for_people`` lists for each of ``sessions`` (by id), from the database
    alone: the pending approvals and the steps at their gate, and the questions and plans each
    session's row keeps (``WorkSession.open_questions``, ``proposed_plans``) less the plans already
    turned into tasks; none in a session marked done or archived. The same three queries for any
    number of sessions, and no log replayed."""
    ids = [session.pk for session in sessions]
    operations = dict(
        Approval.objects.filter(session__in=ids, status=ApprovalStatus.PENDING)
        .values_list("session")
        .annotate(n=Count("pk"))
        .values_list("session", "n")
    )
    steps = dict(
        Task.objects.filter(session__in=ids, state=TaskState.WAITING_APPROVAL)
        .values_list("session")
        .annotate(n=Count("pk"))
        .values_list("session", "n")
    )
    planned = set(
        Task.objects.filter(session__in=ids, plan_step__isnull=False).values_list("session", "source_message_id")
    )
    return {
        session.pk: min(operations.get(session.pk, 0), SHOWN)
        + min(steps.get(session.pk, 0), SHOWN)
        + min(sum((session.pk, plan) not in planned for plan in session.proposed_plans), SHOWN)
        + min(session.open_questions, SHOWN)
        if session.state not in CLOSED
        else 0
        for session in sessions
    }


DECISIONS = ("approve", "reject", "answer")


def gate_decide(
    *,
    session_id: SessionId,
    caller: Caller,
    key: str,
    decision: str,
    reason: str = "",
    option_id: str = "",
    access: Access | None = None,
) -> Gate:
    """Decide one item of ``waiting_for_people``: approve or reject (with a reason) an operation, a
    step or a plan; answer a question (``reason`` is the answer, or ``option_id`` one of its options).

    Owners and editors decide; anyone else gets PERMISSION_DENIED, an item that waits no more
    ALREADY_DECIDED. Returns the item as it was decided. ``access``: the caller's, when the edge read
    it already (the page's view).
    """
    if access is None:
        access = require_access(session_id, caller)
    if caller.kind != "human" or not may_decide(access.role):
        raise managers_only(access, to="decide what waits for approval", permission="gate.decide")
    if decision not in DECISIONS:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"decision is one of {list(DECISIONS)}",
            details={"violations": {"decision": f"got {decision!r}"}},
        )
    gate = next((g for g in waiting_for_people(access.session) if g.key == key), None)
    if gate is None:
        settled = _decided(access.session, key)
        if settled is not None:
            raise already_decided(settled, refused=decision)
        raise ProtocolError(
            "ALREADY_DECIDED",
            "nothing waits under this name any more: someone decided it, or it never waited",
            details={"key": key},
            suggestion=["reload the list of what waits for people"],
        )
    if (decision == "answer") != gate.answered_not_approved:
        expected = "answer" if gate.answered_not_approved else "approve or reject"
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"this item takes {expected}",
            details={"violations": {"decision": f"{decision!r} does not fit a {gate.kind}"}},
        )
    _carry_out(access, caller, gate, approve=decision == "approve", reason=reason, option_id=option_id)
    return gate


def _carry_out(access: Access, caller: Caller, gate: Gate, *, approve: bool, reason: str, option_id: str) -> None:
    """The decision taken through the service that owns the item, so it is the same act as anywhere else."""
    session_id = access.session_id
    if gate.kind == "operation":
        assert gate.approval_id is not None, "an operation waits as its approval"
        approval_decide(
            session_id=session_id, approval_id=gate.approval_id, caller=caller, approve=approve, reason=reason
        )
    elif gate.kind == "step":
        assert gate.task_id is not None, "a step waits as its task"
        if approve:
            task_approve(session_id=session_id, task_id=gate.task_id, caller=caller)
        else:
            task_cancel(
                session_id=session_id, task_id=gate.task_id, caller=caller, reason=reason or "rejected at its gate"
            )
    elif gate.kind == "plan":
        plan_decide(
            session_id=session_id,
            caller=caller,
            message_id=gate.message_id,
            approve=approve,
            reason=reason,
            access=access,
        )
    else:
        _answer(access, caller, gate, reason, option_id)


def _decided(session: WorkSession, key: str) -> Decision | None:
    """How the plan or question ``key`` names was decided, if it was one and a person decided it."""
    kind, _, name = key.partition(":")
    message_id, _, index = name.partition(":")
    if kind not in ("plan", "question"):
        return None
    entry = graph_cache.entry(session)
    with entry.lock:
        return decision(entry.graph.graph, f"{message_id}#question:{index}" if index else message_id)


def _answer(access: Access, caller: Caller, gate: Gate, text: str, option_id: str) -> None:
    payload: dict[str, Any] = {"clarification_message_id": gate.message_id}
    if gate.question_index is not None:
        payload["question_index"] = gate.question_index
    if option_id:
        if option_id not in {o.id for o in gate.options}:
            raise ProtocolError(
                "VALIDATION_FAILED",
                "that is not one of the question's options",
                details={"violations": {"option_id": f"got {option_id!r}"}},
            )
        payload["option_id"] = option_id
    if text:
        payload["free_answer"] = text
    if len(payload) == 1 + (gate.question_index is not None):
        raise ProtocolError(
            "VALIDATION_FAILED", "an answer needs words or an option", details={"missing": ["reason", "option_id"]}
        )
    answer_give(access=access, caller=caller, payload=payload)
