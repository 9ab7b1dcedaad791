"""Writes to sessions. Every change to a session goes through one of these functions."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from protocol.errors import ProtocolError
from sessions.access import SYSTEM, Access, Caller, SessionId, require_access, require_manager, require_post
from sessions.chap.chain import canonical_json, content_hash, first_break, genesis_checksum, next_checksum
from sessions.chap.decisions import refuse_second_decision, refuse_unknown_question
from sessions.chap.graph import ContextGraph
from sessions.chap.history import replay
from sessions.chap.milestones import milestone
from sessions.chap.schemas import CHAP_VERSION, check_sender_may_post, validate_envelope
from sessions.chap.summary import layered_summary
from sessions.chap.text import searchable_text
from sessions.events import (
    AGENT_JOINED,
    CHAP_MESSAGE,
    access_changed_on_commit,
    announce_on_commit,
    message_frame,
    send_on_commit,
    send_to_agent_on_commit,
)
from sessions.graphs import graph_cache
from sessions.models import (
    GroupShare,
    MemberRole,
    Membership,
    Message,
    SessionAgent,
    SessionState,
    ShareRole,
    WorkSession,
)
from sessions.safety import filtered
from sessions.selectors import EXPORT_FORMAT

if TYPE_CHECKING:
    from django.contrib.auth.models import User

UNSEEN_LISTED = 100


@transaction.atomic
def session_create(*, owner: User, title: str) -> WorkSession:
    session = WorkSession(title=title, created_by=owner)
    session.head_checksum = genesis_checksum(str(session.pk))
    session.save()
    Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
    return session


def member_add(*, session: WorkSession, user: User, role: str) -> Membership:
    """Add a member, or give one another role; a member's open sockets take a new role at once."""
    previous = Membership.objects.filter(session=session, user=user).values_list("role", flat=True).first()
    membership, _ = Membership.objects.update_or_create(session=session, user=user, defaults={"role": role})
    if previous is not None and previous != role:
        access_changed_on_commit("user", user.pk, session.pk)
    return membership


def agent_join(
    *, session: WorkSession, agent: Any, role: str = "", covers_roles: list[str] | None = None
) -> SessionAgent:
    participation, created = SessionAgent.objects.update_or_create(
        session=session, agent=agent, defaults={"role": role, "covers_roles": covers_roles or []}
    )
    if created:  # an agent connected on /ws/agents/ starts receiving this session at once
        send_to_agent_on_commit(agent.pk, {"type": AGENT_JOINED, "session_id": str(session.pk)})
    return participation


def agent_leave(*, session: WorkSession, agent: Any) -> None:
    """The agent takes no more part in the session; its open sockets stop receiving it at once."""
    if SessionAgent.objects.filter(session=session, agent=agent).delete()[0]:
        access_changed_on_commit("agent", agent.pk, session.pk)


@dataclass(frozen=True)
class Ack:
    """The acknowledgement of an accepted message; a retry of the same message gets the same one."""

    message_id: str
    seq: int
    context_checksum: str
    replayed: bool = field(default=False, compare=False)  # True when this answered a retry

    def as_frame(self) -> dict[str, Any]:
        return {
            "type": "ack",
            "message_id": self.message_id,
            "seq": self.seq,
            "context_checksum": self.context_checksum,
        }


def envelope_for(
    *,
    session_id: SessionId,
    caller: Caller,
    payload_type: str,
    payload: dict[str, Any],
    context_checksum: str,
    in_reply_to: str | None = None,
) -> dict[str, Any]:
    """A complete envelope for a message the server writes on a caller's behalf (forms, runtimes)."""
    return {
        "chap_version": CHAP_VERSION,
        "session_id": str(session_id),
        "message_id": f"msg_{uuid.uuid4().hex}",
        "in_reply_to": in_reply_to,
        "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "sender": caller.sender,
        "context_checksum": context_checksum,
        "payload_type": payload_type,
        "payload": payload,
    }


