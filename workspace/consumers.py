"""The browser workspace's live socket: ``/ws/sessions/<id>/ui/?since=<the page's head>`` (htmx
WebSocket extension).

It joins the session's group and, for every message after the page's head (sessions.delivery:
in order, once, those committed between the page's render and this join replayed from the log),
sends out-of-band swaps for this viewer's role: the thread entry, the map nodes the message added,
and those whose status it changed. They are rendered from the event, once per message and role for
every page the process serves (workspace.live).
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs
from uuid import UUID

from protocol.errors import ProtocolError
from sessions.access import Caller, SessionId, caller_for_principal, session_access
from sessions.delivery import Entry, Sequence, SequencedSocket, db, read_head
from sessions.events import AGENT_JOINED, CHAP_PRESENCE, session_group
from sessions.sockets import (
    CLOSE_FORBIDDEN,
    Frame,
    GuardedSocket,
    access_now,
    concerns,
    credential_of,
    error_frame,
    principal_of,
    whole_number,
)
from workspace.live import board_fragment, page_fragment
from workspace.traits import SCHEDULE_CHANGES


def since_of(query: dict[str, list[str]]) -> int | None:
    """The page's head (``?since=``), refused as a frame's ``since_seq`` would be when not a whole number."""
    if "since" not in query:
        return None
    text = query["since"][-1]
    return whole_number({"since": int(text) if text.isascii() and text.isdigit() else text}, "since")


class WorkspaceConsumer(SequencedSocket, GuardedSocket):
    # Presence is the CHAP socket's (the status bar reads agent_status messages), and agent.joined is
    # for the agent sockets of the agent that joined.
    IGNORED_EVENTS = frozenset({CHAP_PRESENCE, AGENT_JOINED})

    async def connect(self) -> None:
        self.session_id: UUID = self.scope["url_route"]["kwargs"]["session_id"]
        caller = caller_for_principal(self.scope.get("user"))
        access = await db(session_access)(self.session_id, caller) if caller and caller.kind == "human" else None
        if caller is None or access is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.caller: Caller = caller
        self.role, self.credential_live = access.role, credential_of(self.scope, caller)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        self.view = "schedule" if query.get("view") == ["schedule"] else "workspace"
        self.group, self.principal = session_group(self.session_id), principal_of(caller)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.principal, self.channel_name)
        # The head is read before the socket is accepted: what is committed once the page holds an open
        # socket comes live, never counted as already shown.
        head_seq, _ = await read_head(self.session_id)
        self.sequence = self.sequence_for(self.session_id, head_seq)
        await self.accept()
        try:
            since = since_of(query)
            if since is not None:
                await self.sequence.replay(since, "since")
        except ProtocolError as error:  # the page goes on live from the head; the error says why it was not resumed
            await self.send(text_data=json.dumps(error_frame(error), ensure_ascii=False))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            if hasattr(self, "sequence"):  # it left before it read the head
                self.sequence.close()
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.principal, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing it needs answered: forms post over HTTP, through the same services."""

    def sequence_of(self, event: Frame) -> Sequence:
        return self.sequence

    async def deliver(self, session_id: SessionId, entry: Entry) -> None:
        if self.view == "workspace":
            await self.send(text_data=await page_fragment(self.session_id, entry, self.role, self.caller))
        elif entry.payload_type in SCHEDULE_CHANGES:
            board = await board_fragment(self.session_id, entry, self.role)
            if board is not None:
                await self.send(text_data=board)

    async def access_changed(self, event: Frame) -> None:
        """Removed from the session or signed out: closed at once. Another role: what follows is
        rendered for it."""
        if not concerns(event, self.session_id):
            return
        access = await db(access_now)(self.session_id, self.caller, self.credential_live)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
        else:
            self.role = access.role
