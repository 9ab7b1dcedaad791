"""Tasks: who does what in a session, in which order, and what a worker may take.

Humans act on tasks through the functions at the top (create, accept a plan, reassign,
reprioritise, pause, resume, cancel, retry, approve); every act is a ``task_event`` message in the
session's log. Workers and the agent socket use the lease functions below them:

- ``task_claim`` takes the most urgent ready task under a lease (``SELECT … FOR UPDATE SKIP
  LOCKED`` on PostgreSQL, so concurrent workers never take the same one; SQLite serialises writers);
- ``task_renew`` extends the lease while the work goes on; a worker that cannot renew has lost the
  task and must stop;
- a task whose lease ran out is ready again, and its next claim counts another attempt;
- ``task_finish`` and ``task_fail`` only succeed for the holder of the current attempt.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from agents.failures import Failure, problem_report, retry_refusal
from agents.models import OPEN_STATES, Agent, AgentKind, Task, TaskState
from protocol.errors import ProtocolError
from sessions.access import SYSTEM, Access, Caller, SessionId, caller_for_agent, require_access, require_manager
from sessions.chap.graph import ContextGraph
from sessions.chap.labels import message_label
from sessions.log import message_post_at_head
from sessions.models import Message, SessionAgent

DEFAULT_LEASE_S = 30.0


def _require_planner(session_id: SessionId, caller: Caller, access: Access | None = None) -> Access:
    return require_manager(session_id, caller, to="schedule its tasks", permission="task.schedule", access=access)


def _task_of(session_id: uuid.UUID, task_id: int | str, *, lock: bool = False) -> Task:
    in_range = 0 < int(task_id) < 2**31  # a key no database column can hold names no task
    tasks = Task.objects.select_for_update(of=("self",)) if lock else Task.objects
    task = tasks.select_related("agent").filter(pk=task_id, session_id=session_id).first() if in_range else None
    if task is None:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no task {task_id} in this session",
            details={"resource_type": "TASK", "resource_name": str(task_id)},
        )
    return task


def _record(task: Task, action: str, caller: Caller, note: str = "", **extra: Any) -> None:
    """The log entry of an act on a task, written by the workbench on the actor's behalf."""
    payload = {
        "task_id": task.pk,
        "action": action,
        "state": task.state,
        "title": task.title,
        "by": f"{caller.kind}:{caller.sender_id}",
        "agent": task.agent.name if task.agent else "",
        "required_role": task.required_role,
        "priority": task.priority,
        "attempt": task.attempts,
        **({"plan_message_id": task.source_message_id} if task.source_message_id else {}),
        **({"plan_step": task.plan_step} if task.plan_step else {}),
        **({"note": note} if note else {}),
        **extra,
    }
    message_post_at_head(session_id=task.session_id, caller=SYSTEM, payload_type="task_event", payload=payload)


def _takes(participation: SessionAgent, role: str) -> bool:
    taken = [*(participation.agent.roles or []), *(participation.covers_roles or []), participation.role]
    return bool(role) and role in taken


def _match_agent(session_id: uuid.UUID, role: str) -> Agent | None:
    """The least busy enabled agent of the session that can take ``role``; one paused here last."""
    participations = SessionAgent.objects.filter(session_id=session_id, agent__enabled=True).select_related("agent")
    able = [p.agent for p in participations if _takes(p, role)]
    if not able:
        return None
    paused = {p.agent_id for p in participations if p.paused}
    load = dict(
        Task.objects.filter(agent__in=able, state__in=OPEN_STATES)
        .values_list("agent")
        .annotate(n=Count("pk"))
        .values_list("agent", "n")
    )
    return min(able, key=lambda agent: (agent.pk in paused, load.get(agent.pk, 0), agent.name))


def roles_missing(wanted: dict[uuid.UUID, set[str]]) -> dict[uuid.UUID, set[str]]:
    """For each session id of ``wanted``, the roles of its set that no enabled agent of that session
    takes: one query for any number of sessions."""
    taking: defaultdict[str, list[SessionAgent]] = defaultdict(list)
    enabled = SessionAgent.objects.filter(session_id__in=wanted, agent__enabled=True).select_related("agent")
    for participation in enabled:
        taking[str(participation.session_id)].append(participation)
    return {
        session_id: {role for role in roles if role and not any(_takes(p, role) for p in taking[str(session_id)])}
        for session_id, roles in wanted.items()
    }


