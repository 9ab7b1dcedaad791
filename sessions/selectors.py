"""Reads of sessions, always scoped to what the caller may see."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max, Q, QuerySet
from django.urls import reverse
from django.utils.dateparse import parse_datetime

from sessions.access import ROLE_RANK
from sessions.chap import labels
from sessions.chap.context import DEFAULT_BUDGET, build_agent_context
from sessions.chap.deliverable import final_deliverable
from sessions.chap.history import difference, statuses
from sessions.chap.layout import MapLayout, draw_map, heat, map_update, node_details
from sessions.chap.metrics import process_metrics
from sessions.chap.traits import THREAD_HIDDEN, TIMELINE_HIDDEN, TIMELINE_LANDMARKS, TRAITS
from sessions.graphs import graph_cache, replay_cache
from sessions.models import GroupShare, Membership, Message, SessionState, WorkSession


def sessions_for_user(*, user: AbstractBaseUser) -> QuerySet[WorkSession]:
    return WorkSession.objects.filter(memberships__user=user).order_by("-last_activity_at")


def sessions_visible_to(*, user: AbstractBaseUser) -> QuerySet[WorkSession]:
    """The user's sessions and those shared with a group the user is in (``access.effective_role``)."""
    shared = GroupShare.objects.filter(group__user=user).values("session")
    return WorkSession.objects.filter(Q(memberships__user=user) | Q(pk__in=shared)).distinct()


def session_messages(*, session: WorkSession, since_seq: int = 0, limit: int | None = None) -> list[tuple[int, dict]]:
    rows = session.messages.filter(seq__gt=since_seq).order_by("seq").values_list("seq", "envelope")
    return list(rows[:limit] if limit else rows)


def agent_context(*, session: WorkSession, task_message_id: str | None = None, budget: int = DEFAULT_BUDGET) -> dict:
    entry = graph_cache.entry(session)
    messages = session_messages(session=session)
    with entry.lock:
        return build_agent_context(entry.graph, messages, task_message_id=task_message_id, budget=budget)


def metrics(*, session: WorkSession, messages: list[tuple[int, dict]] | None = None) -> dict:
    """Process metrics (``process_metrics``); ``messages`` is the whole log when the caller has it."""
    entry = graph_cache.entry(session)
    messages = session_messages(session=session) if messages is None else messages
    with entry.lock:
        return process_metrics(entry.graph, messages)


EXPORT_FORMAT = "chap-session-export/1"


def session_export(*, session: WorkSession) -> dict:
    """Everything needed to rebuild the session elsewhere: metadata, members, messages with checksums."""
    rows = session.messages.order_by("seq").values_list("seq", "checksum", "envelope")
    memberships = session.memberships.select_related("user")
    return {
        "format": EXPORT_FORMAT,
        "session": {
            "id": str(session.pk),
            "title": session.title,
            "state": session.state,
            "created_at": session.created_at.isoformat(),
            "head_seq": session.head_seq,
            "head_checksum": session.head_checksum,
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in memberships],
        "messages": [{"seq": seq, "checksum": checksum, "envelope": envelope} for seq, checksum, envelope in rows],
    }


def decision_map(*, session: WorkSession, expanded: bool = False) -> dict:
    """The decision map of the session now (see ``draw_map``)."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return draw_map(entry.graph, entry.layout, expanded=expanded)


def decision_map_update(*, session: WorkSession, message_id: str) -> dict:
    """What one new message changes on the map (``map_update``): never the whole map."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return map_update(entry.graph, entry.layout, message_id)


def map_node_details(*, session: WorkSession, index: int) -> dict | None:
    """One node of the map as it stands now (``node_details``); None when there is no such node."""
    entry = graph_cache.entry(session)
    with entry.lock:
        entry.layout.update(entry.graph)
        return node_details(entry.graph, entry.layout, index)


def map_node_details_at(*, session: WorkSession, seq: int, index: int) -> dict | None:
    """One node of the map as it stood after message ``seq``: its status and history then."""
    with replay_cache.at(session, seq) as context:
        layout = MapLayout()
        layout.update(context)
        return node_details(context, layout, index)


