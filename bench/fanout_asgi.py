"""The workbench's ASGI application plus a bare group-broadcast consumer, for bench/ws_fanout.py.

The bare consumer is the baseline: it relays each frame to a Channels group and does nothing else,
on the same server, channel layer and event loop as the real CHAP socket.
"""

from channels.generic.websocket import AsyncWebsocketConsumer

from workbench.asgi import application as workbench_application

BARE_GROUP = "bench.bare"


class BareBroadcastConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        await self.channel_layer.group_add(BARE_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(BARE_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(BARE_GROUP, {"type": "bare.frame", "text": text_data})

    async def bare_frame(self, event):
        await self.send(text_data=event["text"])


_bare = BareBroadcastConsumer.as_asgi()


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"] == "/ws/bench/bare/":
        return await _bare(scope, receive, send)
    return await workbench_application(scope, receive, send)
