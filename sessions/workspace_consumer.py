"""The browser workspace's live socket: ``/ws/sessions/<id>/ui/`` (htmx WebSocket extension).

It joins the session's group and, for every new message, sends out-of-band swaps rendered for this
viewer: the thread entry, the map nodes the message added, and those whose status it changed. The
group event carries the message; each connection renders its own fragment with its own role.
"""

from __future__ import annotations

from sessions.access import caller_for_principal, session_access
from sessions.chap.traits import SCHEDULE_CHANGES
from sessions.consumers import CLOSE_FORBIDDEN, GuardedSocket, concerns, db, principal_of
from sessions.events import AGENT_JOINED, CHAP_GAP_CHECK, CHAP_PRESENCE, session_group
from sessions.fragments import board_update, live_update
from sessions.models import Message, WorkSession


def _render(session_id, seq: int, role: str, caller) -> str | None:
    row = Message.objects.filter(session_id=session_id, seq=seq).values_list("envelope", "checksum").first()
    if row is None:
        return None
    envelope, checksum = row
    session = WorkSession.objects.get(pk=session_id)
    return live_update(session=session, seq=seq, envelope=envelope, checksum=checksum, role=role, caller=caller)


class WorkspaceConsumer(GuardedSocket):
    # Presence is the CHAP socket's (the status bar reads agent_status messages); the page's sequence
    # needs no gap checks, and agent.joined is for the agent sockets of the agent that joined.
    IGNORED_EVENTS = frozenset({CHAP_PRESENCE, CHAP_GAP_CHECK, AGENT_JOINED})

    async def connect(self):
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        caller = caller_for_principal(self.scope.get("user"))
        access = await db(session_access)(self.session_id, caller) if caller and caller.kind == "human" else None
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.role, self.caller = access.role, caller
        self.view = "schedule" if b"view=schedule" in self.scope.get("query_string", b"") else "workspace"
        self.group, self.principal = session_group(self.session_id), principal_of(caller)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.principal, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.principal, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing it needs answered: forms post over HTTP, through the same services."""

    async def chap_message(self, event):
        if self.view == "schedule":
            if event.get("payload_type") in SCHEDULE_CHANGES:
                await self.send(text_data=await db(board_update)(self.session_id, self.role))
            return
        html = await db(_render)(self.session_id, event["seq"], self.role, self.caller)
        if html:
            await self.send(text_data=html)

    async def access_changed(self, event):
        """Removed from the session: closed at once. Another role: what follows is rendered for it."""
        if not concerns(event, self.session_id):
            return
        access = await db(session_access)(self.session_id, self.caller)
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
        else:
            self.role = access.role