def thread(*, session: WorkSession, since_seq: int = 0) -> list[dict]:
    """The session's messages as the thread shows them, each collaborative_response with its heat."""
    entry = graph_cache.entry(session)
    messages = session_messages(session=session, since_seq=since_seq)
    with entry.lock:
        entries = [thread_entry(seq, envelope, entry.graph.graph) for seq, envelope in messages]
    return [shown for shown in entries if shown is not None]


def thread_message(*, session: WorkSession, seq: int, envelope: dict) -> dict | None:
    """One new message as the thread shows it (the live fragment's ``thread_entry``)."""
    entry = graph_cache.entry(session)
    with entry.lock:
        return thread_entry(seq, envelope, entry.graph.graph)


def _answers(graph, node: str) -> list[str]:
    """What the answers to a question (or clarification) said, oldest first."""
    said = []
    for answer, _, data in graph.in_edges(node, data=True):
        if data["type"] == "answers":
            payload = graph.nodes[answer].get("answer") or {}
            option = graph.nodes.get(f"{graph.nodes[answer].get('asked', '')}#option:{payload.get('option_id')}", {})
            said.append((graph.nodes[answer]["seq"], payload.get("free_answer") or option.get("text", "")))
    return [text for _, text in sorted(said) if text]


def _answer_shown(payload: dict, nodes) -> dict:
    """A clarification answer as a person reads it: the question it answers, and what it said."""
    asked = payload["clarification_message_id"]
    if payload.get("question_index") is not None:
        question = nodes.get(f"{asked}#question:{payload['question_index']}", {}).get("text", "")
    else:
        question = nodes.get(asked, {}).get("label", "")
    option = nodes.get(f"{asked}#option:{payload.get('option_id')}", {}).get("text", "")
    return {"question": question, "answer": payload.get("free_answer") or option}


def thread_message_by_id(*, session: WorkSession, message_id: str) -> dict | None:
    """An earlier message as the thread shows it now (an answer closed one of its questions)."""
    row = session.messages.filter(message_id=message_id).values_list("seq", "envelope").first()
    return thread_message(session=session, seq=row[0], envelope=row[1]) if row else None


def thread_entry(seq: int, envelope: dict, graph) -> dict | None:
    """One message as the thread shows it (None for those it leaves to the status bar), with the
    ``partial`` that renders its payload: ``kind`` says what it is for and ``about`` names the message
    it answers or gives feedback on, in words; each question of a report says whether it is still
    open, and what its answers said. ``graph`` is the context graph's networkx graph."""
    if envelope["payload_type"] in THREAD_HIDDEN:
        return None
    nodes, message_id = graph.nodes, envelope["message_id"]
    payload = envelope["payload"]
    if envelope["payload_type"] == "collaborative_response":
        sections = [{**s, "heat": heat(s.get("confidence"))} for s in payload["content"].get("sections") or []]
        content = {**payload["content"], "sections": sections}
        questions = []
        for index, text in enumerate(payload.get("open_questions_for_human") or []):
            node = f"{message_id}#question:{index}"
            answers = _answers(graph, node) if node in graph else []
            open_now = nodes[node]["status"] == "open" if node in graph else True
            questions.append({"index": index, "text": text, "open": open_now, "answers": answers})
        sources = [
            {**m, "shown": labels.message_label(nodes.get(m["citation"]))}
            if m.get("type") == "session_message" and m.get("citation") in nodes
            else m
            for m in payload.get("supporting_materials") or []
        ]
        payload = {**payload, "heat": heat(payload.get("confidence_score")), "content": content}
        payload["supporting_materials"] = sources
    else:
        questions = []
    summary = payload.get("activity") or payload.get("label") or payload.get("text") or payload.get("operation") or ""
    kind = labels.payload_label(envelope["payload_type"])
    if envelope["payload_type"] == "human_feedback":
        kind = labels.feedback_label(payload["feedback_type"])
    about = payload.get("target_message_id") or payload.get("clarification_message_id")
    return {
        **envelope,
        "seq": seq,
        "payload": payload,
        "partial": TRAITS[envelope["payload_type"]].template,
        "summary": summary,
        "kind": kind,
        "about": labels.message_label(nodes.get(about)) if about else "",
        "questions": questions,
        "steps": [{**step, "uncovered": None} for step in payload.get("proposed_plan") or []],
        "template_name": (payload.get("template") or "").replace("-", " "),
        **(_answer_shown(payload, nodes) if envelope["payload_type"] == "clarification_answer" else {}),
        "answered": _answers(graph, message_id) if envelope["payload_type"] == "clarification" else [],
        "when": parse_datetime(envelope["timestamp"].replace("Z", "+00:00")),
    }


