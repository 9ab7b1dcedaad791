"""People's acts on tasks: create, reassign, reprioritise, pause, resume, cancel, retry, approve,
forward. Every act is checked (owners and editors schedule), applied under a row lock, and recorded
as a ``task_event`` message in the session's log."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Sequence
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from agents.failures import retry_refusal
from agents.models import OPEN_STATES, Task, TaskState
from agents.scheduling.matching import _match_agent, _not_taking_part, _participant, _paused_here, _role_mismatch
from protocol.errors import ProtocolError, not_found
from sessions.access import SYSTEM, Access, Caller, SessionId, require_access, require_manager
from sessions.log import message_post_at_head
from sessions.models import SessionAgent


def _require_planner(session_id: SessionId, caller: Caller, access: Access | None = None) -> Access:
    return require_manager(session_id, caller, to="schedule its tasks", permission="task.schedule", access=access)


def _task_of(session_id: uuid.UUID, task_id: int | str, *, lock: bool = False) -> Task:
    in_range = 0 < int(task_id) < 2**31  # a key no database column can hold names no task
    tasks = Task.objects.select_for_update(of=("self",)) if lock else Task.objects
    task = tasks.select_related("agent").filter(pk=task_id, session_id=session_id).first() if in_range else None
    if task is None:
        raise not_found("TASK", str(task_id), f"no task {task_id} in this session")
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
        raise not_found("TASK", str(missing[0]), f"no task {missing[0]} in this session to depend on")
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
    "forward": (task_forward, ("agent", "note")),
}


def task_act(*, session_id: SessionId, task_id: int | str, caller: Caller, action: str, **fields: Any) -> Task:
    """Run one of TASK_ACTIONS with the fields it takes (the others are ignored)."""
    service, takes = TASK_ACTIONS[action]
    return service(
        session_id=session_id, task_id=task_id, caller=caller, **{k: fields[k] for k in takes if k in fields}
    )
