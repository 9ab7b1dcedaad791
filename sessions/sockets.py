"""What every socket of the workbench shares: who is on the other end, whether their access still
stands, frame limits, the rate limit, the heartbeat watchdog and error frames. Each socket logs under
its own module's name."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, overload

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from protocol import strict_json
from protocol.errors import ProtocolError, internal_error
from sessions.access import Access, Caller, SessionId, caller_for_agent, caller_for_principal, session_access
from sessions.events import CHAP_MESSAGE, principal_group
from sessions.revocation import still_signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from sessions.access import KnownAgent

# The only codes the workbench closes a socket with (docs/transport.md lists them with the transport's).
CLOSE_FORBIDDEN = 4403  # the same for a missing session, a non-member and a bad token
CLOSE_SILENT = 4408

# A JSON object as it crosses a socket: a client's frame, a frame sent back, a group event.
Frame = dict[str, Any]
# A connection's ASGI scope, with what the workbench's middleware adds (``agent``, ``credential_live``,
# ``bad_token``: agents.auth) beside what Channels puts there (``user``, ``session``).
Scope = Mapping[str, Any]


def principal_of(caller: Caller) -> str:
    """The group of every connection of this caller (sessions.events.principal_group)."""
    if caller.kind == "agent":
        return principal_group("agent", _agent_of(caller).pk)
    return principal_group("user", _user_of(caller).pk)


def _agent_of(caller: Caller) -> KnownAgent:
    assert caller.agent is not None, "an agent's caller carries its agent (caller_for_agent)"
    return caller.agent


def _user_of(caller: Caller) -> User:
    assert caller.user is not None, "a person's caller carries its user (caller_for_user)"
    return caller.user


def credential_of(scope: Scope, caller: Caller) -> Callable[[], bool]:
    """Whether what a connection was opened with still stands: an agent's token (``scope["credential_live"]``,
    agents.auth), or a person's browser session (sessions.revocation.still_signed_in)."""
    if caller.kind == "agent":
        credential_live: Callable[[], bool] = scope["credential_live"]
        return credential_live
    session = scope.get("session")
    return partial(still_signed_in, session.session_key if session is not None else None, _user_of(caller).pk)


def access_now(session_id: SessionId, caller: Caller, credential_live: Callable[[], bool]) -> Access | None:
    """A connection's access as it is now: the caller's role in the session, while what it was opened
    with still stands (``credential_of``). None when either is gone."""
    if not credential_live():
        return None
    return session_access(session_id, caller)


def concerns(event: Frame, session_id: SessionId) -> bool:
    """Whether an access change is about this session (or about every session of the principal)."""
    return event.get("session_id") in (None, str(session_id))


def scope_caller(scope: Scope) -> Caller | None:
    if scope.get("bad_token"):
        return None
    if scope.get("agent") is not None:
        return caller_for_agent(scope["agent"])
    return caller_for_principal(scope.get("user"))


class RateLimiter:
    """A token bucket: ``rate`` frames a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
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


@overload
def whole_number(frame: Frame, key: str, *, required: Literal[True] = True) -> int: ...


@overload
def whole_number(frame: Frame, key: str, *, required: bool) -> int | None: ...


def whole_number(frame: Frame, key: str, *, required: bool = True) -> int | None:
    """``frame[key]`` as a whole number a database key can hold, or ProtocolError(INVALID_FRAME)."""
    value = frame.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise ProtocolError(
            "INVALID_FRAME", f"{key} must be a whole number >= 0", details={"invalid": {key: "expected integer >= 0"}}
        )
    return value


def error_frame(error: ProtocolError, message_id: object = None) -> Frame:
    return {"type": "error", "message_id": message_id, "error": error.as_dict()}


class GuardedSocket(AsyncWebsocketConsumer):
    """What every socket of the workbench shares: it is closed only on purpose, with a documented code.

    A frame or an event whose handling fails is logged under a request id and the socket goes on (a
    frame is answered with ``INTERNAL_ERROR``, see ``frame_failed``). Event types the consumer has no
    use for are named in ``IGNORED_EVENTS``; tests/sessions/test_group_events.py checks that every
    type of sessions.events.EVENT_TYPES has a handler or a place there in every consumer.
    """

    IGNORED_EVENTS: frozenset[str] = frozenset()
    # Events handled without Channels' ``close_old_connections`` hop to its one shared sync thread
    # before the handler: their handlers reach the database only through ``sessions.delivery.db``, whose
    # threads tidy their own connections. A message goes to every connection of its session, and those
    # hops, one per connection, queued behind each other on that thread (bench/ws_fanout.py).
    DIRECT_EVENTS = frozenset({CHAP_MESSAGE})

    async def dispatch(self, message: Frame) -> None:
        kind = message.get("type")
        if kind in self.IGNORED_EVENTS:
            return
        try:
            if kind in self.DIRECT_EVENTS:
                await getattr(self, get_handler_name(message))(message)
            else:
                await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            if kind in ("websocket.connect", "websocket.disconnect"):
                raise
            error = internal_error(logging.getLogger(type(self).__module__), f"{type(self).__name__} handling {kind!r}")
            if kind == "websocket.receive":
                await self.frame_failed(error)

    async def frame_failed(self, error: ProtocolError) -> None:
        """Answer a client's frame whose handling failed; the page socket is answered nothing."""


class ChapSocket(GuardedSocket):
    """What every CHAP socket shares: frame limits, the rate limit, the heartbeat watchdog, errors."""

    async def frame_failed(self, error: ProtocolError) -> None:
        await self.send_json(error_frame(error))

    def start_watching(self) -> None:
        self.limiter = RateLimiter(settings.CHAP_WS_RATE_PER_S, settings.CHAP_WS_BURST)
        self.last_heard = time.monotonic()
        self.watchdog = asyncio.create_task(self._watch_heartbeat())

    async def _watch_heartbeat(self) -> None:
        timeout = settings.CHAP_HEARTBEAT_S * 2.5
        while True:
            await asyncio.sleep(settings.CHAP_HEARTBEAT_S / 2)
            if time.monotonic() - self.last_heard > timeout:
                await self.close(code=CLOSE_SILENT)
                return

    async def send_json(self, content: Frame) -> None:
        await self.send(text_data=json.dumps(content, ensure_ascii=False))

    async def _refuse(self, code: str, message: str, **fields: Any) -> None:
        await self.send_json(error_frame(ProtocolError(code, message, **fields)))

    async def read_frame(self, text_data: str | None, bytes_data: bytes | None) -> Frame | None:
        """The client's frame as a JSON object, or None after answering why it was refused."""
        self.last_heard = time.monotonic()
        raw = text_data if text_data is not None else bytes_data
        assert raw is not None, "Channels hands a frame's text or its bytes"
        limit = settings.CHAP_MAX_FRAME_BYTES
        if len(raw) > limit or (
            isinstance(raw, str) and len(raw) * 4 > limit and len(raw.encode("utf-8", "surrogatepass")) > limit
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
            details: dict[str, str | int] = {"reason": refused.reason}
            if refused.reason == "depth":
                details["limit"] = strict_json.MAX_DEPTH
            await self._refuse("INVALID_FRAME", f"frame refused: {refused}", details=details)
            return None
        if not isinstance(frame, dict):
            await self._refuse("INVALID_FRAME", "a frame is a JSON object")
            return None
        return frame