def message_post_at_head(
    *,
    session_id: SessionId,
    caller: Caller,
    payload_type: str,
    payload: dict[str, Any],
    in_reply_to: str | None = None,
    message_id: str | None = None,
) -> Ack:
    """Post what the workbench writes on a caller's behalf (records, runtime output), against the
    session's current version: such messages report what happened, so they never conflict."""
    head = WorkSession.objects.values_list("head_checksum", flat=True).get(pk=session_id)
    envelope = envelope_for(
        session_id=session_id,
        caller=caller,
        payload_type=payload_type,
        payload=payload,
        context_checksum=head,
        in_reply_to=in_reply_to,
    )
    if message_id is not None:
        envelope["message_id"] = message_id
    return message_post(session_id=session_id, caller=caller, envelope=envelope)


def message_post(*, session_id: SessionId, caller: Caller, envelope: object) -> Ack:
    """Validate, authorise and append one CHAP message; the one way any channel adds to the log.

    Raises ProtocolError (INVALID_MESSAGE, RESOURCE_NOT_FOUND, PERMISSION_DENIED, DUPLICATE_MESSAGE_ID,
    CONTEXT_UNKNOWN, CONTEXT_CONFLICT; ALREADY_DECIDED for a second answer or plan decision). The
    broadcast goes out after commit.
    """
    checked = validate_envelope(envelope)
    _check_sender(checked, caller, session_id)
    require_post(session_id, caller, checked)
    if caller.kind == "agent":
        checked = filtered(checked, caller.agent)
    with transaction.atomic():
        return _append(session_id, checked)


def _check_sender(checked: dict[str, Any], caller: Caller, session_id: SessionId) -> None:
    if checked["session_id"] != str(session_id):
        raise ProtocolError(
            "INVALID_MESSAGE",
            "session_id does not name the session the message was sent to",
            details={"invalid": {"session_id": f"expected {session_id}"}},
        )
    if checked["sender"] != caller.sender:
        raise ProtocolError(
            "INVALID_MESSAGE",
            "sender does not match the authenticated caller",
            details={"invalid": {"sender": f"expected {caller.sender}"}},
            suggestion=[f"send as {caller.sender}"],
        )
    check_sender_may_post(caller.kind, checked["payload_type"])


def _append(session_id: SessionId, checked: dict[str, Any]) -> Ack:
    # The row lock serialises writers of one session on PostgreSQL (SQLite serialises all
    # writers through its IMMEDIATE transactions); under it, head_seq + 1 cannot be taken twice.
    session = WorkSession.objects.select_for_update().get(pk=session_id)
    canonical = canonical_json(checked)  # made once: the retry check, the row and the chain all hash it
    existing = Message.objects.filter(session=session, message_id=checked["message_id"]).first()
    if existing is not None:
        if existing.content_hash == content_hash(checked, canonical=canonical):
            return Ack(existing.message_id, existing.seq, existing.checksum, replayed=True)
        raise ProtocolError(
            "DUPLICATE_MESSAGE_ID",
            f"message_id {checked['message_id']!r} was already used for a different message",
            details={"message_id": checked["message_id"], "seq": existing.seq},
            suggestion=["give every new message a new message_id"],
        )
    entry = graph_cache.entry(session)
    with entry.lock:
        graph_cache.catch_up(entry, session)  # again under the lock: a reader may have moved it meanwhile
        _check_version(session, entry.graph, checked)
        refuse_unknown_question(entry.graph.graph, checked)
        refuse_second_decision(entry.graph.graph, checked)
        seq = session.head_seq + 1
        checksum = next_checksum(session.head_checksum, checked, canonical=canonical)
        _message_row(session, seq, checked, checksum, canonical=canonical).save(force_insert=True)
        graph = entry.graph
        graph.apply(seq, checked)
        session.head_seq, session.head_checksum = seq, checksum
        session.last_activity_at = timezone.now()
        _keep_waiting(session, graph)
        session.save(update_fields=["head_seq", "head_checksum", "last_activity_at", *WAITING_FIELDS])
        entry.checksum = checksum
        marks = milestone(graph, checked["message_id"])
    send_on_commit(
        session.pk,
        {
            "type": CHAP_MESSAGE,
            "session_id": str(session.pk),
            "seq": seq,
            "payload_type": checked["payload_type"],
            "frame": message_frame(seq, checked),
            "checksum": checksum,
        },
    )
    announce_on_commit(session.pk, seq, checked)
    if marks is not None:  # a checkpoint marks no milestone, so this never recurses
        _checkpoint(session, label=marks, caller=SYSTEM)
    return Ack(checked["message_id"], seq, checksum)