def roles_uncovered(*, session_id: uuid.UUID, roles: Collection[str]) -> dict[str, list[str]]:
    """Of ``roles``, those no enabled agent of the session takes, each with the enabled agents that
    would (the ones a person can invite): a plan step of such a role would wait for ever."""
    missing = roles_missing({session_id: set(roles)})[session_id]
    if not missing:
        return {}
    outside = Agent.objects.filter(enabled=True).exclude(participations__session_id=session_id).order_by("name")
    candidates = list(outside.values_list("name", "roles"))
    return {role: [name for name, taken in candidates if role in (taken or [])] for role in sorted(missing)}


def _paused_here(session_id: uuid.UUID, agent: Agent | None) -> bool:
    return agent is not None and SessionAgent.objects.filter(session_id=session_id, agent=agent, paused=True).exists()


def _participant(session_id: uuid.UUID, name: str) -> Agent:
    participation = SessionAgent.objects.select_related("agent").filter(session_id=session_id, agent__name=name).first()
    if participation is None:
        raise _not_taking_part(name)
    return participation.agent


def _not_taking_part(name: str) -> ProtocolError:
    return ProtocolError(
        "RESOURCE_NOT_FOUND",
        f"agent {name!r} does not take part in this session",
        details={"resource_type": "AGENT", "resource_name": name},
        suggestion=["invite the agent to the session first"],
    )


@transaction.atomic
def task_create(
    *,
    session_id: SessionId,
    caller: Caller,
    title: str,
    instructions: str = "",
    agent: str | None = None,
    required_role: str = "",
    priority: int = 0,
    depends_on: Sequence[int] = (),
    requires_approval: bool = False,
    source_message_id: str = "",
    plan_step: int | None = None,
) -> Task:
    """A new task, assigned to the named agent or else to the session's best match for the role."""
    access = _require_planner(session_id, caller)
    assigned = _participant(access.session_id, agent) if agent else _match_agent(access.session_id, required_role)
    before = list(Task.objects.filter(session_id=access.session_id, pk__in=depends_on))
    missing = sorted(set(depends_on) - {t.pk for t in before})
    if missing:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no task {missing[0]} in this session to depend on",
            details={"resource_type": "TASK", "resource_name": str(missing[0])},
        )
    task = Task.objects.create(
        session_id=access.session_id,
        paused=_paused_here(access.session_id, assigned),
        title=title,
        instructions=instructions,
        agent=assigned,
        required_role=required_role,
        priority=priority,
        requires_approval=requires_approval,
        state=TaskState.WAITING_APPROVAL if requires_approval else TaskState.QUEUED,
        source_message_id=source_message_id,
        plan_step=plan_step,
    )
    task.depends_on.set(before)
    _record(task, "created", caller)
    return task


@transaction.atomic
def plan_accept(*, session_id: SessionId, caller: Caller, message_id: str) -> list[Task]:
    """The steps of an agent's proposed plan become tasks, each handing its output to the next.

    Accepting the same plan again returns the tasks it made the first time.
    """
    access = _require_planner(session_id, caller)
    made = list(Task.objects.filter(session_id=access.session_id, source_message_id=message_id).order_by("plan_step"))
    if made:
        return made
    message = Message.objects.filter(session_id=access.session_id, message_id=message_id).first()
    plan = (message.envelope["payload"].get("proposed_plan") if message else None) or []
    if message is None or message.payload_type != "agent_capability_declaration" or not plan:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no proposed plan in message {message_id!r}",
            details={"resource_type": "PLAN", "resource_name": message_id},
            suggestion=["accept an agent_capability_declaration that has a proposed_plan"],
        )
    author = Agent.objects.filter(name=message.sender_id).first() if message.sender_type == "agent" else None
    tasks: list[Task] = []
    for step in sorted(plan, key=lambda s: s["step"]):
        role = step.get("required_capability", "")
        task = task_create(
            session_id=access.session_id,
            caller=caller,
            title=step["action"],
            instructions=step.get("output", ""),
            agent=author.name if author and not role else None,
            required_role=role,
            priority=0,
            depends_on=[tasks[-1].pk] if tasks else [],
            requires_approval=step.get("requires_approval", False),
            source_message_id=message_id,
            plan_step=step["step"],
        )
        tasks.append(task)
    return tasks


