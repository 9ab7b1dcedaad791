"""What the workspace's panels read that spans both apps: the scheduling board, what waits for a
person and the state card. Dicts for the templates; the domain reads stay in sessions and agents."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from agents.gates import waiting_for_people
from agents.models import OPEN_STATES, Approval, Task, TaskState
from agents.scheduling import roles_uncovered, task_artefact
from sessions.graphs import graph_cache
from sessions.models import SessionState, WorkSession
from sessions.selectors import agent_statuses

ANY_ROLE = "any role"


def schedule_board(*, session: WorkSession) -> dict[str, Any]:
    """One lane per agent of the session (its current task, its queue by priority, its waiting
    approvals) and the unassigned tasks by the role they need; each task with its hand-offs."""
    statuses = {a["name"]: a for a in agent_statuses(session=session)}
    tasks = list(
        Task.objects.filter(session=session)
        .select_related("agent")
        .prefetch_related("depends_on")
        .order_by("-priority", "created_at")
    )
    waiting = Approval.objects.filter(session=session, status="pending").select_related("agent")
    lanes = []
    for name, status in statuses.items():
        mine = [t for t in tasks if t.agent and t.agent.name == name]
        lanes.append(
            {
                "agent": name,
                "status": status,
                "roles": status["roles"],
                "current": [t for t in mine if t.state == TaskState.RUNNING],
                "queue": [t for t in mine if t.state in OPEN_STATES and t.state != TaskState.RUNNING],
                "finished": [t for t in mine if t.state not in OPEN_STATES],
                "approvals": [a for a in waiting if a.agent and a.agent.name == name],
                "paused": status["paused"],
            }
        )
    unassigned: dict[str, list[Task]] = {}
    for task in tasks:
        if task.agent is None and task.state in OPEN_STATES:
            unassigned.setdefault(task.required_role or ANY_ROLE, []).append(task)
    entry = graph_cache.entry(session)
    handoffs = []
    with entry.lock:
        for task in tasks:
            for before in task.depends_on.all():  # the card shows it too: "← from #N: artefact"
                # An attribute the card reads off the row (see sessions.selectors.sessions_for_review).
                artefact = task_artefact(entry.graph, before)
                before.artefact = artefact  # type: ignore[attr-defined]
                handoffs.append({"from": before, "to": task, "artefact": artefact})
    return {"lanes": lanes, "unassigned": unassigned, "handoffs": handoffs, "agents": sorted(statuses)}


def waiting_now(session: WorkSession) -> list[dict[str, Any]]:
    """What waits for a person, as the state card lists it: each item of ``waiting_for_people``
    (agents.gates) with a link to where it is decided, and the roles a step needs that no agent here
    takes (someone has to invite one). Each item has ``what`` and ``href``."""
    schedule = reverse("sessions:schedule", args=[session.pk])
    items = []
    for gate in waiting_for_people(session):
        href = f"{schedule}#task-{gate.task_id}" if gate.kind == "step" else "#approvals"
        items.append({"what": gate.label, "href": href, "kind": gate.kind})
    unassigned = Task.objects.filter(session=session, state__in=OPEN_STATES, agent__isnull=True)
    roles = set(unassigned.values_list("required_role", flat=True))
    for role, candidates in roles_uncovered(session_id=session.pk, roles=roles).items():
        offer = f" (you can invite {', '.join(candidates)})" if candidates else ""
        what = f"A step needs an agent that does {role}, and none in this session does{offer}"
        items.append({"what": what, "href": f"{schedule}#unassigned", "kind": "agent"})
    return items


def work_state(session: WorkSession) -> dict[str, Any]:
    """Where the session stands, as its state card says it: ``key`` (working, waiting, review,
    done…), ``label``, a ``detail`` line, and what waits for a person (``waiting``)."""
    waiting = waiting_now(session)
    questions = sum(item["kind"] == "question" for item in waiting)
    base = {"waiting": waiting, "open_questions": questions}
    if session.state in (SessionState.DONE, SessionState.ARCHIVED):
        return {**base, "key": session.state, "label": session.get_state_display(), "detail": ""}
    tasks = Task.objects.filter(session=session)
    running = list(tasks.filter(state=TaskState.RUNNING).select_related("agent")[:3])
    ready = tasks.filter(state=TaskState.QUEUED, paused=False, agent__isnull=False).exclude(
        depends_on__state__in=[s for s in TaskState.values if s != TaskState.DONE]
    )
    if running or ready.exists():
        doing = "; ".join(f"{t.agent.name}: {t.title}" for t in running if t.agent) or "agents are about to start"
        return {**base, "key": "working", "label": "Working", "detail": doing}
    if waiting:
        return {**base, "key": "waiting", "label": "Waiting for you", "detail": ""}
    if tasks.exists() and not tasks.exclude(state__in=[TaskState.DONE, TaskState.CANCELLED]).exists():
        detail = "every task is done: read the report, then mark the session done"
        return {**base, "key": "review", "label": "Ready for your review", "detail": detail}
    return {**base, "key": session.state, "label": session.get_state_display(), "detail": ""}
