"""The workspace's live fragments, rendered for one recipient: the views and the UI socket share them."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from agents.gates import Gate, may_decide, waiting_for_people
from agents.scheduling.matching import roles_uncovered
from sessions import selectors
from sessions.access import DECIDERS, Caller, SessionId
from sessions.models import MemberRole, ShareRole, WorkSession
from workspace.answer_card import answer_card
from workspace.selectors import (
    ANY_ROLE,
    decision_map_update,
    earlier_standing,
    schedule_board,
    thread,
    thread_message,
    thread_message_by_id,
)
from workspace.standing import work_state
from workspace.traits import REFRESHES_SIDE_PANELS


def map_urls(session_id: SessionId) -> dict[str, str]:
    return {
        "map_url": reverse("workspace:map", args=[session_id]),
        "details_url": reverse("workspace:map-node", args=[session_id]),
    }


def history_urls(session_id: SessionId, seq: int) -> dict[str, str]:
    """The map's URLs on the history page: node details as they were after message ``seq``."""
    return {
        "map_url": reverse("workspace:history-map", args=[session_id]),
        "details_url": reverse("workspace:history-node", args=[session_id, seq]),
    }


def side_panels(session: WorkSession, role: str) -> dict[str, Any]:
    """The agent status bar and what waits for people (``waiting_for_people``), for this viewer."""
    return {**_panels(session, waiting_for_people(session)), "can_decide": may_decide(role)}


def _panels(session: WorkSession, gates: tuple[Gate, ...]) -> dict[str, Any]:
    """The side panels but for what differs by role (whether the viewer may decide)."""
    return {"agents": selectors.agent_statuses(session=session), "gates": gates}


