"""Reads of sessions, always scoped to what the caller may see."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from django.db.models import Max, Q, QuerySet
from django.utils.dateparse import parse_datetime

from sessions.access import ROLE_RANK
from sessions.chap import labels
from sessions.chap.context import DEFAULT_BUDGET, build_agent_context
from sessions.chap.decisions import decision
from sessions.chap.deliverable import Delivered, final_deliverable
from sessions.chap.graph import CURRENT_ANSWER
from sessions.chap.history import difference, statuses
from sessions.chap.layout import MapLayout, draw_map, heat, map_update, node_details
from sessions.chap.metrics import process_metrics
from sessions.chap.traits import THREAD_HIDDEN, TIMELINE_HIDDEN, TIMELINE_LANDMARKS, TRAITS
from sessions.graphs import graph_cache, replay_cache
from sessions.models import GroupShare, Membership, Message, WorkSession

if TYPE_CHECKING:
    import networkx as nx
    from django.contrib.auth.models import User
    from networkx.classes.reportviews import NodeView


def sessions_for_user(*, user: User) -> QuerySet[WorkSession]:
    return WorkSession.objects.filter(memberships__user=user).order_by("-last_activity_at")


def sessions_visible_to(*, user: User) -> QuerySet[WorkSession]:
    """The user's sessions and those shared with a group the user is in (``access.effective_role``)."""
    shared = GroupShare.objects.filter(group__user=user).values("session")
    return WorkSession.objects.filter(Q(memberships__user=user) | Q(pk__in=shared)).distinct()


def session_messages(
    *, session: WorkSession, since_seq: int = 0, upto: int | None = None, limit: int | None = None
) -> list[tuple[int, dict[str, Any]]]:
    rows = session.messages.filter(seq__gt=since_seq).order_by("seq").values_list("seq", "envelope")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows[:limit] if limit else rows)


def agent_context(
    *, session: WorkSession, task_message_id: str | None = None, budget: int = DEFAULT_BUDGET
) -> dict[str, Any]:
    entry = graph_cache.entry(session)
    messages = session_messages(session=session)
    with entry.lock:
        return build_agent_context(entry.graph, messages, task_message_id=task_message_id, budget=budget)


def metrics(*, session: WorkSession, messages: list[tuple[int, dict[str, Any]]] | None = None) -> dict[str, Any]:
    """Process metrics (``process_metrics``); ``messages`` is the whole log when the caller has it."""
    entry = graph_cache.entry(session)
    messages = session_messages(session=session) if messages is None else messages
    with entry.lock:
        return process_metrics(entry.graph, messages)


EXPORT_FORMAT = "chap-session-export/1"


def session_export(*, session: WorkSession) -> dict[str, Any]:
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


def _answers(graph: nx.DiGraph[str], node: str) -> list[str]:
    """What the answers to a question (or clarification) said, oldest first."""
    said = []
    for answer, _, data in graph.in_edges(node, data=True):
        if data["type"] == "answers":
            payload = graph.nodes[answer].get("answer") or {}
            option = graph.nodes.get(f"{graph.nodes[answer].get('asked', '')}#option:{payload.get('option_id')}", {})
            said.append((graph.nodes[answer]["seq"], payload.get("free_answer") or option.get("text", "")))
    return [text for _, text in sorted(said) if text]


def _answer_shown(payload: dict[str, Any], nodes: NodeView[str]) -> dict[str, Any]:
    """A clarification answer as a person reads it: the question it answers, and what it said."""
    asked = payload["clarification_message_id"]
    if payload.get("question_index") is not None:
        question = nodes.get(f"{asked}#question:{payload['question_index']}", {}).get("text", "")
    else:
        question = nodes.get(asked, {}).get("label", "")
    option = nodes.get(f"{asked}#option:{payload.get('option_id')}", {}).get("text", "")
    return {"question": question, "answer": payload.get("free_answer") or option}


# What the thread shows closed once a person decided it, with who decided and when.
DECIDED_IN_THREAD = frozenset({"clarification", "agent_capability_declaration"})


def thread_message_by_id(*, session: WorkSession, message_id: str) -> dict[str, Any] | None:
    """An earlier message as the thread shows it now (an answer closed one of its questions)."""
    row = session.messages.filter(message_id=message_id).values_list("seq", "envelope").first()
    return thread_message(session=session, seq=row[0], envelope=row[1]) if row else None


def _milestone_mark(envelope: dict[str, Any]) -> bool:
    """A checkpoint the workbench marked at a milestone: a point for History, not a turn in the thread."""
    return envelope["payload_type"] == "checkpoint" and str(envelope["sender"]["type"]) == "system"


