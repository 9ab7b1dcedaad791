"""Socket helpers: headers a browser or an agent sends, communicators on the real ASGI application,
and reading what the server sends back."""

import json

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from workbench.asgi import application

# What a browser sends with a socket opened from one of the workbench's own pages.
SAME_ORIGIN = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


def cookie_headers(_client, user):
    client = Client()  # one browser per user: logging another user in would end the first one's session
    client.force_login(user)
    return [*SAME_ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


def bearer_headers(token):
    return [(b"authorization", f"Bearer {token}".encode())]


class Socket:
    """One connection; ``run`` drives a coroutine scenario to the end and always disconnects."""

    def __init__(self, session, headers):
        self.communicator = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/chap/", headers=headers)

    async def open(self):
        connected, code = await self.communicator.connect()
        return connected, code

    async def send(self, frame):
        await self.communicator.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def receive(self, timeout=5):
        """The next frame that is not a presence update (those come whenever someone joins)."""
        return await self.receive_until(lambda frame: frame["type"] != "presence", timeout)

    async def receive_until(self, wanted, timeout=5):
        """The next frame of type ``wanted`` (or for which ``wanted(frame)`` holds), skipping others."""
        while True:
            frame = await self.communicator.receive_json_from(timeout=timeout)
            if wanted(frame) if callable(wanted) else frame["type"] == wanted:
                return frame

    async def close(self):
        await self.communicator.disconnect()


def chap_socket(world, headers):
    return WebsocketCommunicator(application, f"/ws/sessions/{world['session'].pk}/chap/", headers=headers)


def agent_socket(token):
    return WebsocketCommunicator(application, "/ws/agents/", headers=bearer_headers(token))


def ui_socket(world, headers):
    return WebsocketCommunicator(application, f"/ws/sessions/{world['session'].pk}/ui/", headers=headers)


async def opened(socket):
    connected, code = await socket.connect()
    assert connected, code
    return socket


async def close_code(socket, timeout=3):
    """The code the server closed the socket with, skipping what it sent before."""
    while True:
        output = await socket.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output.get("code")


async def frame_of(socket, kind, timeout=3):
    while True:
        output = await socket.receive_output(timeout=timeout)
        assert output["type"] == "websocket.send", output
        frame = json.loads(output["text"])
        if frame["type"] == kind:
            return frame


def run(scenario, *args):
    return async_to_sync(scenario)(*args)


def closed_by(socket, action, *, greeted=False):
    """The code ``socket`` closes with once ``action`` (a database change) has run while it was open;
    ``greeted`` waits for the hello first, so the change lands on a socket known to be serving."""

    async def scenario():
        await opened(socket)
        if greeted:
            await frame_of(socket, "hello")
        await database_sync_to_async(action)()
        return await close_code(socket)

    return run(scenario)