def agent_statuses(*, session: WorkSession) -> list[dict]:
    """Each agent of the session with what its latest agent_status said (or that it said nothing yet)."""
    statuses = Message.objects.filter(session=session, payload_type="agent_status")
    # The newest status of each sender, found in the index: the cost does not grow with the log.
    newest = statuses.values("sender_id").annotate(last=Max("seq")).values("last")
    latest = {
        sender: envelope["payload"]
        for sender, envelope in statuses.filter(seq__in=newest).values_list("sender_id", "envelope")
    }
    board = []
    rows = session.participants.values_list("agent__name", "agent__kind", "agent__enabled", "agent__roles", "paused")
    for name, kind, enabled, roles, paused in rows:
        status = latest.get(name) or {}
        board.append(
            {
                "name": name,
                "kind": kind,
                "roles": roles or [],
                "paused": paused,
                "online": enabled and status.get("state") != "offline",
                "state": status.get("state", "idle"),
                "activity": status.get("activity", "no activity yet"),
                "progress": status.get("progress"),
                "resources": status.get("resources_used") or {},
            }
        )
    return sorted(board, key=lambda agent: agent["name"])


def task_artefact(context, task) -> str:
    """What a task hands on: its plan step's stated output (or its title), and the message that
    carries it once the task is done."""
    step = context.graph.nodes.get(f"{task.source_message_id}#step:{task.plan_step}", {})
    named = step.get("output") or f"the output of “{task.title}”"
    return f"{named}: message {task.result_message_id}" if task.result_message_id else f"{named}, when ready"


ANY_ROLE = "any role"


def schedule_board(*, session: WorkSession) -> dict:
    """One lane per agent of the session (its current task, its queue by priority, its waiting
    approvals) and the unassigned tasks by the role they need; each task with its hand-offs."""
    from agents.models import OPEN_STATES, Approval, Task, TaskState

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
    unassigned: dict[str, list] = {}
    for task in tasks:
        if task.agent is None and task.state in OPEN_STATES:
            unassigned.setdefault(task.required_role or ANY_ROLE, []).append(task)
    entry = graph_cache.entry(session)
    handoffs = []
    with entry.lock:
        for task in tasks:
            for before in task.depends_on.all():  # the card shows it too: "← from #N: artefact"
                before.artefact = task_artefact(entry.graph, before)
                handoffs.append({"from": before, "to": task, "artefact": before.artefact})
    return {"lanes": lanes, "unassigned": unassigned, "handoffs": handoffs, "agents": sorted(statuses)}


def final_report(*, session: WorkSession, messages: list[tuple[int, dict]] | None = None) -> tuple[dict, str] | None:
    """The session's final deliverable (``final_deliverable``) and its status on the map, or None."""
    messages = session_messages(session=session) if messages is None else messages
    entry = graph_cache.entry(session)
    with entry.lock:
        chosen = final_deliverable(entry.graph, messages)
        return (chosen, entry.graph.graph.nodes[chosen["message_id"]]["status"]) if chosen else None


def checkpoints(*, session: WorkSession) -> list[dict]:
    rows = session.messages.filter(payload_type="checkpoint").order_by("seq").values("seq", "message_id", "envelope")
    return [
        {
            "seq": row["seq"],
            "message_id": row["message_id"],
            "label": row["envelope"]["payload"]["label"],
            "at_seq": row["envelope"]["payload"].get("seq", row["seq"] - 1),
            "summary": row["envelope"]["payload"].get("summary") or {},
        }
        for row in rows
    ]