def mark_uncovered_steps(session: WorkSession, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each plan step that needs a role no agent of the session takes gets ``uncovered``: the agents
    a person could invite for it (the thread says the step would wait, and offers them)."""
    roles = {step.get("required_capability", "") for entry in entries for step in entry.get("steps") or []}
    missing = roles_uncovered(session_id=session.pk, roles=roles) if roles - {""} else {}
    for entry in entries:
        for step in entry.get("steps") or []:
            step["uncovered"] = missing.get(step.get("required_capability", ""))
    return entries


def _decided(session: WorkSession, envelope: dict[str, Any]) -> dict[str, Any] | None:
    """The earlier message ``envelope`` decides or marks, as the thread shows it now: the question an
    answer answers, the plan an approval or a rejection decides, or the report whose words feedback
    quotes; None for any other message."""
    payload = envelope["payload"]
    if envelope["payload_type"] == "clarification_answer":
        return thread_message_by_id(session=session, message_id=payload["clarification_message_id"])
    if envelope["payload_type"] == "human_feedback":
        shown = thread_message_by_id(session=session, message_id=payload["target_message_id"])
        quotes = (payload.get("target_part") or {}).get("kind") == "quote"
        return shown if shown and (quotes or shown["payload_type"] == "agent_capability_declaration") else None
    return None


def live_update(
    *, session: WorkSession, seq: int, envelope: dict[str, Any], checksum: str, role: str, caller: Caller | None = None
) -> str:
    """Out-of-band swaps for one new message, for a viewer with ``role`` (``live_context`` rendered)."""
    context = live_context(session=session, seq=seq, envelope=envelope, checksum=checksum, viewer=viewer_of(caller))
    return live_html(context, role)


def viewer_of(caller: Caller | None) -> str | None:
    """Who a live fragment is for, as a session_event's ``by`` names people: ``kind:sender_id``."""
    return None if caller is None else f"{caller.kind}:{caller.sender_id}"


def live_html(context: dict[str, Any], role: str) -> str:
    """The live fragment of ``live_context`` for a viewer with ``role``: all of it that differs by role."""
    return render_to_string(LIVE_UPDATE, {**context, "role": role, "can_decide": may_decide(role)})


LIVE_UPDATE = "workspace/partials/live_update.html"


def live_context(
    *,
    session: WorkSession,
    seq: int,
    envelope: dict[str, Any],
    checksum: str,
    viewer: str | None = None,
    news: bool = True,
) -> dict[str, Any]:
    """What the live fragment of one new message shows, the same for every viewer with the same part
    in it (``viewer``, ``viewer_of`` a caller: whether they did what a session_event reports): its
    thread entry, its map nodes, the statuses it changed, and the version the page now shows (``seq``,
    which a reconnecting socket resumes from, and ``checksum``, which the forms send). A message that
    is not ``news`` (an audit record that changed no gate) shows only as its node's count on the map.
    ``session`` is its row as read just now: the graph and what waits are taken at its head."""
    context: dict[str, Any] = {
        "seq": seq,
        "checksum": checksum,
        "update": decision_map_update(session=session, message_id=envelope["message_id"]),
        "session": session,
        **map_urls(session.pk),
    }
    if not news:
        return context
    shown = thread_message(session=session, seq=seq, envelope=envelope)
    context["message"] = mark_uncovered_steps(session, [shown])[0] if shown else None
    action = envelope["payload"].get("action") if envelope["payload_type"] == "session_event" else None
    moves_state = action is not None or envelope["payload_type"] in REFRESHES_SIDE_PANELS
    gates = waiting_for_people(session, fresh=True) if moves_state else ()
    if moves_state:  # what waits, the tasks or the session's own state may have changed
        context.update(state=work_state(session, gates), answer=answer_card(session))
    if viewer is not None and envelope["payload_type"] in REFRESHES_SIDE_PANELS:
        context.update(_panels(session, gates), refresh_side=True)
    by_this_viewer = bool(viewer) and envelope["payload"].get("by") == viewer
    if action == "member_added" and not by_this_viewer:  # the owner's own page has it from the form's answer
        context.update(members_context(session), refresh_members=True)
    if action == "state_changed":  # marked done, nothing waits; reopened, what waits is back
        context.update(_panels(session, gates), refresh_side=True)
    if action == "agent_invited":  # the plans' steps that waited for its roles no longer do
        if not by_this_viewer:  # the inviter's page shows the invitation where the notice was
            plans = [m for m in thread(session=session) if m["steps"]]
            context["redrawn"] = mark_uncovered_steps(session, plans)
        context.update(_panels(session, gates), refresh_side=True)
    if envelope["payload_type"] == "collaborative_response":  # what it replaced, displaced or declined shows so
        context["redrawn"] = earlier_standing(session=session, message_id=envelope["message_id"])
    decided = _decided(session, envelope)
    if decided:  # the question or the plan shows closed, with who decided it and when; a quote marked
        context["redrawn"] = [*context.get("redrawn", []), *mark_uncovered_steps(session, [decided])]
    return context


def members_context(session: WorkSession) -> dict[str, Any]:
    """The people card: the session's members, and the roles the owner can give."""
    members = session.memberships.select_related("user").order_by("joined_at")
    return {"members": list(members), "member_roles": MemberRole.choices}


def shares_context(session: WorkSession) -> dict[str, Any]:
    """The teams card: the groups the session is shared with, and those the owner can share it with."""
    from django.contrib.auth.models import Group

    shares = list(session.group_shares.select_related("group").order_by("group__name"))
    return {
        "shares": shares,
        "groups": list(Group.objects.order_by("name").values_list("name", flat=True)),
        "share_roles": ShareRole.choices,
    }


def board_context(session: WorkSession, role: str) -> dict[str, Any]:
    """The scheduling board; the unassigned tasks of a role nobody here takes with the agents a
    person could invite for it."""
    board = schedule_board(session=session)
    missing = roles_uncovered(session_id=session.pk, roles=set(board["unassigned"]) - {ANY_ROLE})
    board["unassigned"] = [(needed, tasks, missing.get(needed)) for needed, tasks in board["unassigned"].items()]
    context = {"session": session, "board": board, "can_act": role in DECIDERS, "can_decide": may_decide(role)}
    return {**context, "role": role}


def board_update(session_id: SessionId, role: str) -> str:
    """The scheduling board again, as an out-of-band swap (small: one card per task)."""
    context = board_context(WorkSession.objects.get(pk=session_id), role)
    return render_to_string("workspace/partials/schedule_board.html", {**context, "oob": True})