def plan_approve(*, session_id: SessionId, caller: Caller, message_id: str, access: Access | None = None) -> list[Task]:
    """A person approves an agent's proposed plan: the approval goes in the log, then its steps
    become tasks (``plan_accept``). A plan a person approved or rejected already is not decided
    again: ``message_post`` refuses the second decision with ALREADY_DECIDED. ``access``: the
    caller's, when the edge read it already."""
    access = _require_planner(session_id, caller, access)
    with transaction.atomic():
        message_post_at_head(
            session_id=access.session_id,
            caller=caller,
            payload_type="human_feedback",
            payload={"target_message_id": message_id, "feedback_type": "approval"},
            in_reply_to=message_id,
            access=access,
        )
        return plan_accept(session_id=access.session_id, caller=caller, message_id=message_id)


def plan_reject(*, session_id: SessionId, caller: Caller, message_id: str, reason: str = "") -> None:
    """A person rejects a proposed plan: a correction of it in the log, so its author plans again."""
    access = _require_planner(session_id, caller)
    message_post_at_head(
        session_id=access.session_id,
        caller=caller,
        payload_type="human_feedback",
        payload={
            "target_message_id": message_id,
            "feedback_type": "correction",
            "specific_instructions": {"reason": reason or "the plan was rejected"},
        },
        in_reply_to=message_id,
    )


def _change(
    session_id: SessionId,
    task_id: int | str,
    caller: Caller,
    action: str,
    apply: Callable[[Task], None],
    *,
    allowed_from: Collection[str],
    note: str = "",
) -> Task:
    """One human act on a task: checked, applied under a row lock, recorded."""
    access = _require_planner(session_id, caller)
    with transaction.atomic():
        task = _task_of(access.session_id, task_id, lock=True)
        if task.state not in allowed_from:
            raise ProtocolError(
                "INVALID_STATE",
                f"a {task.state} task cannot be {action}",
                details={"state": task.state, "allowed_from": sorted(allowed_from)},
            )
        apply(task)
        task.save()
        _record(task, action, caller, note)
    return task


def task_reassign(
    *,
    session_id: SessionId,
    task_id: int | str,
    caller: Caller,
    agent: str | None = None,
    role: str = "",
    confirm: bool = False,
) -> Task:
    """To the named agent, or back to the queue of a role (the best match takes it). An agent that
    does not take the task's role gets it only when the person ``confirm``s (ROLE_MISMATCH until
    then). A failed task given to another agent is queued again: the new agent tries it afresh."""
    access = _require_planner(session_id, caller)
    note = _role_mismatch(access.session_id, _task_of(access.session_id, task_id), agent, confirm=confirm)

    def apply(task: Task) -> None:
        here = task.session_id
        task.agent = _participant(here, agent) if agent else _match_agent(here, role or task.required_role)
        task.required_role = role or task.required_role
        task.paused = _paused_here(here, task.agent)
        if task.state == TaskState.RUNNING:  # the old agent's worker loses its lease on its next renewal
            task.state, task.lease_owner, task.lease_expires_at = TaskState.QUEUED, "", None
        if task.state == TaskState.FAILED:
            _queue_again(task)

    return _change(
        session_id, task_id, caller, "reassigned", apply, allowed_from=(*OPEN_STATES, TaskState.FAILED), note=note
    )


def _role_mismatch(session_id: uuid.UUID, task: Task, name: str | None, *, confirm: bool) -> str:
    """ROLE_MISMATCH when agent ``name`` does not take ``task``'s role and the person did not
    confirm; the note the reassignment carries when they did ("" when the roles fit)."""
    needed = task.required_role
    here = list(SessionAgent.objects.filter(session_id=session_id).select_related("agent"))
    chosen = next((p for p in here if p.agent.name == name), None)
    if not needed or chosen is None or _takes(chosen, needed):
        return ""
    if confirm:
        return f"given to {name}, which does not do {needed}, on purpose"
    able = [p.agent.name for p in here if _takes(p, needed)]
    does = ", ".join(chosen.agent.roles or []) or "no role"
    raise ProtocolError(
        "ROLE_MISMATCH",
        f"{name} does not do {needed}, which “{task.title}” needs ({name} does {does})",
        details={"agent": name, "required_role": needed, "agent_roles": does, "agents_with_role": able},
        suggestion=[
            *([f"give it to {' or '.join(able)} instead"] if able else []),
            f"to give it to {name} anyway, send the reassignment again with confirm: true",
        ],
    )