def thread_entry(seq: int, envelope: dict[str, Any], graph: nx.DiGraph[str]) -> dict[str, Any] | None:
    """One message as the thread shows it (None for those it leaves to the status bar), with the
    ``partial`` that renders its payload: ``kind`` says what it is for and ``about`` names the message
    it answers or gives feedback on, in words; each question of a report says whether it is still
    open, and what its answers said. ``graph`` is the context graph's networkx graph."""
    if envelope["payload_type"] in THREAD_HIDDEN or _milestone_mark(envelope):
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
            questions.append(
                {"index": index, "text": text, "open": open_now, "answers": answers, "decision": decision(graph, node)}
            )
        asked = {q.get("index"): q for q in (payload.get("provenance") or {}).get("questions") or []}
        questions = [{**q, "details": (asked.get(q["index"]) or {}).get("details", "")} for q in questions]
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
        "decision": decision(graph, message_id) if envelope["payload_type"] in DECIDED_IN_THREAD else None,
        "when": parse_datetime(envelope["timestamp"].replace("Z", "+00:00")),
        **_standing(graph, message_id),
    }


def _standing(graph: nx.DiGraph[str], message_id: str) -> dict[str, Any]:
    """Where a report stands: the session's current answer, replaced by a newer version (and which,
    by its place in the thread), or declined feedback; nothing for the rest."""
    node = graph.nodes.get(message_id) or {}
    newer = node.get("superseded_by")
    return {
        "current": graph.graph.get(CURRENT_ANSWER) == message_id,
        "replaced_by": graph.nodes[newer]["seq"] if newer else None,
        "declined_by": labels.sender_label(node["declined_by"]) if node.get("declined_by") else "",
    }


def earlier_standing(*, session: WorkSession, message_id: str) -> list[dict[str, Any]]:
    """The messages whose standing a new report changed (the version it replaced, the answer it
    displaced, the correction it declined), as the thread shows them now."""
    entry = graph_cache.entry(session)
    with entry.lock:
        node = entry.graph.graph.nodes.get(message_id) or {}
        changed = sorted(str(node[key]) for key in ("supersedes", "was_current", "declines") if node.get(key))
    return [shown for earlier in changed if (shown := thread_message_by_id(session=session, message_id=earlier))]


def agent_statuses(*, session: WorkSession) -> list[dict[str, Any]]:
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


def final_report(*, session: WorkSession, messages: list[tuple[int, dict[str, Any]]] | None = None) -> Delivered | None:
    """The session's final deliverable (``final_deliverable``) with its status and review, or None."""
    messages = session_messages(session=session) if messages is None else messages
    entry = graph_cache.entry(session)
    with entry.lock:
        return final_deliverable(entry.graph, messages)


def checkpoints(*, session: WorkSession) -> list[dict[str, Any]]:
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


def timeline(*, session: WorkSession, latest: int | None = None) -> tuple[list[dict[str, Any]], int]:
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


def decision_map_at(*, session: WorkSession, seq: int) -> dict[str, Any]:
    """The decision map as it stood after message ``seq``, everything shown. Nodes keep the places
    (and numbers) they have on today's map, since layout only ever appends."""
    if seq == session.head_seq:
        return {**decision_map(session=session, expanded=True), "seq": seq}
    with replay_cache.at(session, seq) as context:
        return {**draw_map(context, MapLayout(), expanded=True), "seq": seq}


def history_difference(*, session: WorkSession, from_seq: int, to_seq: int) -> dict[str, Any]:
    """What was added, decided, overturned and put in review between two points of the log."""
    with replay_cache.at(session, from_seq) as context:
        before = statuses(context)
    with replay_cache.at(session, to_seq) as context:  # goes on from ``from_seq``: one pass over the log
        return {**difference(before, context), "from_seq": from_seq, "to_seq": to_seq}


MAX_REVIEWED = 200


@dataclass(frozen=True)
class ReviewRow:
    """A session as the team page lists it: the caller's own role in it (the higher of their
    membership and the shares with their groups), those shares, and the task template its plan
    followed ("" when none)."""

    session: WorkSession
    role: str
    shared_with_me: tuple[GroupShare, ...]
    template: str


def sessions_for_review(
    *,
    user: User,
    member: str = "",
    agent: str = "",
    team: str = "",
    template: str = "",
    state: str = "",
    since: date | None = None,
    until: date | None = None,
) -> list[ReviewRow]:
    """The sessions the caller may see (their own, and those shared with their groups) for the team
    page, filtered; each with its members, agents and the groups it is shared with prefetched."""
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
    rows = []
    for session in sessions:
        shared = tuple(share for share in session.group_shares.all() if share.group_id in groups)
        mine = [m.role for m in session.memberships.all() if m.user_id == user.pk]
        role = max([*mine, *(share.role for share in shared)], key=lambda role: ROLE_RANK.get(role, -1))
        rows.append(ReviewRow(session, role, shared, templates.get(session.pk, "")))
    return rows
