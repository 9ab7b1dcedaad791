from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from sessions.selectors import membership_of

# Close code for "not allowed": the same for a missing session and a non-member,
# so a refused client learns nothing about whether the session exists.
CLOSE_FORBIDDEN = 4403


def session_group(session_id) -> str:
    return f"chap.session.{session_id}"


class SessionConsumer(AsyncJsonWebsocketConsumer):
    """The CHAP socket of one session: authorise in connect, join the group, then say hello."""

    async def connect(self):
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        membership = await database_sync_to_async(membership_of)(session_id=self.session_id, user=self.scope["user"])
        if membership is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = session_group(self.session_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "session_id": str(self.session_id)})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