WAITING_FIELDS = ("open_questions", "proposed_plans")


def _keep_waiting(session: WorkSession, graph: ContextGraph) -> None:
    """The session row's copy of what waits for a person in its log (``WAITING_FIELDS``)."""
    session.open_questions = len(graph.open_asks)
    session.proposed_plans = sorted(graph.proposed_plans)


def _message_row(
    session: WorkSession, seq: int, envelope: dict[str, Any], checksum: str, *, canonical: str | None = None
) -> Message:
    """The log row of a validated envelope: its searchable fields copied out, its content hashed."""
    return Message(
        session=session,
        seq=seq,
        message_id=envelope["message_id"],
        payload_type=envelope["payload_type"],
        sender_type=envelope["sender"]["type"],
        sender_id=envelope["sender"]["id"],
        in_reply_to=envelope.get("in_reply_to") or "",
        envelope=envelope,
        content_hash=content_hash(envelope, canonical=canonical),
        checksum=checksum,
        search_text=searchable_text(envelope),
    )


def _check_version(session: WorkSession, graph: ContextGraph, checked: dict[str, Any]) -> None:
    stated = checked["context_checksum"]
    if stated == session.head_checksum:
        return
    base_seq: int | None
    if stated == genesis_checksum(str(session.pk)):
        base_seq = 0
    else:
        base_seq = Message.objects.filter(session=session, checksum=stated).values_list("seq", flat=True).first()
    head = {"head_seq": session.head_seq, "head_checksum": session.head_checksum}
    if base_seq is None:
        raise ProtocolError(
            "CONTEXT_UNKNOWN",
            "context_checksum names no version of this session",
            details={"context_checksum": stated, **head},
            suggestion=["fetch the session's messages and write against head_checksum"],
        )
    conflicting = graph.unseen_redirects(since_seq=base_seq, in_reply_to=checked.get("in_reply_to"))
    if conflicting:
        unseen = Message.objects.filter(session=session, seq__gt=base_seq).order_by("seq")
        raise ProtocolError(
            "CONTEXT_CONFLICT",
            "messages you have not seen correct or redirect what your message builds on",
            details={
                "conflicting": conflicting,
                "unseen": list(unseen.values_list("message_id", flat=True)[:UNSEEN_LISTED]),
                "unseen_count": session.head_seq - base_seq,
                "since_seq": base_seq,
                **head,
            },
            suggestion=["read the unseen messages, then resend against head_checksum"],
        )


def checkpoint_create(*, session_id: SessionId, caller: Caller, label: str) -> Ack:
    """Freeze the current version with a layered summary built from the graph (exact, no LLM)."""
    require_access(session_id, caller, write=True)
    check_sender_may_post(caller.kind, "checkpoint")
    with transaction.atomic():
        session = WorkSession.objects.select_for_update().get(pk=session_id)
        return _checkpoint(session, label=label, caller=caller)


def _checkpoint(session: WorkSession, *, label: str, caller: Caller) -> Ack:
    entry = graph_cache.entry(session)
    with entry.lock:
        summary = layered_summary(entry.graph)
    envelope = envelope_for(
        session_id=session.pk,
        caller=caller,
        payload_type="checkpoint",
        payload={"label": label[:500], "seq": session.head_seq, "summary": summary},
        context_checksum=session.head_checksum,
    )
    return _append(session.pk, validate_envelope(envelope))


OWNER_ONLY = "only the session's owner can do this"