def timeline(*, session: WorkSession, latest: int | None = None) -> tuple[list[dict], int]:
    """Every message but the status chatter, oldest first, with the label the map gives it; with
    ``latest``, only that many of the newest, and before them the proposals and checkpoints.
    Returns the entries and how many were left out."""
    entry = graph_cache.entry(session)
    rows = list(
        session.messages.exclude(payload_type__in=TIMELINE_HIDDEN)
        .order_by("seq")
        .values_list("seq", "message_id", "payload_type", "sender_type", "sender_id", "created_at")
    )
    if latest is not None and len(rows) > latest:
        landmarks = [row for row in rows[:-latest] if row[2] in TIMELINE_LANDMARKS]
        left_out = len(rows) - latest - len(landmarks)
        rows = landmarks + rows[-latest:]
    else:
        left_out = 0
    with entry.lock:
        nodes = entry.graph.graph.nodes
        entries = [
            {
                "seq": seq,
                "message_id": message_id,
                "kind": payload_type,
                "sender": f"{sender_type}:{sender_id}",
                "at": created_at,
                "label": nodes[message_id].get("label", "") if message_id in nodes else "",
                "checkpoint": payload_type == "checkpoint",
            }
            for seq, message_id, payload_type, sender_type, sender_id, created_at in rows
        ]
    return entries, left_out


def decision_map_at(*, session: WorkSession, seq: int) -> dict:
    """The decision map as it stood after message ``seq``, everything shown. Nodes keep the places
    (and numbers) they have on today's map, since layout only ever appends."""
    if seq == session.head_seq:
        return {**decision_map(session=session, expanded=True), "seq": seq}
    with replay_cache.at(session, seq) as context:
        return {**draw_map(context, MapLayout(), expanded=True), "seq": seq}


def history_difference(*, session: WorkSession, from_seq: int, to_seq: int) -> dict:
    """What was added, decided, overturned and put in review between two points of the log."""
    with replay_cache.at(session, from_seq) as context:
        before = statuses(context)
    with replay_cache.at(session, to_seq) as context:  # goes on from ``from_seq``: one pass over the log
        return {**difference(before, context), "from_seq": from_seq, "to_seq": to_seq}


MAX_REVIEWED = 200


def sessions_for_review(
    *, user: AbstractBaseUser, member="", agent="", team="", template="", state="", since=None, until=None
) -> list[WorkSession]:
    """The sessions the caller may see (their own, and those shared with their groups) for the team
    page, filtered; each with its members, agents, the groups it is shared with, the caller's own
    role (``role``) and the task template its plan followed (``template``)."""
    found = sessions_visible_to(user=user)
    if member:
        found = found.filter(pk__in=Membership.objects.filter(user__username=member).values("session"))
    if agent:
        found = found.filter(participants__agent__name=agent)
    if team:
        found = found.filter(pk__in=GroupShare.objects.filter(group__name=team, group__user=user).values("session"))
    plans = Message.objects.filter(payload_type="agent_capability_declaration", envelope__payload__has_key="template")
    if template:
        found = found.filter(pk__in=plans.filter(envelope__payload__template=template).values("session"))
    if state:
        found = found.filter(state=state)
    if since:
        found = found.filter(last_activity_at__date__gte=since)
    if until:
        found = found.filter(created_at__date__lte=until)
    sessions = list(
        found.distinct()
        .prefetch_related("memberships__user", "participants__agent", "group_shares__group")
        .order_by("-last_activity_at")[:MAX_REVIEWED]
    )
    templates = dict(
        plans.filter(session__in=sessions).order_by("seq").values_list("session_id", "envelope__payload__template")
    )
    groups = set(user.groups.values_list("pk", flat=True))
    for session in sessions:
        session.template = templates.get(session.pk, "")
        session.shared_with_me = [share for share in session.group_shares.all() if share.group_id in groups]
        mine = [m.role for m in session.memberships.all() if m.user_id == user.pk]
        session.role = max([*mine, *(s.role for s in session.shared_with_me)], key=ROLE_RANK.get)
    return sessions


def waiting_now(session: WorkSession) -> list[dict]:
    """What waits for a person, as the state card lists it: each item of ``waiting_for_people``
    (agents.gates) with a link to where it is decided, and the roles a step needs that no agent here
    takes (someone has to invite one). Each item has ``what`` and ``href``."""
    from agents.gates import waiting_for_people  # agents builds on sessions
    from agents.models import OPEN_STATES, Task
    from agents.scheduling import roles_uncovered

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


def work_state(session: WorkSession) -> dict:
    """Where the session stands, as its state card says it: ``key`` (working, waiting, review,
    done…), ``label``, a ``detail`` line, and what waits for a person (``waiting``)."""
    from agents.models import Task, TaskState

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
