"""Live events, sent only after the transaction that caused them has committed."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import TYPE_CHECKING, Any, Literal

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction
from django.dispatch import Signal

if TYPE_CHECKING:
    from sessions.access import SessionId

# Sent after the commit of every accepted message, with session_id, seq and envelope; receivers
# (agents.reactions) must not fail the post that is already stored, so it is sent robustly.
message_accepted = Signal()
logger = logging.getLogger(__name__)

# Every event that travels over the channel layer, named once. Each consumer handles each of them or
# ignores it on purpose (its ``IGNORED_EVENTS``), so no event can close a socket;
# tests/sessions/test_group_events.py sends every one to every consumer.
CHAP_MESSAGE = "chap.message"  # an accepted message: session_id, seq, payload_type, frame, checksum
CHAP_PRESENCE = "chap.presence"  # who is online in the session now: online
AGENT_JOINED = "agent.joined"  # the agent was added to a session: session_id
ACCESS_CHANGED = "access.changed"  # the principal's access changed: session_id, or None for all
EVENT_TYPES = frozenset({CHAP_MESSAGE, CHAP_PRESENCE, AGENT_JOINED, ACCESS_CHANGED})
# Whose connections an access change reaches: a person's (by user id) or an agent's (by agent id).
PrincipalKind = Literal["user", "agent"]


def session_group(session_id: SessionId) -> str:
    return f"chap.session.{session_id}"


def agent_group(agent_id: int) -> str:
    """Every connection of one agent on /ws/agents/."""
    return f"chap.agent.{agent_id}"


def principal_group(kind: PrincipalKind, principal_id: int) -> str:
    """Every open connection of one principal (``user`` or ``agent``), on every socket and process."""
    return f"chap.access.{kind}.{principal_id}"


def message_frame(seq: int, envelope: dict[str, Any]) -> str:
    """The socket frame of one message, serialised once for all its recipients."""
    return json.dumps({"type": "message", "seq": seq, "envelope": envelope}, ensure_ascii=False)


def declared(event: dict[str, Any]) -> dict[str, Any]:
    """``event``, if its type is one of EVENT_TYPES: an event no consumer knows must never be sent."""
    if event.get("type") not in EVENT_TYPES:
        raise ValueError(f"undeclared event type {event.get('type')!r}; add it to sessions.events.EVENT_TYPES")
    return event


def send_on_commit(session_id: SessionId, event: dict[str, Any]) -> None:
    """Queue ``event`` for the session's group; it goes out only if the transaction commits."""
    declared(event)
    transaction.on_commit(lambda: _send(session_group(session_id), event))


def announce_on_commit(session_id: SessionId, seq: int, envelope: dict[str, Any]) -> None:
    def announce() -> None:
        for receiver, outcome in message_accepted.send_robust(
            sender=None, session_id=session_id, seq=seq, envelope=envelope
        ):
            if isinstance(outcome, Exception):
                logger.error("reaction %s to message %s failed", receiver, envelope["message_id"], exc_info=outcome)

    transaction.on_commit(announce)


def access_changed_on_commit(kind: PrincipalKind, principal_id: int, session_id: SessionId | None = None) -> None:
    """After commit, every open connection of the principal checks its access again: one that lost it
    is closed (4403), one whose role changed goes on with the new role. ``session_id`` limits it to the
    connections of one session; without it (a revoked token, a disabled agent) all of them check."""
    event = {"type": ACCESS_CHANGED, "session_id": str(session_id) if session_id is not None else None}
    transaction.on_commit(lambda: _send(principal_group(kind, principal_id), event))


def send_to_agent_on_commit(agent_id: int, event: dict[str, Any]) -> None:
    declared(event)
    transaction.on_commit(lambda: _send(agent_group(agent_id), event))


def _send(group: str, event: dict[str, Any]) -> None:
    """Broadcast from synchronous code. The in-memory layer's queues live on the server's own loop, which
    ``async_to_sync`` reaches; a layer shared between processes (Redis) is sent to from one loop kept
    for this, since ``async_to_sync`` in a process without a server loop (the worker, a command) would
    start a loop, and open a connection, for every message."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(layer.group_send)(group, event)
    else:
        asyncio.run_coroutine_threadsafe(layer.group_send(group, event), _broadcast_loop()).result()


_loop: asyncio.AbstractEventLoop | None = None
_loop_started = threading.Lock()


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """The process's one loop for broadcasts from synchronous code, in a daemon thread of its own."""
    global _loop
    with _loop_started:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="chap-broadcasts", daemon=True).start()
        return _loop