def session_update(
    *, session_id: SessionId, caller: Caller, title: str | None = None, state: str | None = None
) -> WorkSession:
    """Rename a session or move it to another state (owner and editors); archiving is the owner's."""
    access = require_manager(session_id, caller, to="rename it or change its state", permission="session.manage")
    if state is not None and state not in SessionState.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"state must be one of {list(SessionState.values)}",
            details={"violations": {"state": f"got {state!r}"}},
        )
    if state == SessionState.ARCHIVED and access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.archive"}
        )
    with transaction.atomic():
        session = WorkSession.objects.select_for_update().get(pk=access.session_id)
        who = caller.sender_id
        changes = []
        if title is not None and title != session.title:
            label = f"{who} renamed “{title}”"
            changes.append({"action": "renamed", "title": title, "previous_title": session.title, "label": label})
            session.title = title
        if state is not None and state != session.state:
            label = f"{who} marked {state}"
            changes.append({"action": "state_changed", "state": state, "previous_state": session.state, "label": label})
            session.state = state
        session.save(update_fields=["title", "state"])
        # In the log, so the history shows who changed the session and when, and every open socket
        # learns it with the other messages, in order.
        for change in changes:
            session_event_post(session.pk, caller, **change)
    session.refresh_from_db()
    return session


def member_invite(*, session_id: SessionId, caller: Caller, username: str, role: str) -> Membership:
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.members"}
        )
    if role not in MemberRole.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"role must be one of {list(MemberRole.values)}",
            details={"violations": {"role": f"got {role!r}"}},
        )
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ProtocolError("RESOURCE_NOT_FOUND", f"no user {username!r}", details={"resource_type": "USER"})
    if user.pk == access.session.created_by_id and role != MemberRole.OWNER:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "the session's creator stays its owner",
            details={"violations": {"role": "the creator's role cannot change"}},
        )
    with transaction.atomic():
        membership = member_add(session=access.session, user=user, role=role)
        session_event_post(
            access.session_id, caller, action="member_added", username=username, role=role,
            label=f"{caller.sender_id} added {username} as {MemberRole(role).label.lower()}",
        )  # fmt: skip
    return membership


def session_event_post(session_id: SessionId, caller: Caller, **payload: Any) -> None:
    """A change to the session in its log, written by the workbench on the actor's behalf."""
    message_post_at_head(
        session_id=session_id,
        caller=SYSTEM,
        payload_type="session_event",
        payload={**payload, "by": f"{caller.kind}:{caller.sender_id}"},
    )


def _require_owner(session_id: SessionId, caller: Caller, permission: str) -> Access:
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError("PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": permission})
    return access


def _group_named(name: str) -> Group:
    group = Group.objects.filter(name=name).first()
    if group is None:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no group {name!r}",
            details={"resource_type": "GROUP", "resource_name": name},
            suggestion=["an admin creates groups in the Django admin"],
        )
    return group


def share_announce(*, session_id: SessionId, caller: Caller, group: Group, role: str | None) -> None:
    """Log that the session was shared with ``group`` as ``role`` (None: no longer shared), and make
    the group's members' open sockets check their access again. The services and the admin call it."""
    if role is None:
        change = {"action": "unshared", "label": f"{caller.sender_id} stopped sharing the session with {group.name}"}
    else:
        label = f"{caller.sender_id} shared the session with {group.name} as {ShareRole(role).label.lower()}s"
        change = {"action": "shared", "role": role, "label": label}
    by = f"{caller.kind}:{caller.sender_id}"
    payload = {**change, "group": group.name, "by": by}
    message_post_at_head(session_id=session_id, caller=SYSTEM, payload_type="session_event", payload=payload)
    for user_id in group.user_set.values_list("pk", flat=True):
        access_changed_on_commit("user", user_id, session_id)


