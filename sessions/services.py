"""Writes to sessions. Every change to a session goes through one of these functions."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from agents.sap.errors import SapError
from sessions.access import SYSTEM, Caller, require_access
from sessions.chap.chain import content_hash, genesis_checksum, next_checksum
from sessions.chap.schemas import CHAP_VERSION, SERVER_ONLY_PAYLOADS, validate_envelope
from sessions.chap.summary import layered_summary
from sessions.events import send_on_commit
from sessions.graphs import graph_cache
from sessions.models import MemberRole, Membership, Message, SessionAgent, WorkSession

UNSEEN_LISTED = 100


@transaction.atomic
def session_create(*, owner: AbstractBaseUser, title: str) -> WorkSession:
    session = WorkSession(title=title, created_by=owner)
    session.head_checksum = genesis_checksum(str(session.pk))
    session.save()
    Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
    return session


def member_add(*, session: WorkSession, user: AbstractBaseUser, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(session=session, user=user, defaults={"role": role})
    return membership


def agent_join(*, session: WorkSession, agent, role: str = "", covers_roles: list[str] | None = None) -> SessionAgent:
    participation, _ = SessionAgent.objects.update_or_create(
        session=session, agent=agent, defaults={"role": role, "covers_roles": covers_roles or []}
    )
    return participation


@dataclass(frozen=True)
class Ack:
    """The acknowledgement of an accepted message; a retry of the same message gets the same one."""

    message_id: str
    seq: int
    context_checksum: str

    def as_frame(self) -> dict:
        return {
            "type": "ack",
            "message_id": self.message_id,
            "seq": self.seq,
            "context_checksum": self.context_checksum,
        }


def envelope_for(
    *,
    session_id,
    caller: Caller,
    payload_type: str,
    payload: dict,
    context_checksum: str,
    in_reply_to: str | None = None,
) -> dict:
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


def message_post(*, session_id, caller: Caller, envelope) -> Ack:
    """Validate, authorise and append one CHAP message; the one way any channel adds to the log.

    Raises SapError (INVALID_MESSAGE, RESOURCE_NOT_FOUND, PERMISSION_DENIED, DUPLICATE_MESSAGE_ID,
    CONTEXT_UNKNOWN, CONTEXT_CONFLICT). The broadcast goes out after commit.
    """
    checked = validate_envelope(envelope)
    _check_sender(checked, caller, session_id)
    require_access(session_id, caller, write=True)
    with transaction.atomic():
        return _append(session_id, checked)


def _check_sender(checked: dict, caller: Caller, session_id) -> None:
    if checked["session_id"] != str(session_id):
        raise SapError(
            "INVALID_MESSAGE",
            "session_id does not name the session the message was sent to",
            details={"invalid": {"session_id": f"expected {session_id}"}},
        )
    if checked["sender"] != caller.sender:
        raise SapError(
            "INVALID_MESSAGE",
            "sender does not match the authenticated caller",
            details={"invalid": {"sender": f"expected {caller.sender}"}},
            suggestion=[f"send as {caller.sender}"],
        )
    if checked["payload_type"] in SERVER_ONLY_PAYLOADS and caller.kind != "system":
        raise SapError(
            "INVALID_MESSAGE",
            f"{checked['payload_type']} messages are written by the workbench itself",
            details={"invalid": {"payload_type": "server-only"}},
        )


def _append(session_id, checked: dict) -> Ack:
    # The row lock serialises writers of one session on PostgreSQL (SQLite serialises all
    # writers through its IMMEDIATE transactions); under it, head_seq + 1 cannot be taken twice.
    session = WorkSession.objects.select_for_update().get(pk=session_id)
    existing = Message.objects.filter(session=session, message_id=checked["message_id"]).first()
    if existing is not None:
        if existing.content_hash == content_hash(checked):
            return Ack(existing.message_id, existing.seq, existing.checksum)
        raise SapError(
            "DUPLICATE_MESSAGE_ID",
            f"message_id {checked['message_id']!r} was already used for a different message",
            details={"message_id": checked["message_id"], "seq": existing.seq},
            suggestion=["give every new message a new message_id"],
        )
    entry = graph_cache.entry(session)
    with entry.lock:
        _check_version(session, entry.graph, checked)
        seq = session.head_seq + 1
        checksum = next_checksum(session.head_checksum, checked)
        Message.objects.create(
            session=session,
            seq=seq,
            message_id=checked["message_id"],
            payload_type=checked["payload_type"],
            sender_type=checked["sender"]["type"],
            sender_id=checked["sender"]["id"],
            in_reply_to=checked.get("in_reply_to") or "",
            envelope=checked,
            content_hash=content_hash(checked),
            checksum=checksum,
        )
        session.head_seq, session.head_checksum = seq, checksum
        session.last_activity_at = timezone.now()
        session.save(update_fields=["head_seq", "head_checksum", "last_activity_at"])
        graph = entry.graph
        open_steps = {node for node in graph.steps.values() if graph.graph.nodes[node]["status"] != "done"}
        graph.apply(seq, checked)
        entry.checksum = checksum
        completed_steps = [node for node in open_steps if graph.graph.nodes[node]["status"] == "done"]
    send_on_commit(session.pk, {"type": "chap.message", "seq": seq, "envelope": checked})
    if completed_steps:
        _checkpoint(session, label=f"Step done: {', '.join(sorted(completed_steps))}", caller=SYSTEM)
    return Ack(checked["message_id"], seq, checksum)


def _check_version(session: WorkSession, graph, checked: dict) -> None:
    stated = checked["context_checksum"]
    if stated == session.head_checksum:
        return
    if stated == genesis_checksum(str(session.pk)):
        base_seq = 0
    else:
        base_seq = Message.objects.filter(session=session, checksum=stated).values_list("seq", flat=True).first()
    head = {"head_seq": session.head_seq, "head_checksum": session.head_checksum}
    if base_seq is None:
        raise SapError(
            "CONTEXT_UNKNOWN",
            "context_checksum names no version of this session",
            details={"context_checksum": stated, **head},
            suggestion=["fetch the session's messages and write against head_checksum"],
        )
    conflicting = graph.unseen_redirects(since_seq=base_seq, in_reply_to=checked.get("in_reply_to"))
    if conflicting:
        unseen = Message.objects.filter(session=session, seq__gt=base_seq).order_by("seq")
        raise SapError(
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


def checkpoint_create(*, session_id, caller: Caller, label: str) -> Ack:
    """Freeze the current version with a layered summary built from the graph (exact, no LLM)."""
    require_access(session_id, caller, write=True)
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
