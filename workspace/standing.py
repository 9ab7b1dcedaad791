"""Where a session stands and what waits for whom: the one decision the sessions list, the review
page, the state card and the answer card all show (``standing``).

A session marked done or archived stands so, and nothing of it waits for anyone; otherwise a failed
step comes first (nothing after it runs until a person acts), then agents at work, then what waits
for a person, then a session whose every task is finished: ready for review when a report answers
it, else ended without an answer. What waits is "for you" only to those who may decide it (owners
and editors); the others read whom it waits for.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q
from django.urls import reverse

from agents.failures import reason_of
from agents.gates import CLOSED, Gate, may_decide, waiting_counts, waiting_for_people
from agents.models import OPEN_STATES, Task, TaskState
from agents.scheduling.matching import roles_missing, roles_uncovered
from sessions.models import WorkSession
from sessions.selectors import sessions_for_user

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from sessions.selectors import ReviewRow

REVIEW_DETAIL = "every task is done: read the report, then mark the session done"
FAILED_DETAIL = "retry it, give it to another agent or set it aside on the scheduling board"
UNANSWERED_DETAIL = "every task ended and no report answers the session: read the thread for why, then ask again"
OTHERS = "an owner or editor"  # who decides, as those who do not read it


@dataclass(frozen=True)
class Standing:
    """Where a session stands: its ``key`` (failed, working, waiting, review, unanswered, done…),
    its ``label`` for those who decide, and ``label_others`` for those who do not."""

    key: str
    label: str
    label_others: str

    def label_for(self, role: str | None) -> str:
        return self.label if may_decide(role) else self.label_others


def standing(
    session: WorkSession, *, working: bool, waiting: bool, finished: bool, failed: bool, answered: bool
) -> Standing:
    """The one decision of where a session stands (see the module's docstring)."""
    if session.state in CLOSED:
        shown = session.get_state_display()
        return Standing(session.state, shown, shown)
    if failed:
        return Standing("failed", "A step failed", "A step failed")
    if working:
        return Standing("working", "Working", "Working")
    if waiting:
        return Standing("waiting", "Waiting for you", f"Waiting for {OTHERS}")
    if finished and answered:
        return Standing("review", "Ready for your review", f"Ready for review by {OTHERS}")
    if finished:
        return Standing("unanswered", "Ended without an answer", "Ended without an answer")
    shown = session.get_state_display()
    return Standing(session.state, shown, shown)


def waiting_now(
    session: WorkSession, gates: tuple[Gate, ...] | None = None, unassigned_roles: set[str] | None = None
) -> list[dict[str, Any]]:
    """What waits for a person, as the state card lists it: each item of ``waiting_for_people``
    (agents.gates; ``gates`` when the caller read it already) with a link to where it is decided, and
    the roles a step needs that no agent here takes (someone has to invite one; ``unassigned_roles``,
    those of the open tasks nobody has, when the caller read them already). Each item has ``what``
    and ``href``. Nothing waits in a session marked done or archived."""
    if session.state in CLOSED:
        return []
    schedule = reverse("workspace:schedule", args=[session.pk])
    items = []
    for gate in waiting_for_people(session) if gates is None else gates:
        href = f"{schedule}#task-{gate.task_id}" if gate.kind == "step" else "#approvals"
        items.append({"what": gate.label, "href": href, "kind": gate.kind})
    if unassigned_roles is None:
        unassigned = Task.objects.filter(session=session, state__in=OPEN_STATES, agent__isnull=True)
        unassigned_roles = set(unassigned.values_list("required_role", flat=True))
    uncovered = roles_uncovered(session_id=session.pk, roles=unassigned_roles) if unassigned_roles - {""} else {}
    for role, candidates in uncovered.items():
        offer = f" (you can invite {', '.join(candidates)})" if candidates else ""
        what = f"A step needs an agent that does {role}, and none in this session does{offer}"
        items.append({"what": what, "href": f"{schedule}#unassigned", "kind": "agent"})
    return items


def _ready() -> Q:
    """Queued tasks an agent of the session can start now: assigned, not paused, every input done."""
    blocked = Task.depends_on.through.objects.filter(from_task=OuterRef("pk")).exclude(to_task__state=TaskState.DONE)
    return Q(~Exists(blocked), state=TaskState.QUEUED, paused=False, agent__isnull=False)


def work_state(session: WorkSession, gates: tuple[Gate, ...] | None = None) -> dict[str, Any]:
    """Where the session stands, as its state card says it: ``key``, ``label`` (for those who decide)
    and ``label_others``, a ``detail`` line, and what waits for a person (``waiting``; from ``gates``
    when the caller read ``waiting_for_people`` already). Its unfinished tasks are read in one query
    (a second tells a finished session from one without tasks), so a live update pays little for it."""
    ready = ExpressionWrapper(_ready(), output_field=BooleanField())
    unfinished = list(
        Task.objects.filter(session=session)
        .exclude(state__in=[TaskState.DONE, TaskState.CANCELLED])
        .select_related("agent")
        .annotate(ready=ready)
    )
    unassigned = {t.required_role for t in unfinished if t.state in OPEN_STATES and t.agent is None}
    waiting = waiting_now(session, gates, unassigned)
    questions = sum(item["kind"] == "question" for item in waiting)
    running = [task for task in unfinished if task.state == TaskState.RUNNING][:3]
    schedule = reverse("workspace:schedule", args=[session.pk])
    failures = sorted((t for t in unfinished if t.state == TaskState.FAILED), key=_finished_first)[:5]
    failed = [
        {"what": f"“{task.title}” failed: {reason_of(task.last_error)}", "href": f"{schedule}#task-{task.pk}"}
        for task in failures
    ]
    finished = not unfinished and Task.objects.filter(session=session).exists()
    stands = standing(
        session,
        working=bool(running) or any(task.ready for task in unfinished),
        waiting=bool(waiting),
        finished=finished,
        failed=bool(failed),
        answered=bool(session.current_answer),
    )
    details = {"failed": FAILED_DETAIL, "review": REVIEW_DETAIL, "unanswered": UNANSWERED_DETAIL}
    detail = details.get(stands.key, "")
    if stands.key == "working":
        detail = "; ".join(f"{t.agent.name}: {t.title}" for t in running if t.agent) or "agents are about to start"
    return {
        "waiting": waiting,
        "failed": failed,
        "open_questions": questions,
        "key": stands.key,
        "label": stands.label,
        "label_others": stands.label_others,
        "detail": detail,
    }


def _finished_first(task: Task) -> tuple[bool, Any]:
    """Failed tasks in the order they finished, as the database sorts them (those without a time last)."""
    return (task.finished_at is None, task.finished_at)


@dataclass(frozen=True)
class SessionRow:
    """A session as the sessions list and the review page show it: where it stands (the state card's
    ``key`` and the ``label`` for this user's role) and how many items wait for this user to decide
    (0 for those who decide nothing)."""

    session: WorkSession
    key: str
    label: str
    waiting: int


def session_rows(*, user: User) -> list[SessionRow]:
    """The user's sessions, newest activity first, each as its state card would stand."""
    sessions = list(sessions_for_user(user=user))
    return standings(sessions, dict(user.chap_memberships.values_list("session_id", "role")))


def review_rows(found: list[ReviewRow]) -> list[tuple[ReviewRow, SessionRow]]:
    """The review page's sessions, each with where it stands for the caller's role in it."""
    rows = standings([row.session for row in found], {row.session.pk: row.role for row in found})
    return list(zip(found, rows, strict=True))


def standings(sessions: list[WorkSession], roles: dict[uuid.UUID, str]) -> list[SessionRow]:
    """Each session as its state card would stand for the viewer's role in it (``roles``, by id), and
    what waits (``waiting_now``), read from the database: the same few queries for any number of
    sessions, and no session's log replayed."""
    ids = [session.pk for session in sessions]
    gated = waiting_counts(sessions)
    wanted: defaultdict[uuid.UUID, set[str]] = defaultdict(set)
    unassigned = Task.objects.filter(session__in=ids, state__in=OPEN_STATES, agent__isnull=True)
    for session_id, role in unassigned.values_list("session_id", "required_role").distinct():
        wanted[session_id].add(role)
    missing = roles_missing(wanted)
    figures = {
        row["session"]: row
        for row in Task.objects.filter(session__in=ids)
        .values("session")
        .annotate(
            tasks=Count("pk"),
            working=Count("pk", filter=Q(state=TaskState.RUNNING) | _ready()),
            unfinished=Count("pk", filter=~Q(state__in=[TaskState.DONE, TaskState.CANCELLED])),
            failed=Count("pk", filter=Q(state=TaskState.FAILED)),
        )
    }
    rows = []
    for session in sessions:
        tasks = figures.get(session.pk, {"tasks": 0, "working": 0, "unfinished": 0, "failed": 0})
        waiting = 0 if session.state in CLOSED else gated[session.pk] + len(missing.get(session.pk, ()))
        stands = standing(
            session,
            working=bool(tasks["working"]),
            waiting=bool(waiting),
            finished=bool(tasks["tasks"]) and not tasks["unfinished"],
            failed=bool(tasks["failed"]),
            answered=bool(session.current_answer),
        )
        viewer = roles.get(session.pk)
        rows.append(SessionRow(session, stands.key, stands.label_for(viewer), waiting if may_decide(viewer) else 0))
    return rows
