"""The workers' lease protocol: what a worker (or the agent socket) may take, and for how long.

- ``task_claim`` takes the most urgent ready task under a lease (``SELECT … FOR UPDATE SKIP
  LOCKED`` on PostgreSQL, so concurrent workers never take the same one; SQLite serialises writers);
- ``task_renew`` extends the lease while the work goes on; a worker that cannot renew has lost the
  task and must stop;
- a task whose lease ran out is ready again, and its next claim counts another attempt;
- ``task_finish`` and ``task_fail`` only succeed for the holder of the current attempt.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.failures import Failure, problem_report
from agents.models import AgentKind, Task, TaskState
from agents.scheduling.acts import _record
from sessions.access import SYSTEM, caller_for_agent
from sessions.log import message_post_at_head
from sessions.models import SessionAgent

DEFAULT_LEASE_S = 30.0


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
