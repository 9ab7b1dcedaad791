"""What the workspace's screens read: the decision map drawn and the thread shown from the session's
context graph, and the panels that span both apps: the scheduling board, what waits for a person, the
state card and the sessions list. Dicts and frozen dataclasses for the templates, never
attributes set on model instances; the domain reads stay in sessions and agents."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q
from django.urls import reverse

from agents.failures import reason_of
from agents.gates import Gate, may_decide, waiting_counts, waiting_for_people
from agents.models import OPEN_STATES, Approval, Task, TaskState
from agents.scheduling.matching import roles_missing, roles_uncovered
from agents.scheduling.plans import task_artefact
from sessions.chap.layout import MapLayout
from sessions.graphs import graph_cache, replay_cache
from sessions.models import SessionState, WorkSession
from sessions.selectors import agent_statuses, session_messages, sessions_for_user
from workspace.map_drawing import draw_map, map_update
from workspace.node_details import node_details
from workspace.thread import thread_entry

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ANY_ROLE = "any role"


@dataclass(frozen=True)
class Handoff:
    """What an earlier task hands on to a later one: its plan step's output, and the message once done."""

    source: Task
    target: Task
    artefact: str


@dataclass(frozen=True)
class TaskCard:
    """A task as its card on the board shows it: what it takes from earlier tasks, and the gate a
    person approves it at (None when it waits at none)."""

    task: Task
    inputs: tuple[Handoff, ...]
    gate: Gate | None

    @property
    def failure(self) -> str:
        """Why the task failed, in words ("" unless it failed)."""
        return reason_of(self.task.last_error) if self.task.state == TaskState.FAILED else ""


def schedule_board(*, session: WorkSession) -> dict[str, Any]:
    """One lane per agent of the session (its current task, its queue by priority, its waiting
    approvals) and the unassigned tasks by the role they need, each task as its card; and every
    hand-off between them."""
    statuses = {a["name"]: a for a in agent_statuses(session=session)}
    tasks = list(
        Task.objects.filter(session=session)
        .select_related("agent")
        .prefetch_related("depends_on")
        .order_by("-priority", "created_at")
    )
    gates = {gate.task_id: gate for gate in waiting_for_people(session) if gate.kind == "step"}
    entry = graph_cache.entry(session)
    with entry.lock:
        cards = [
            TaskCard(
                task,
                tuple(Handoff(before, task, task_artefact(entry.graph, before)) for before in task.depends_on.all()),
                gates.get(task.pk),
            )
            for task in tasks
        ]
    waiting = Approval.objects.filter(session=session, status="pending").select_related("agent")
    lanes = []
    for name, status in statuses.items():
        mine = [c for c in cards if c.task.agent and c.task.agent.name == name]
        lanes.append(
            {
                "agent": name,
                "status": status,
                "roles": status["roles"],
                "current": [c for c in mine if c.task.state == TaskState.RUNNING],
                "queue": [c for c in mine if c.task.state in OPEN_STATES and c.task.state != TaskState.RUNNING],
                "failed": [c for c in mine if c.task.state == TaskState.FAILED],
                "finished": [c for c in mine if c.task.state not in (*OPEN_STATES, TaskState.FAILED)],
                "approvals": [a for a in waiting if a.agent and a.agent.name == name],
                "paused": status["paused"],
            }
        )
    unassigned: dict[str, list[TaskCard]] = {}
    for card in cards:
        if card.task.agent is None and card.task.state in OPEN_STATES:
            unassigned.setdefault(card.task.required_role or ANY_ROLE, []).append(card)
    handoffs = [handoff for card in cards for handoff in card.inputs]
    return {"lanes": lanes, "unassigned": unassigned, "handoffs": handoffs, "agents": sorted(statuses)}


def waiting_now(
    session: WorkSession, gates: tuple[Gate, ...] | None = None, unassigned_roles: set[str] | None = None
) -> list[dict[str, Any]]:
    """What waits for a person, as the state card lists it: each item of ``waiting_for_people``
    (agents.gates; ``gates`` when the caller read it already) with a link to where it is decided, and
    the roles a step needs that no agent here takes (someone has to invite one; ``unassigned_roles``,
    those of the open tasks nobody has, when the caller read them already). Each item has ``what``
    and ``href``."""
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


CLOSED = (SessionState.DONE, SessionState.ARCHIVED)
REVIEW_DETAIL = "every task is done: read the report, then mark the session done"
FAILED_DETAIL = "retry it, give it to another agent or set it aside on the scheduling board"


def _ready() -> Q:
    """Queued tasks an agent of the session can start now: assigned, not paused, every input done."""
    blocked = Task.depends_on.through.objects.filter(from_task=OuterRef("pk")).exclude(to_task__state=TaskState.DONE)
    return Q(~Exists(blocked), state=TaskState.QUEUED, paused=False, agent__isnull=False)


def _standing(
    session: WorkSession, *, working: bool, waiting: bool, finished: bool, failed: bool = False
) -> tuple[str, str]:
    """The state card's ``key`` and ``label`` (the sessions list shows the same): a step that failed
    first (nothing after it runs until a person acts), then agents at work, then what waits for a
    person, then a session whose every task is finished."""
    if session.state in CLOSED:
        return session.state, session.get_state_display()
    if failed:
        return "failed", "A step failed"
    if working:
        return "working", "Working"
    if waiting:
        return "waiting", "Waiting for you"
    if finished:
        return "review", "Ready for your review"
    return session.state, session.get_state_display()


