"""The CHAP socket of one session: ``/ws/sessions/<id>/chap/`` (frames: docs/transport.md).

Thin edge: it authenticates in ``connect``, joins the group before reading the head (so nothing
falls between hello and the live stream), and hands envelopes to ``message_post``. Messages go out
through sessions.delivery: exactly once, in order, resumable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from functools import partial

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from sessions import presence
from sessions.access import caller_for_agent, caller_for_principal, session_access
from sessions.delivery import Entry, SequencedSocket, db, read_head
from sessions.events import AGENT_JOINED, principal_group, session_group
from sessions.revocation import still_signed_in
from sessions.services import message_post
from workbench.protocol import strict_json
from workbench.protocol.errors import SapError, internal_error

# The only codes the workbench closes a socket with (docs/transport.md lists them with the transport's).
CLOSE_FORBIDDEN = 4403  # the same for a missing session, a non-member and a bad token
CLOSE_SILENT = 4408
MAX_POSTS_IN_FLIGHT = 8
logger = logging.getLogger(__name__)


def principal_of(caller) -> str:
    """The group of every connection of this caller (sessions.events.principal_group)."""
    if caller.kind == "agent":
        return principal_group("agent", caller.agent.pk)
    return principal_group("user", caller.user.pk)


def credential_of(scope, caller) -> Callable[[], bool]:
    """Whether what a connection was opened with still stands: an agent's token (``scope["credential_live"]``,
    agents.auth), or a person's browser session (sessions.revocation.still_signed_in)."""
    if caller.kind == "agent":
        return scope["credential_live"]
    session = scope.get("session")
    return partial(still_signed_in, session.session_key if session is not None else None, caller.user.pk)


def access_now(session_id, caller, credential_live: Callable[[], bool]):
    """A connection's access as it is now: the caller's role in the session, while what it was opened
    with still stands (``credential_of``). None when either is gone."""
    if not credential_live():
        return None
    return session_access(session_id, caller)


def concerns(event: dict, session_id) -> bool:
    """Whether an access change is about this session (or about every session of the principal)."""
    return event.get("session_id") in (None, str(session_id))


def scope_caller(scope):
    if scope.get("bad_token"):
        return None
    if scope.get("agent") is not None:
        return caller_for_agent(scope["agent"])
    return caller_for_principal(scope.get("user"))


class RateLimiter:
    """A token bucket: ``rate`` frames a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens, self.updated = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def whole_number(frame: dict, key: str, *, required: bool = True) -> int | None:
    """``frame[key]`` as a whole number a database key can hold, or SapError(INVALID_FRAME)."""
    value = frame.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise SapError(
            "INVALID_FRAME", f"{key} must be a whole number >= 0", details={"invalid": {key: "expected integer >= 0"}}
        )
    return value


def error_frame(error: SapError, message_id=None) -> dict:
    return {"type": "error", "message_id": message_id, "error": error.as_dict()}


class GuardedSocket(AsyncWebsocketConsumer):
    """What every socket of the workbench shares: it is closed only on purpose, with a documented code.

    A frame or an event whose handling fails is logged under a request id and the socket goes on (a
    frame is answered with ``INTERNAL_ERROR``, see ``frame_failed``). Event types the consumer has no
    use for are named in ``IGNORED_EVENTS``; tests/sessions/test_group_events.py checks that every
    type of sessions.events.EVENT_TYPES has a handler or a place there in every consumer.
    """

    IGNORED_EVENTS: frozenset[str] = frozenset()

    async def dispatch(self, message):
        kind = message.get("type")
        if kind in self.IGNORED_EVENTS:
            return
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            if kind in ("websocket.connect", "websocket.disconnect"):
                raise
            error = internal_error(logger, f"{type(self).__name__} handling {kind!r}")
            if kind == "websocket.receive":
                await self.frame_failed(error)

    async def frame_failed(self, error: SapError) -> None:
        """Answer a client's frame whose handling failed; the page socket is answered nothing."""


class ChapSocket(GuardedSocket):
    """What every CHAP socket shares: frame limits, the rate limit, the heartbeat watchdog, errors."""

    async def frame_failed(self, error: SapError) -> None:
        await self.send_json(error_frame(error))

    def start_watching(self) -> None:
        self.limiter = RateLimiter(settings.CHAP_WS_RATE_PER_S, settings.CHAP_WS_BURST)
        self.last_heard = time.monotonic()
        self.watchdog = asyncio.create_task(self._watch_heartbeat())

    async def _watch_heartbeat(self):
        timeout = settings.CHAP_HEARTBEAT_S * 2.5
        while True:
            await asyncio.sleep(settings.CHAP_HEARTBEAT_S / 2)
            if time.monotonic() - self.last_heard > timeout:
                await self.close(code=CLOSE_SILENT)
                return

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=json.dumps(content, ensure_ascii=False))

    async def _refuse(self, code: str, message: str, **fields) -> None:
        await self.send_json(error_frame(SapError(code, message, **fields)))

    async def read_frame(self, text_data, bytes_data) -> dict | None:
        """The client's frame as a JSON object, or None after answering why it was refused."""
        self.last_heard = time.monotonic()
        raw = text_data if text_data is not None else bytes_data
        limit = settings.CHAP_MAX_FRAME_BYTES
        if len(raw) > limit or (
            text_data is not None and len(raw) * 4 > limit and len(raw.encode("utf-8", "surrogatepass")) > limit
        ):
            await self._refuse(
                "MESSAGE_TOO_LARGE",
                f"frames are limited to {settings.CHAP_MAX_FRAME_BYTES} bytes",
                details={"limit": settings.CHAP_MAX_FRAME_BYTES},
                suggestion=["put large content in a workspace file and refer to it"],
            )
            return None
        if not self.limiter.allow():
            await self._refuse(
                "RATE_LIMITED",
                "too many frames on this connection",
                details={"rate_per_s": settings.CHAP_WS_RATE_PER_S, "burst": settings.CHAP_WS_BURST},
                suggestion=["wait a moment, then send again"],
            )
            return None
        try:
            frame = strict_json.loads(raw)
        except strict_json.JsonRefused as refused:
            details = {"reason": refused.reason}
            if refused.reason == "depth":
                details["limit"] = strict_json.MAX_DEPTH
            await self._refuse("INVALID_FRAME", f"frame refused: {refused}", details=details)
            return None
        if not isinstance(frame, dict):
            await self._refuse("INVALID_FRAME", "a frame is a JSON object")
            return None
        return frame


