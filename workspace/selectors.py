"""What the workspace's screens read: the decision map drawn and the thread shown from the session's
context graph, and the scheduling board, which spans both apps (where a session stands and what
waits for whom: ``workspace.standing``). Dicts and frozen dataclasses for the templates, never
attributes set on model instances; the domain reads stay in sessions and agents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.failures import reason_of
from agents.gates import Gate, waiting_for_people
from agents.models import OPEN_STATES, Approval, Task, TaskState
from agents.scheduling.plans import task_artefact
from sessions.chap.layout import MapLayout
from sessions.graphs import graph_cache, replay_cache
from sessions.models import WorkSession
from sessions.selectors import agent_statuses, session_messages
from workspace.map_drawing import draw_map, map_update
from workspace.node_details import node_details
from workspace.thread import thread_entry
from workspace.traits import THREAD_HIDDEN

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
    messages = session_messages(
        session=session, since_seq=since_seq, upto=session.head_seq, leaving_out=THREAD_HIDDEN, milestone_marks=False
    )
    return _shown(session, messages)


THREAD_PAGE = 40  # the messages a page of the thread shows: the newest open the page, earlier ones on demand


def thread_page(*, session: WorkSession, before: int | None = None) -> tuple[list[dict[str, Any]], int | None]:
    """The newest ``THREAD_PAGE`` messages of the thread before message ``before`` (None: up to the
    head recorded on ``session``), as ``thread`` shows them, and the ``before`` of the page of
    earlier messages (None when there are none): a long session's page renders what is now, not
    its whole history (10,000 messages made a page of 23 MB)."""
    upto = session.head_seq if before is None else min(before - 1, session.head_seq)
    messages = session_messages(
        session=session, upto=upto, latest=THREAD_PAGE + 1, leaving_out=THREAD_HIDDEN, milestone_marks=False
    )
    earlier = messages[1][0] if len(messages) > THREAD_PAGE else None
    return _shown(session, messages[-THREAD_PAGE:]), earlier


def _shown(session: WorkSession, messages: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    entry = graph_cache.entry(session)
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