def work_state(session: WorkSession, gates: tuple[Gate, ...] | None = None) -> dict[str, Any]:
    """Where the session stands, as its state card says it: ``key`` (working, waiting, review,
    done…), ``label``, a ``detail`` line, and what waits for a person (``waiting``; from ``gates``
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
    key, label = _standing(
        session,
        working=bool(running) or any(task.ready for task in unfinished),
        waiting=bool(waiting),
        finished=not unfinished and Task.objects.filter(session=session).exists(),
        failed=bool(failed),
    )
    if key == "failed":
        detail = FAILED_DETAIL
    elif key == "working":
        detail = "; ".join(f"{t.agent.name}: {t.title}" for t in running if t.agent) or "agents are about to start"
    else:
        detail = REVIEW_DETAIL if key == "review" else ""
    return {
        "waiting": waiting,
        "failed": failed,
        "open_questions": questions,
        "key": key,
        "label": label,
        "detail": detail,
    }


def _finished_first(task: Task) -> tuple[bool, Any]:
    """Failed tasks in the order they finished, as the database sorts them (those without a time last)."""
    return (task.finished_at is None, task.finished_at)


@dataclass(frozen=True)
class SessionRow:
    """A session as the sessions list shows it: where it stands (the state card's ``key`` and
    ``label``) and how many items wait for this user to decide (0 for those who decide nothing)."""

    session: WorkSession
    key: str
    label: str
    waiting: int


def session_rows(*, user: User) -> list[SessionRow]:
    """The user's sessions, newest activity first, each as its state card would stand and count
    what waits (``waiting_now``), read from the database: the same few queries for any number of
    sessions, and no session's log replayed."""
    sessions = list(sessions_for_user(user=user))
    ids = [session.pk for session in sessions]
    roles = dict(user.chap_memberships.values_list("session_id", "role"))
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
        waiting = gated[session.pk] + len(missing.get(session.pk, ()))
        finished = bool(tasks["tasks"]) and not tasks["unfinished"]
        key, label = _standing(
            session,
            working=bool(tasks["working"]),
            waiting=bool(waiting),
            finished=finished,
            failed=bool(tasks["failed"]),
        )
        rows.append(SessionRow(session, key, label, waiting if may_decide(roles.get(session.pk)) else 0))
    return rows


def decision_map(*, session: WorkSession, expanded: bool = False) -> dict[str, Any]:
    """The decision map of the session now (see ``draw_map``)."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return draw_map(entry.graph, entry.layout, expanded=expanded)


def decision_map_update(*, session: WorkSession, message_id: str) -> dict[str, Any]:
    """What one new message changes on the map (``map_update``): never the whole map."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return map_update(entry.graph, entry.layout, message_id)


def map_node_details(*, session: WorkSession, index: int) -> dict[str, Any] | None:
    """One node of the map as it stands now (``node_details``); None when there is no such node."""
    entry = graph_cache.entry(session)
    with entry.lock:
        entry.layout.update(entry.graph)
        return node_details(entry.graph, entry.layout, index)


def map_node_details_at(*, session: WorkSession, seq: int, index: int) -> dict[str, Any] | None:
    """One node of the map as it stood after message ``seq``: its status and history then."""
    with replay_cache.at(session, seq) as context:
        layout = MapLayout()
        layout.update(context)
        return node_details(context, layout, index)


def decision_map_at(*, session: WorkSession, seq: int) -> dict[str, Any]:
    """The decision map as it stood after message ``seq``, everything shown. Nodes keep the places
    (and numbers) they have on today's map, since layout only ever appends."""
    if seq == session.head_seq:
        return {**decision_map(session=session, expanded=True), "seq": seq}
    with replay_cache.at(session, seq) as context:
        return {**draw_map(context, MapLayout(), expanded=True), "seq": seq}


def thread(*, session: WorkSession, since_seq: int = 0) -> list[dict[str, Any]]:
    """The session's messages up to the head recorded on ``session`` (the page's head, after which its
    socket delivers) as the thread shows them, each collaborative_response with its heat."""
    entry = graph_cache.entry(session)
    messages = session_messages(session=session, since_seq=since_seq, upto=session.head_seq)
    with entry.lock:
        entries = [thread_entry(seq, envelope, entry.graph.graph) for seq, envelope in messages]
    return [shown for shown in entries if shown is not None]


def thread_message(*, session: WorkSession, seq: int, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """One new message as the thread shows it (the live fragment's ``thread_entry``)."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return thread_entry(seq, envelope, entry.graph.graph)


def thread_message_by_id(*, session: WorkSession, message_id: str) -> dict[str, Any] | None:
    """An earlier message as the thread shows it now (an answer closed one of its questions)."""
    row = session.messages.filter(message_id=message_id).values_list("seq", "envelope").first()
    return thread_message(session=session, seq=row[0], envelope=row[1]) if row else None


def earlier_standing(*, session: WorkSession, message_id: str) -> list[dict[str, Any]]:
    """The messages whose standing a new report changed (the version it replaced, the answer it
    displaced, the correction it declined, the analysis it writes up), as the thread shows them now."""
    entry = graph_cache.entry(session)
    with entry.lock:
        node = entry.graph.graph.nodes.get(message_id) or {}
        changed = sorted(
            str(node[key]) for key in ("supersedes", "was_current", "declines", "written_from") if node.get(key)
        )
    return [shown for earlier in changed if (shown := thread_message_by_id(session=session, message_id=earlier))]