class SessionConsumer(SequencedSocket, ChapSocket):
    IGNORED_EVENTS = frozenset({AGENT_JOINED})  # for agent sockets, which join the new session's group

    async def connect(self):
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        self.caller = scope_caller(self.scope)
        access = None
        if self.caller is not None:
            access = await db(session_access)(self.session_id, self.caller)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = session_group(self.session_id)
        self.principal = principal_of(self.caller)
        self.role, self.credential_live = access.role, credential_of(self.scope, self.caller)
        self.participant = f"{self.caller.kind}:{self.caller.sender_id}"
        self.posting: set[asyncio.Task] = set()
        self.online: list[str] | None = None  # who this connection last saw announced as online
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.principal, self.channel_name)
        await self.accept()
        head_seq, checksum = await read_head(self.session_id)
        self.sequence = self.sequence_for(self.session_id, head_seq)
        await self.send_json(
            {
                "type": "hello",
                "session_id": str(self.session_id),
                "head_seq": head_seq,
                "context_checksum": checksum,
                "heartbeat_s": settings.CHAP_HEARTBEAT_S,
                "role": access.role,
            }
        )
        await db(presence.join)(self.session_id, self.participant, self.channel_name)
        self.start_watching()

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        self.watchdog.cancel()
        self.sequence.close()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(self.principal, self.channel_name)
        await db(presence.leave)(self.session_id, self.channel_name)

    # -- frames from the client -----------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        frame = await self.read_frame(text_data, bytes_data)
        if frame is None:
            return
        frame_type = frame.get("type")
        if frame_type is None and "payload_type" in frame:
            await self._start_post(frame)
        elif frame_type == "ping":
            await self._pong()
        elif frame_type == "resume":
            await self._resume(frame)
        else:
            await self._refuse(
                "INVALID_FRAME",
                f"unknown frame type {frame_type!r}",
                details={"known": ["ping", "resume", "a CHAP envelope (no type, has payload_type)"]},
            )

    async def _start_post(self, envelope: dict) -> None:
        """Post without blocking this connection's event loop: while a post waits for the session's
        lock, the connection keeps delivering the messages of others. A few may be in flight."""
        task = asyncio.create_task(self._post(envelope))
        self.posting.add(task)
        task.add_done_callback(self.posting.discard)
        if len(self.posting) >= MAX_POSTS_IN_FLIGHT:
            await asyncio.wait(self.posting, return_when=asyncio.FIRST_COMPLETED)

    async def _post(self, envelope: dict) -> None:
        message_id = envelope.get("message_id")
        try:
            ack = await db(message_post)(session_id=self.session_id, caller=self.caller, envelope=envelope)
        except SapError as error:
            await self.send_json(error_frame(error, message_id))
            return
        except Exception:  # a task of its own: nothing else would answer the client
            await self.send_json(error_frame(internal_error(logger, "posting over the CHAP socket"), message_id))
            return
        await self.send_json(ack.as_frame())

    async def _pong(self) -> None:
        """The heartbeat's answer, after whatever the log holds up to the head: nothing stays missing."""
        head_seq, checksum = await read_head(self.session_id)
        await self.sequence.catch_up(head_seq)
        self.online = await db(presence.seen)(self.session_id, self.channel_name, self.online)
        await self.send_json({"type": "pong", "head_seq": head_seq, "context_checksum": checksum})

    async def _resume(self, frame: dict) -> None:
        try:
            head_seq = await self.sequence.replay(whole_number(frame, "since_seq"))
        except SapError as error:
            await self.send_json(error_frame(error))
            return
        await self.send_json({"type": "resumed", "head_seq": head_seq})

    # -- group events ------------------------------------------------------------------------

    def sequence_of(self, event: dict):
        return self.sequence

    async def deliver(self, session_id, entry: Entry) -> None:
        await self.send(text_data=entry.frame)

    async def chap_presence(self, event):
        self.online = event["online"]
        await self.send_json({"type": "presence", "online": event["online"]})

    async def access_changed(self, event):
        """Removed, revoked, disabled or signed out: closed at once. Another role: told, and posts follow it."""
        if not concerns(event, self.session_id):
            return
        access = await db(access_now)(self.session_id, self.caller, self.credential_live)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
        elif access.role != self.role:
            self.role = access.role
            await self.send_json({"type": "role", "role": access.role})
