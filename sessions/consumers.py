"""The CHAP socket of one session: ``/ws/sessions/<id>/chap/`` (frames: docs/transport.md).

Thin edge: it authenticates in ``connect``, joins the group before reading the head (so nothing
falls between hello and the live stream), and hands envelopes to ``message_post``. Messages go out
through sessions.delivery: exactly once, in order, resumable.
"""

from __future__ import annotations

import asyncio
import logging
from uuid import UUID

from django.conf import settings

from protocol.errors import ProtocolError, internal_error
from sessions import presence
from sessions.access import Caller, SessionId, session_access
from sessions.delivery import Entry, Sequence, SequencedSocket, db, read_head
from sessions.events import AGENT_JOINED, session_group
from sessions.log import message_post
from sessions.sockets import (
    CLOSE_FORBIDDEN,
    ChapSocket,
    Frame,
    access_now,
    concerns,
    credential_of,
    error_frame,
    principal_of,
    scope_caller,
    whole_number,
)

MAX_POSTS_IN_FLIGHT = 8
logger = logging.getLogger(__name__)


class SessionConsumer(SequencedSocket, ChapSocket):
    IGNORED_EVENTS = frozenset({AGENT_JOINED})  # for agent sockets, which join the new session's group

    async def connect(self) -> None:
        self.session_id: UUID = self.scope["url_route"]["kwargs"]["session_id"]
        caller = scope_caller(self.scope)
        access = None
        if caller is not None:
            access = await db(session_access)(self.session_id, caller)
        if caller is None or access is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.caller: Caller = caller
        self.group = session_group(self.session_id)
        self.principal = principal_of(self.caller)
        self.role, self.credential_live = access.role, credential_of(self.scope, self.caller)
        self.participant = f"{self.caller.kind}:{self.caller.sender_id}"
        self.posting: set[asyncio.Task[None]] = set()
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

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        self.watchdog.cancel()
        self.sequence.close()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(self.principal, self.channel_name)
        await db(presence.leave)(self.session_id, self.channel_name)

    # -- frames from the client -----------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
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

    async def _start_post(self, envelope: Frame) -> None:
        """Post without blocking this connection's event loop: while a post waits for the session's
        lock, the connection keeps delivering the messages of others. A few may be in flight."""
        task = asyncio.create_task(self._post(envelope))
        self.posting.add(task)
        task.add_done_callback(self.posting.discard)
        if len(self.posting) >= MAX_POSTS_IN_FLIGHT:
            await asyncio.wait(self.posting, return_when=asyncio.FIRST_COMPLETED)

    async def _post(self, envelope: Frame) -> None:
        message_id = envelope.get("message_id")
        try:
            ack = await db(message_post)(session_id=self.session_id, caller=self.caller, envelope=envelope)
        except ProtocolError as error:
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

    async def _resume(self, frame: Frame) -> None:
        try:
            head_seq = await self.sequence.replay(whole_number(frame, "since_seq"))
        except ProtocolError as error:
            await self.send_json(error_frame(error))
            return
        await self.send_json({"type": "resumed", "head_seq": head_seq})

    # -- group events ------------------------------------------------------------------------

    def sequence_of(self, event: Frame) -> Sequence:
        return self.sequence

    async def deliver(self, session_id: SessionId, entry: Entry) -> None:
        await self.send(text_data=entry.frame)

    async def chap_presence(self, event: Frame) -> None:
        self.online = event["online"]
        await self.send_json({"type": "presence", "online": event["online"]})

    async def access_changed(self, event: Frame) -> None:
        """Removed, revoked, disabled or signed out: closed at once. Another role: told, and posts follow it."""
        if not concerns(event, self.session_id):
            return
        access = await db(access_now)(self.session_id, self.caller, self.credential_live)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
        elif access.role != self.role:
            self.role = access.role
            await self.send_json({"type": "role", "role": access.role})