def task_unassign(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    """Back to the queue of its role, assigned to no agent (the board's "Unassigned" lane)."""

    def apply(task: Task) -> None:
        task.agent = None
        if task.state == TaskState.RUNNING:  # the old agent's worker loses its lease on its next renewal
            task.state, task.lease_owner, task.lease_expires_at = TaskState.QUEUED, "", None

    access = _require_planner(session_id, caller)
    role = _task_of(access.session_id, task_id).required_role or "any role"
    return _change(
        session_id, task_id, caller, "reassigned", apply, allowed_from=OPEN_STATES, note=f"back to the queue of {role}"
    )


def task_reprioritise(*, session_id: SessionId, task_id: int | str, caller: Caller, priority: int) -> Task:
    def apply(task: Task) -> None:
        task.priority = priority

    return _change(session_id, task_id, caller, "reprioritised", apply, allowed_from=OPEN_STATES)


def task_pause(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    def apply(task: Task) -> None:
        task.paused = True

    return _change(session_id, task_id, caller, "paused", apply, allowed_from=OPEN_STATES)


def task_resume(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    def apply(task: Task) -> None:
        task.paused = False

    return _change(session_id, task_id, caller, "resumed", apply, allowed_from=OPEN_STATES)


def task_cancel(*, session_id: SessionId, task_id: int | str, caller: Caller, reason: str = "") -> Task:
    """Stop a task, or set a failed one aside (the session no longer shows it as failed)."""

    def apply(task: Task) -> None:
        task.state, task.lease_owner, task.lease_expires_at = TaskState.CANCELLED, "", None
        task.finished_at = timezone.now()

    allowed = (*OPEN_STATES, TaskState.FAILED)
    return _change(session_id, task_id, caller, "cancelled", apply, allowed_from=allowed, note=reason)


def _queue_again(task: Task) -> None:
    task.state, task.last_error, task.finished_at = TaskState.QUEUED, "", None
    task.max_attempts = max(task.max_attempts, task.attempts + 1)


def task_retry(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    """Queue a failed or cancelled task again; refused (INVALID_STATE, saying why) when it would
    fail the same way (``agents.failures.retry_refusal``)."""

    def apply(task: Task) -> None:
        refusal = retry_refusal(task) if task.state == TaskState.FAILED else None
        if refusal is not None:
            raise refusal
        _queue_again(task)

    return _change(session_id, task_id, caller, "retried", apply, allowed_from=(TaskState.FAILED, TaskState.CANCELLED))


def task_approve(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    """A step that needed a human's approval may now run."""
    if caller.kind != "human":
        raise ProtocolError(
            "PERMISSION_DENIED",
            "only a human approves a step",
            details={"permission": "task.approve", "role": caller.kind},
        )

    def apply(task: Task) -> None:
        task.state, task.approved_by, task.approved_at = TaskState.QUEUED, caller.user, timezone.now()

    return _change(session_id, task_id, caller, "approved", apply, allowed_from=(TaskState.WAITING_APPROVAL,))


# The acts on one task: each service, and which fields of a request it takes. The REST API and the
# scheduling view both act through ``task_act``.
TASK_ACTIONS: dict[str, tuple[Callable[..., Task], tuple[str, ...]]] = {
    "reassign": (task_reassign, ("agent", "role", "confirm")),
    "unassign": (task_unassign, ()),
    "reprioritise": (task_reprioritise, ("priority",)),
    "pause": (task_pause, ()),
    "resume": (task_resume, ()),
    "cancel": (task_cancel, ("reason",)),
    "retry": (task_retry, ()),
    "approve": (task_approve, ()),
}


def task_act(*, session_id: SessionId, task_id: int | str, caller: Caller, action: str, **fields: Any) -> Task:
    """Run one of TASK_ACTIONS with the fields it takes (the others are ignored)."""
    service, takes = TASK_ACTIONS[action]
    return service(
        session_id=session_id, task_id=task_id, caller=caller, **{k: fields[k] for k in takes if k in fields}
    )


def tasks_of(*, session_id: SessionId, caller: Caller) -> QuerySet[Task]:
    access = require_access(session_id, caller)
    return (
        Task.objects.filter(session_id=access.session_id)
        .select_related("agent")
        .prefetch_related("depends_on")
        .order_by("-priority", "created_at")
    )


def task_get(*, session_id: SessionId, task_id: int | str, caller: Caller) -> Task:
    access = require_access(session_id, caller)
    return _task_of(access.session_id, task_id)


# -- leases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A task held by a worker for one attempt; every lease call names both."""

    task_id: int
    attempt: int
    worker: str


def _ready(now: datetime) -> Q:
    lease_over = Q(state=TaskState.RUNNING, lease_expires_at__lt=now)
    unfinished_dependency = Task.objects.exclude(state=TaskState.DONE).values("pk")
    return (
        (Q(state=TaskState.QUEUED) | lease_over)
        & Q(paused=False, agent__isnull=False, agent__enabled=True)
        & ~Q(depends_on__in=unfinished_dependency)
    )


def task_claim(
    *,
    worker: str,
    kinds: tuple[str, ...] = (AgentKind.BUILTIN, AgentKind.LLM),
    agent_ids: list[int] | None = None,
    task_id: int | None = None,
    lease_s: float = DEFAULT_LEASE_S,
) -> Task | None:
    """Take the most urgent ready task of the given agents (or that one task) under a new lease, or None."""
    now = timezone.now()
    with transaction.atomic():
        candidates = Task.objects.filter(_ready(now), agent__kind__in=kinds)
        if agent_ids is not None:
            candidates = candidates.filter(agent_id__in=agent_ids)
        if task_id is not None:
            candidates = candidates.filter(pk=task_id)
        locked = (
            candidates.select_for_update(skip_locked=True, of=("self",))
            .select_related("agent")
            .order_by("-priority", "created_at")[:20]
        )
        for task in locked:
            assert task.agent is not None, "_ready takes only tasks with an agent"
            if task.attempts >= task.max_attempts:
                _give_up(task, "its worker stopped answering too often")
                continue
            running = Task.objects.filter(agent=task.agent, state=TaskState.RUNNING, lease_expires_at__gte=now).count()
            if running >= task.agent.concurrency_limit:
                continue
            task.state, task.lease_owner = TaskState.RUNNING, worker
            task.lease_expires_at = now + timedelta(seconds=lease_s)
            task.attempts += 1
            task.started_at = task.started_at or now
            task.save(
                update_fields=["state", "lease_owner", "lease_expires_at", "attempts", "started_at", "updated_at"]
            )
            return task
    return None


def _give_up(task: Task, why: str) -> None:
    failure = Failure("INTERNAL_ERROR", why, retryable=True)
    task.state, task.last_error, task.finished_at = TaskState.FAILED, failure.as_error(), timezone.now()
    task.lease_owner, task.lease_expires_at = "", None
    task.save()
    _record(task, "failed", SYSTEM, why)
    _report_failure(task, failure, final=True)


def _report_failure(task: Task, failure: Failure, *, final: bool) -> None:
    """Tell the session an attempt failed (``agents.failures.problem_report``); when it was the last
    one, the agent's status says so too, in place of the "working" its worker can no longer change."""
    message_post_at_head(
        session_id=task.session_id,
        caller=SYSTEM,
        payload_type="error",
        payload=problem_report(task, failure, final=final),
    )
    agent = task.agent
    if final and agent and SessionAgent.objects.filter(session_id=task.session_id, agent=agent).exists():
        status = {"activity": f"“{task.title}”: {failure.why}"[:2000], "state": "failed", "task_id": str(task.pk)}
        message_post_at_head(
            session_id=task.session_id, caller=caller_for_agent(agent), payload_type="agent_status", payload=status
        )


def _held(claim: Claim) -> QuerySet[Task]:
    return Task.objects.filter(
        pk=claim.task_id, attempts=claim.attempt, lease_owner=claim.worker, state=TaskState.RUNNING
    )


def task_renew(claim: Claim, *, lease_s: float = DEFAULT_LEASE_S) -> bool:
    """Extend the lease; False means the task is no longer this worker's (expired, reassigned, cancelled)."""
    return bool(_held(claim).update(lease_expires_at=timezone.now() + timedelta(seconds=lease_s)))


def task_finish(claim: Claim, *, result_message_id: str = "", resources: dict[str, Any] | None = None) -> bool:
    with transaction.atomic():
        task = _held(claim).select_for_update(of=("self",)).select_related("agent").first()
        if task is None:
            return False
        task.state, task.finished_at, task.lease_expires_at = TaskState.DONE, timezone.now(), None
        task.result_message_id, task.resources = result_message_id, resources or {}
        task.save()
        extra = {"result_message_id": result_message_id} if result_message_id else {}
        _record(task, "finished", SYSTEM, **extra)
    return True


def task_fail(
    claim: Claim,
    *,
    error: str,
    resources: dict[str, Any] | None = None,
    retry: bool = True,
    failure: Failure | None = None,
) -> bool:
    """A failed attempt: back to the queue while attempts remain (and ``retry``), else failed. Either
    way the session gets a problem report saying why and what to do (``failure``, or read from
    ``error`` as an external agent gives it)."""
    failure = failure or Failure.from_text(error, retryable=retry)
    with transaction.atomic():
        task = _held(claim).select_for_update(of=("self",)).select_related("agent").first()
        if task is None:
            return False
        task.last_error, task.resources = error[:5000], resources or task.resources
        task.lease_owner, task.lease_expires_at = "", None
        final = not (retry and task.attempts < task.max_attempts)
        if final:
            task.state, task.finished_at = TaskState.FAILED, timezone.now()
        else:
            task.state = TaskState.QUEUED
        task.save()
        if final:
            _record(task, "failed", SYSTEM, failure.why[:5000])
        _report_failure(task, failure, final=final)
    return True


def agent_pause(*, session_id: SessionId, agent: str, caller: Caller, paused: bool = True) -> list[Task]:
    """Pause (or resume) an agent in this session: it stays paused for the tasks it gets later, the
    change is a session_event in the log, and each of its open tasks here is paused with a task_event."""
    access = _require_planner(session_id, caller)
    with transaction.atomic():
        participation = (
            SessionAgent.objects.select_for_update().filter(session_id=access.session_id, agent__name=agent).first()
        )
        if participation is None:
            raise _not_taking_part(agent)  # the same RESOURCE_NOT_FOUND as every other act
        participation.paused = paused
        participation.save(update_fields=["paused"])
        message_post_at_head(
            session_id=access.session_id,
            caller=SYSTEM,
            payload_type="session_event",
            payload={
                "action": "agent_paused" if paused else "agent_resumed",
                "agent": agent,
                "by": f"{caller.kind}:{caller.sender_id}",
                "label": f"{caller.sender_id} {'paused' if paused else 'resumed'} {agent} in this session",
            },
        )
        act = task_pause if paused else task_resume
        open_tasks = Task.objects.filter(
            session_id=access.session_id, agent__name=agent, state__in=OPEN_STATES, paused=not paused
        )
        return [act(session_id=session_id, task_id=pk, caller=caller) for pk in open_tasks.values_list("pk", flat=True)]


def tasks_assign_waiting(*, session_id: uuid.UUID, caller: Caller) -> list[Task]:
    """Give the session's unassigned open tasks to the agents that can now take them (after an agent
    joined): each assignment is a ``reassigned`` task_event."""
    waiting = Task.objects.filter(session_id=session_id, agent__isnull=True, state__in=OPEN_STATES).order_by("pk")
    assigned = []
    for task_id, role in waiting.values_list("pk", "required_role"):
        if role and _match_agent(session_id, role) is not None:
            assigned.append(task_reassign(session_id=session_id, task_id=task_id, caller=caller, role=role))
    return assigned


def task_forward(*, session_id: SessionId, task_id: int | str, caller: Caller, agent: str, note: str = "") -> Task:
    """Act as the intermediary: hand one task's result to another agent as a new task, with a note."""
    access = _require_planner(session_id, caller)
    source = _task_of(access.session_id, task_id)
    if not source.result_message_id:
        raise ProtocolError(
            "INVALID_STATE",
            f"task {task_id} has no result to forward yet",
            details={"state": source.state, "allowed_from": [TaskState.DONE]},
        )
    forwarded = task_create(
        session_id=session_id,
        caller=caller,
        title=f"Continue from task {source.pk}: {source.title}"[:2000],
        instructions=note,
        agent=agent,
        source_message_id=source.result_message_id,
        depends_on=[source.pk],
    )
    _record(source, "forwarded", caller, note, result_message_id=source.result_message_id)
    return forwarded


TASK_ACTIONS["forward"] = (task_forward, ("agent", "note"))


def task_artefact(context: ContextGraph, task: Task) -> str:
    """What a task hands on: its plan step's stated output (or its title), and the message that
    carries it once the task is done, named as a person names it ("the report from analyst")."""
    step = context.graph.nodes.get(f"{task.source_message_id}#step:{task.plan_step}", {})
    named = step.get("output") or f"the output of “{task.title}”"
    if not task.result_message_id:
        return f"{named}, when ready"
    return f"{named}: {message_label(context.graph.nodes.get(task.result_message_id))}"