def session_share(*, session_id: SessionId, caller: Caller, group: str, role: str) -> GroupShare:
    """The owner shares the session with a team (a Django group), or gives the team another role;
    logged as a session event. The group's members' open sockets take the new role at once."""
    access = _require_owner(session_id, caller, "session.share")
    if role not in ShareRole.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"role must be one of {list(ShareRole.values)}",
            details={"violations": {"role": f"got {role!r}"}},
        )
    team = _group_named(group)
    with transaction.atomic():
        share, created = GroupShare.objects.get_or_create(
            session_id=access.session_id, group=team, defaults={"role": role, "shared_by": caller.user}
        )
        if created or share.role != role:
            share.role = role
            share.save(update_fields=["role"])
            share_announce(session_id=access.session_id, caller=caller, group=team, role=role)
    return share


def session_unshare(*, session_id: SessionId, caller: Caller, group: str) -> None:
    """The owner stops sharing the session with a team; logged, and the team's open sockets close."""
    access = _require_owner(session_id, caller, "session.share")
    team = _group_named(group)
    with transaction.atomic():
        if not GroupShare.objects.filter(session_id=access.session_id, group=team).delete()[0]:
            raise ProtocolError(
                "RESOURCE_NOT_FOUND",
                f"the session is not shared with {team.name!r}",
                details={"resource_type": "GROUP_SHARE", "resource_name": team.name},
            )
        share_announce(session_id=access.session_id, caller=caller, group=team, role=None)


def member_remove(*, session_id: SessionId, caller: Caller, username: str) -> None:
    """The owner removes a member; the member's open sockets of the session are closed at once."""
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.members"}
        )
    membership = (
        Membership.objects.filter(session_id=access.session_id, user__username=username).select_related("user").first()
    )
    if membership is None:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"{username!r} is not a member of this session",
            details={"resource_type": "MEMBER", "resource_name": username},
        )
    if membership.user_id == access.session.created_by_id:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "the session's creator stays its owner",
            details={"violations": {"username": "the creator cannot be removed"}},
        )
    with transaction.atomic():
        membership.delete()
        access_changed_on_commit("user", membership.user_id, access.session_id)


def session_import(*, data: dict[str, Any], owner: User) -> WorkSession:
    """Load an export into this workbench after verifying its chain; the session keeps its id."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"not a {EXPORT_FORMAT} file",
            details={"invalid": {"format": "expected " + EXPORT_FORMAT}},
        )
    meta: dict[str, Any] = data.get("session") or {}
    rows: list[dict[str, Any]] = data.get("messages") or []
    try:
        session_id = str(uuid.UUID(str(meta.get("id"))))
        entries = [(int(row["seq"]), validate_envelope(row["envelope"]), str(row["checksum"])) for row in rows]
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError("VALIDATION_FAILED", f"malformed export: {exc}") from None
    broken = first_break(session_id, entries)
    if broken is not None:
        raise ProtocolError(
            "VALIDATION_FAILED", f"the checksum chain breaks at message #{broken}", details={"seq": broken}
        )
    if WorkSession.objects.filter(pk=session_id).exists():
        raise ProtocolError(
            "RESOURCE_ALREADY_EXISTS", f"session {session_id} exists already", details={"resource_type": "SESSION"}
        )
    with transaction.atomic():
        session = WorkSession(
            id=session_id,
            title=str(meta.get("title") or "Imported session")[:200],
            state=meta["state"] if meta.get("state") in SessionState.values else SessionState.PROPOSED,
            created_by=owner,
            head_seq=entries[-1][0] if entries else 0,
            head_checksum=entries[-1][2] if entries else genesis_checksum(session_id),
        )
        _keep_waiting(session, replay(session_id, ((seq, env) for seq, env, _ in entries), until=session.head_seq))
        session.save(force_insert=True)
        Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
        for member in data.get("members") or []:
            user = get_user_model().objects.filter(username=member.get("username")).exclude(pk=owner.pk).first()
            if user is not None and member.get("role") in MemberRole.values:
                Membership.objects.create(session=session, user=user, role=member["role"])
        Message.objects.bulk_create(
            _message_row(session, seq, envelope, checksum) for seq, envelope, checksum in entries
        )
    return session
