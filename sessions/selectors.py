"""Reads of sessions, always scoped to what the caller may see."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from django.db.models import Max, Q, QuerySet

from protocol.errors import not_found
from sessions.access import ROLE_RANK
from sessions.chap.context import DEFAULT_BUDGET, build_agent_context
from sessions.chap.deliverable import Delivered, final_deliverable
from sessions.chap.graph import CURRENT_ANSWER
from sessions.chap.history import difference, statuses
from sessions.chap.metrics import process_metrics
from sessions.chap.traits import TIMELINE_HIDDEN, TIMELINE_LANDMARKS
from sessions.graphs import graph_cache, replay_cache
from sessions.models import GroupShare, Membership, Message, WorkSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def sessions_for_user(*, user: User) -> QuerySet[WorkSession]:
    return WorkSession.objects.filter(memberships__user=user).order_by("-last_activity_at")


def sessions_visible_to(*, user: User) -> QuerySet[WorkSession]:
    """The user's sessions and those shared with a group the user is in (``access.effective_role``)."""
    shared = GroupShare.objects.filter(group__user=user).values("session")
    return WorkSession.objects.filter(Q(memberships__user=user) | Q(pk__in=shared)).distinct()


def session_messages(
    *,
    session: WorkSession,
    since_seq: int = 0,
    upto: int | None = None,
    limit: int | None = None,
    latest: int | None = None,
    leaving_out: Collection[str] = (),
    milestone_marks: bool = True,
) -> list[tuple[int, dict[str, Any]]]:
    """The log's messages after ``since_seq`` (up to ``upto``, at most ``limit``, or only the ``latest``
    of them) as (seq, envelope), oldest first, without those of the payload types ``leaving_out`` nor,
    unless ``milestone_marks``, the checkpoints the workbench marked at milestones (points for History).
    What is left out is picked by the row's columns: its envelope is never read."""
    rows = session.messages.filter(seq__gt=since_seq).order_by("seq").values_list("seq", "envelope")
    if leaving_out:
        rows = rows.exclude(payload_type__in=leaving_out)
    if not milestone_marks:
        rows = rows.exclude(payload_type="checkpoint", sender_type="system")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    if latest is not None:
        return sorted(rows.order_by("-seq")[:latest])
    return list(rows[:limit] if limit else rows)


def agent_context(
    *, session: WorkSession, task_message_id: str | None = None, budget: int = DEFAULT_BUDGET
) -> dict[str, Any]:
    entry = graph_cache.entry(session)
    messages = session_messages(session=session)
    with entry.lock:
        return build_agent_context(entry.graph, messages, task_message_id=task_message_id, budget=budget)


def feedback_on(*, session_id: uuid.UUID, message_id: str) -> list[dict[str, Any]]:
    """The feedback people and agents gave on one message, oldest first; RESOURCE_NOT_FOUND when the
    session holds no such message."""
    messages = Message.objects.filter(session_id=session_id)
    if not messages.filter(message_id=message_id).exists():
        raise not_found("MESSAGE", message_id, f"no message {message_id!r} in this session")
    given = messages.filter(payload_type="human_feedback", envelope__payload__target_message_id=message_id)
    return [
        {"seq": seq, "message_id": envelope["message_id"], "sender": envelope["sender"], **envelope["payload"]}
        for seq, envelope in given.order_by("seq").values_list("seq", "envelope")
    ]


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


def history_difference(*, session: WorkSession, from_seq: int, to_seq: int) -> dict[str, Any]:
    """What was added, decided, overturned and put in review between two points of the log, and the
    report that was the session's current answer at each (``answer_from``, ``answer_to``: ids or None)."""
    with replay_cache.at(session, from_seq) as context:
        before, answer_from = statuses(context), context.graph.graph.get(CURRENT_ANSWER)
    with replay_cache.at(session, to_seq) as context:  # goes on from ``from_seq``: one pass over the log
        changed = difference(before, context)
        answer_to = context.graph.graph.get(CURRENT_ANSWER)
    return {**changed, "from_seq": from_seq, "to_seq": to_seq, "answer_from": answer_from, "answer_to": answer_to}


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
