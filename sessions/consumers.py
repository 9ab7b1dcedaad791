"""The CHAP socket of one session: ``/ws/sessions/<id>/chap/`` (frames: docs/transport.md).

Thin edge: it authenticates in ``connect``, joins the group before reading the head (so nothing
falls between hello and the live stream), and hands envelopes to ``message_post``.

Exactly once, in order: every connection remembers the last sequence number it delivered.
Broadcasts of one session can arrive out of order (several processes commit and send), so a
message beyond the next one waits briefly for the ones before it; if they do not come (a
broadcast lost with a crashed process, a full channel), the gap is filled from the log. One
already delivered is dropped. A consumer handles one event at a time, so a replay is never
interleaved with live messages.

Database calls run outside Channels' single shared thread (``thread_sensitive=False``): each
is self-contained, and one slow call must not hold up every other connection of the process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from sessions import presence
from sessions.access import caller_for_agent, caller_for_principal, session_access
from sessions.events import AGENT_JOINED, CHAP_GAP_CHECK, message_frame, principal_group, session_group
from sessions.models import Message, WorkSession
from sessions.services import message_post
from workbench.protocol import strict_json
from workbench.protocol.errors import SapError, internal_error

# The only codes the workbench closes a socket with (docs/transport.md lists them with the transport's).
CLOSE_FORBIDDEN = 4403  # the same for a missing session, a non-member and a bad token
CLOSE_SILENT = 4408
REPLAY_PAGE = 500
GAP_WAIT_S = 0.5  # how long an early message waits for the ones before it before the log is read
MAX_EARLY = 1000  # beyond this many early messages the log is read at once
MAX_POSTS_IN_FLIGHT = 8
logger = logging.getLogger(__name__)


def db(function):
    return database_sync_to_async(function, thread_sensitive=False)


def principal_of(caller) -> str:
    """The group of every connection of this caller (sessions.events.principal_group)."""
    if caller.kind == "agent":
        return principal_group("agent", caller.agent.pk)
    return principal_group("user", caller.user.pk)


def access_now(session_id, caller, credential_live: Callable[[], bool] | None):
    """A connection's access as it is now: the caller's role in the session, and for a connection
    opened with a credential that can be revoked (an agent token: ``scope["credential_live"]``),
    that credential still live. None when it is gone."""
    if credential_live is not None and not credential_live():
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


def _head(session_id) -> tuple[int, str]:
    return WorkSession.objects.filter(pk=session_id).values_list("head_seq", "head_checksum").get()


def _messages_between(session_id, after: int, upto: int | None, limit: int) -> list[tuple[int, str]]:
    """Message frames from the log, ready to send."""
    rows = Message.objects.filter(session_id=session_id, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return [
        (seq, message_frame(seq, envelope))
        for seq, envelope in rows.order_by("seq").values_list("seq", "envelope")[:limit]
    ]


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


def past_head(since: int, head_seq: int) -> SapError:
    """A resume from beyond the log's end: refused, and live delivery goes on where it was."""
    return SapError(
        "INVALID_FRAME",
        f"since_seq {since} is past the session's last message, {head_seq}",
        details={"invalid": {"since_seq": f"at most {head_seq}"}, "head_seq": head_seq},
        suggestion=[f"resume from a sequence number you have received, at most {head_seq}"],
    )


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


class SessionConsumer(ChapSocket):
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
        self.role, self.credential_live = access.role, self.scope.get("credential_live")
        self.participant = f"{self.caller.kind}:{self.caller.sender_id}"
        self.early: dict[int, str] = {}
        self.posting: set[asyncio.Task] = set()
        self.online: list[str] | None = None  # who this connection last saw announced as online
        self.gap_check_pending = False
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.principal, self.channel_name)
        await self.accept()
        self.last_seq, checksum = await db(_head)(self.session_id)
        await self.send_json(
            {
                "type": "hello",
                "session_id": str(self.session_id),
                "head_seq": self.last_seq,
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
        head_seq, checksum = await db(_head)(self.session_id)
        self.online = await db(presence.seen)(self.session_id, self.channel_name, self.online)
        await self.send_json({"type": "pong", "head_seq": head_seq, "context_checksum": checksum})

    async def _resume(self, frame: dict) -> None:
        try:
            await self._replay(whole_number(frame, "since_seq"))
        except SapError as error:
            await self.send_json(error_frame(error))

    async def _replay(self, since: int) -> None:
        head_seq, _ = await db(_head)(self.session_id)
        if since > head_seq:
            raise past_head(since, head_seq)
        cursor = since
        while cursor < head_seq:
            page = await db(_messages_between)(self.session_id, cursor, head_seq, REPLAY_PAGE)
            if not page:
                break
            for _, frame in page:
                await self.send(text_data=frame)
            cursor = page[-1][0]
        self.last_seq = cursor
        await self.send_json({"type": "resumed", "head_seq": self.last_seq})
        await self._deliver_early()

    # -- group events ------------------------------------------------------------------------

    async def chap_message(self, event):
        seq = event["seq"]
        if seq == self.last_seq + 1:  # the usual case, kept short: it runs once per message per connection
            await self.send(text_data=event["frame"])
            self.last_seq = seq
            if self.early:
                await self._deliver_early()
        elif seq > self.last_seq:
            self.early[seq] = event["frame"]
            if len(self.early) > MAX_EARLY:
                await self._fill_gap()
            elif not self.gap_check_pending:
                self.gap_check_pending = True
                asyncio.get_running_loop().call_later(GAP_WAIT_S, self._ask_gap_check)

    async def _deliver_early(self) -> None:
        """Deliver the early messages that are next in line now; forget those already delivered."""
        while self.last_seq + 1 in self.early:
            await self._deliver(self.last_seq + 1, self.early.pop(self.last_seq + 1))
        self.early = {seq: frame for seq, frame in self.early.items() if seq > self.last_seq}

    def _ask_gap_check(self):
        # Through our own channel, so the check runs in turn with the other events, never beside them.
        self.gap_check = asyncio.ensure_future(self.channel_layer.send(self.channel_name, {"type": CHAP_GAP_CHECK}))

    async def chap_gap_check(self, event):
        self.gap_check_pending = False
        if self.early:
            await self._fill_gap()

    async def _fill_gap(self):
        """Deliver everything up to the highest early message, reading what is missing from the log."""
        target = max(self.early)
        while self.last_seq < target:
            page = await db(_messages_between)(self.session_id, self.last_seq, target, REPLAY_PAGE)
            if not page:
                break
            for seq, frame in page:
                await self._deliver(seq, frame)
        await self._deliver_early()

    async def _deliver(self, seq: int, frame: str) -> None:
        await self.send(text_data=frame)
        self.last_seq = seq

    async def chap_presence(self, event):
        self.online = event["online"]
        await self.send_json({"type": "presence", "online": event["online"]})

    async def access_changed(self, event):
        """Removed, revoked or disabled: closed at once. Another role: told, and posts follow it."""
        if not concerns(event, self.session_id):
            return
        access = await db(access_now)(self.session_id, self.caller, self.credential_live)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
        elif access.role != self.role:
            self.role = access.role
            await self.send_json({"type": "role", "role": access.role})
