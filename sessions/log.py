"""The session's log: the one write path every channel appends through (validation, the caller's
right to post, the version check, the checksum chain, the context graph, the broadcast after commit)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from protocol.errors import ProtocolError, not_found
from sessions import graph_snapshots
from sessions.access import SYSTEM, Access, Caller, SessionId, require_access, require_decider, require_post
from sessions.chap.chain import canonical_json, content_hash, genesis_checksum, next_checksum
from sessions.chap.decisions import decision, refuse_second_decision, refuse_unknown_question
from sessions.chap.graph import CURRENT_ANSWER, ContextGraph
from sessions.chap.milestones import milestone
from sessions.chap.schemas import CHAP_VERSION, check_sender_may_post, validate_envelope
from sessions.chap.summary import layered_summary
from sessions.chap.text import searchable_text
from sessions.events import CHAP_MESSAGE, announce_on_commit, message_frame, send_on_commit
from sessions.graphs import graph_cache
from sessions.models import Message, WorkSession
from sessions.safety import filtered

UNSEEN_LISTED = 100
# Sent inside the transaction that appends a person's approval of a proposed plan, by whatever channel it
# came (a button, REST, a socket, the feedback panel), with session_id, caller, access and
# plan_message_id. Its receiver (agents: the plan's steps become tasks) works in that transaction, so the
# approval and what it starts commit together or not at all; sessions knows nothing of what it starts.
plan_approved = Signal()


@dataclass(frozen=True)
class Ack:
    """The acknowledgement of an accepted message; a retry of the same message gets the same one."""

    message_id: str
    seq: int
    context_checksum: str
    replayed: bool = field(default=False, compare=False)  # True when this answered a retry
    # The session's head after the append, when a milestone's checkpoint followed the message.
    checkpoint_checksum: str = field(default="", compare=False)
    approved_plan: str = field(default="", compare=False)  # the plan this message approved, if it did

    @property
    def head(self) -> str:
        """The version a page that sent this message writes its next one against."""
        return self.checkpoint_checksum or self.context_checksum

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


AT_HEAD = "0" * 16  # the context_checksum of a message written at the head, until the lock stamps it


def message_post_at_head(
    *,
    session_id: SessionId,
    caller: Caller,
    payload_type: str,
    payload: dict[str, Any],
    in_reply_to: str | None = None,
    message_id: str | None = None,
    access: Access | None = None,
) -> Ack:
    """Post what the workbench writes on a caller's behalf (records, runtime output, a person's
    answer), against the session's version at the moment of writing: such messages say what happened
    or answer what is there, so they never conflict. ``access`` as for ``message_post``."""
    envelope = envelope_for(
        session_id=session_id,
        caller=caller,
        payload_type=payload_type,
        payload=payload,
        context_checksum=AT_HEAD,
        in_reply_to=in_reply_to,
    )
    if message_id is not None:  # a retry of a runtime's message may send the same id again
        envelope["message_id"] = message_id
    return _post(session_id, caller, envelope, access, at_head=True)


def message_post(*, session_id: SessionId, caller: Caller, envelope: object, access: Access | None = None) -> Ack:
    """Validate, authorise and append one CHAP message; the one way any channel adds to the log.
    ``access`` is the caller's when the edge has read it already (so it is read once a request).

    Raises ProtocolError (INVALID_MESSAGE, RESOURCE_NOT_FOUND, PERMISSION_DENIED, DUPLICATE_MESSAGE_ID,
    CONTEXT_UNKNOWN, CONTEXT_CONFLICT; ALREADY_DECIDED for a second answer or plan decision). The
    broadcast goes out after commit.
    """
    return _post(session_id, caller, envelope, access)


def _post(
    session_id: SessionId,
    caller: Caller,
    envelope: object,
    access: Access | None,
    *,
    at_head: bool = False,
) -> Ack:
    checked = validate_envelope(envelope)
    _check_sender(checked, caller, session_id)
    access = require_post(session_id, caller, checked, access=access)
    if caller.kind == "agent":
        checked = filtered(checked, caller.agent)
    if not graph_cache.holds(session_id):
        # Built before the write lock is taken: a graph built inside it (a long session's first
        # message in this process) held up every writer until it was (on SQLite, of every session:
        # they gave up, "database is locked", and their posts were lost; bench/long_session.py).
        graph_cache.entry(access.session)
    with transaction.atomic():
        ack = _append(_locked(session_id), checked, at_head=at_head)
        if ack.approved_plan:
            plan = ack.approved_plan
            plan_approved.send(None, session_id=access.session_id, caller=caller, access=access, plan_message_id=plan)
        return ack


def feedback_give(
    *, access: Access, caller: Caller, payload: dict[str, Any], context_checksum: str | None = None
) -> Ack:
    """A person gives feedback on a message (the workspace's panel): ``payload`` is the human_feedback
    the form describes, ``context_checksum`` the version the page showed (None: the head as it is).
    ``access`` is the one the edge read for this request. The ack's ``head`` is the new head."""
    envelope = envelope_for(
        session_id=access.session_id,
        caller=caller,
        payload_type="human_feedback",
        payload=payload,
        context_checksum=context_checksum or AT_HEAD,
        in_reply_to=payload.get("target_message_id"),
    )
    return _post(access.session_id, caller, envelope, access, at_head=context_checksum is None)


def answer_give(*, access: Access, caller: Caller, payload: dict[str, Any]) -> Ack:
    """A person answers an agent's clarification or a report's question (``payload``: the
    clarification_answer), at the head: owners and editors answer. The agent works again once the
    worker reacts to it (agents.reactions)."""
    require_decider(access, to="answer")
    return message_post_at_head(
        session_id=access.session_id,
        caller=caller,
        payload_type="clarification_answer",
        payload=payload,
        access=access,
    )


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


HEAD_FIELDS = ("head_seq", "head_checksum", "open_questions", "proposed_plans")


def _locked(session_id: SessionId) -> WorkSession:
    """The session's row, locked for this transaction: only what the append reads and moves."""
    return WorkSession.objects.select_for_update().only(*HEAD_FIELDS).get(pk=session_id)


def _append(session: WorkSession, checked: dict[str, Any], *, at_head: bool = False) -> Ack:
    """Append ``checked`` to ``session``, whose row this transaction has locked: the row lock serialises
    writers of one session on PostgreSQL (SQLite serialises all writers through its IMMEDIATE
    transactions), so head_seq + 1 cannot be taken twice. ``at_head``: written against the head as it
    is now (what reports what happened, or answers what is there, never conflicts)."""
    if at_head:
        checked["context_checksum"] = session.head_checksum
    canonical = canonical_json(checked)  # made once: the retry check, the row and the chain all hash it
    entry = graph_cache.slot(session)
    with entry.lock:
        graph_cache.catch_up(entry, session)
        graph = entry.graph
        if checked["message_id"] in graph.graph:  # every message is a node: only a known id can be a retry
            retried = _retried(session, checked, canonical)
            if retried is not None:
                return retried
        _check_reply(graph, checked)
        _check_version(session, graph, checked)
        refuse_unknown_question(graph.graph, checked)
        refuse_second_decision(graph.graph, checked)
        seq = session.head_seq + 1
        checksum = next_checksum(session.head_checksum, checked, canonical=canonical)
        message_row(session, seq, checked, checksum, canonical=canonical).save(force_insert=True)
        graph.apply(seq, checked)
        _move_head(session, seq, checksum, graph)
        entry.checksum = checksum
        if seq % graph_snapshots.SNAPSHOT_EVERY == 0:
            transaction.on_commit(lambda: graph_cache.keep_snapshot(session.pk))
        marks = milestone(graph, checked["message_id"])
        approved = _approved_plan(graph, checked)
    send_on_commit(
        session.pk,
        {
            "type": CHAP_MESSAGE,
            "session_id": str(session.pk),
            "seq": seq,
            "payload_type": checked["payload_type"],
            "frame": message_frame(seq, checked),
            "checksum": checksum,
            "sent_at": time.time(),  # a socket that gets it much later is behind: sessions.delivery
        },
    )
    announce_on_commit(session.pk, seq, checked)
    if marks is None:
        return Ack(checked["message_id"], seq, checksum, approved_plan=approved)
    marked = _checkpoint(session, label=marks, caller=SYSTEM)  # a checkpoint marks no milestone: no recursion
    return Ack(
        checked["message_id"], seq, checksum, checkpoint_checksum=marked.context_checksum, approved_plan=approved
    )


def _approved_plan(graph: ContextGraph, checked: dict[str, Any]) -> str:
    """The proposed plan ``checked``, just applied, approved: a person's approval of a whole plan
    settles it (not one of its steps, not an agent's suggestion); "" for any other message."""
    if checked["payload_type"] != "human_feedback" or checked["payload"]["feedback_type"] != "approval":
        return ""
    target = graph.graph.nodes[checked["message_id"]].get("target")
    if target not in graph.plans:
        return ""
    settled = decision(graph.graph, target)
    return target if settled is not None and settled.message_id == checked["message_id"] else ""


def _move_head(session: WorkSession, seq: int, checksum: str, graph: ContextGraph) -> None:
    """The session row follows the append: its head, its last activity, and what waits in it when
    that changed (most messages leave it as it was)."""
    waiting = {name: getattr(session, name) for name in WAITING_FIELDS}
    session.head_seq, session.head_checksum = seq, checksum
    session.last_activity_at = timezone.now()
    keep_waiting(session, graph)
    changed = {name: getattr(session, name) for name in WAITING_FIELDS if getattr(session, name) != waiting[name]}
    moved = {"head_seq": seq, "head_checksum": checksum, "last_activity_at": session.last_activity_at}
    WorkSession.objects.filter(pk=session.pk).update(**moved, **changed)


def _retried(session: WorkSession, checked: dict[str, Any], canonical: str) -> Ack | None:
    """The ack of the message a retry repeats; DUPLICATE_MESSAGE_ID when its id names another one."""
    existing = Message.objects.filter(session=session, message_id=checked["message_id"]).first()
    if existing is None:
        return None
    if existing.content_hash == content_hash(checked, canonical=canonical):
        return Ack(existing.message_id, existing.seq, existing.checksum, replayed=True)
    raise ProtocolError(
        "DUPLICATE_MESSAGE_ID",
        f"message_id {checked['message_id']!r} was already used for a different message",
        details={"message_id": checked["message_id"], "seq": existing.seq},
        suggestion=["give every new message a new message_id"],
    )


WAITING_FIELDS = ("open_questions", "proposed_plans", "current_answer")


def keep_waiting(session: WorkSession, graph: ContextGraph) -> None:
    """The session row's copy of what waits for a person in its log, and of the report that is its
    answer now (``WAITING_FIELDS``)."""
    session.open_questions = len(graph.open_asks)
    session.proposed_plans = sorted(graph.proposed_plans)
    session.current_answer = str(graph.graph.graph.get(CURRENT_ANSWER) or "")


def message_row(
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


def _check_reply(graph: ContextGraph, checked: dict[str, Any]) -> None:
    """RESOURCE_NOT_FOUND unless ``in_reply_to`` is empty or names a message of this session: a reply
    to nothing (or to another session's message) would hang off no thread and escape the version rule."""
    reply = checked.get("in_reply_to")
    if reply and graph.graph.nodes.get(reply, {}).get("message") != reply:
        raise not_found(
            "MESSAGE",
            reply,
            "in_reply_to names no message of this session",
            suggestion=["reply to a message of this session by its message_id, or send in_reply_to null"],
            field="in_reply_to",
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
        return _checkpoint(_locked(session_id), label=label, caller=caller)


CHECKPOINT_LISTED = 10  # the newest decisions, facts, assumptions, questions and reviews a checkpoint lists


def _checkpoint(session: WorkSession, *, label: str, caller: Caller) -> Ack:
    entry = graph_cache.entry(session)
    with entry.lock:
        summary = layered_summary(entry.graph, listed=CHECKPOINT_LISTED)
    envelope = envelope_for(
        session_id=session.pk,
        caller=caller,
        payload_type="checkpoint",
        payload={"label": label[:500], "seq": session.head_seq, "summary": summary},
        context_checksum=session.head_checksum,
    )
    return _append(session, validate_envelope(envelope))
