"""Every event that travels over the channel layer reaches every consumer without closing a socket
(the idea of Zulip's event verification tests): each consumer handles each declared type or ignores
it on purpose, and whatever fails while handling one leaves the socket open."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from agents.consumers import AgentConsumer
from sessions.access import caller_for_user
from sessions.consumers import SessionConsumer
from sessions.events import (
    ACCESS_CHANGED,
    AGENT_JOINED,
    CHAP_MESSAGE,
    CHAP_PRESENCE,
    EVENT_TYPES,
    message_frame,
    send_on_commit,
    session_group,
)
from sessions.membership import session_update
from sessions.models import Message
from tests.factories import post_message
from tests.people import clerk_world
from tests.sessions import envelopes
from tests.sockets import bearer_headers, cookie_headers
from workbench.asgi import application
from workspace.consumers import WorkspaceConsumer

pytestmark = pytest.mark.django_db(transaction=True)
CONSUMERS = (SessionConsumer, AgentConsumer, WorkspaceConsumer)


def example_events(session) -> dict[str, dict]:
    """One event of every declared type, shaped as its sender shapes it."""
    seq, envelope = Message.objects.filter(session=session).values_list("seq", "envelope").latest("seq")
    return {
        CHAP_MESSAGE: {
            "type": CHAP_MESSAGE,
            "session_id": str(session.pk),
            "seq": seq,
            "payload_type": envelope["payload_type"],
            "frame": message_frame(seq, envelope),
        },
        CHAP_PRESENCE: {"type": CHAP_PRESENCE, "online": ["human:olga", "agent:clerk"]},
        AGENT_JOINED: {"type": AGENT_JOINED, "session_id": str(session.pk)},
        ACCESS_CHANGED: {"type": ACCESS_CHANGED, "session_id": str(session.pk)},
    }


@pytest.fixture
def world():
    world = clerk_world()
    post_message(world["session"], caller_for_user(world["owner"]), envelopes.proposal)
    return world


class Sockets:
    """A human's and an agent's CHAP socket, the agent socket, and the page's socket (both views)."""

    def __init__(self, world):
        session, cookies, bearer = (
            world["session"],
            cookie_headers(None, world["owner"]),
            bearer_headers(world["token"]),
        )
        chap = f"/ws/sessions/{session.pk}/chap/"
        self.json = {
            "human chap": WebsocketCommunicator(application, chap, headers=cookies),
            "agent chap": WebsocketCommunicator(application, chap, headers=bearer),
            "agent socket": WebsocketCommunicator(application, "/ws/agents/", headers=bearer),
        }
        self.pages = {
            "workspace": WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/ui/", headers=cookies),
            "schedule": WebsocketCommunicator(
                application, f"/ws/sessions/{session.pk}/ui/?view=schedule", headers=cookies
            ),
        }

    async def open(self):
        for communicator in [*self.json.values(), *self.pages.values()]:
            connected, _ = await communicator.connect()
            assert connected
        for communicator in self.json.values():
            assert (await communicator.receive_json_from(timeout=30))["type"] == "hello"

    async def assert_all_open(self):
        """Each JSON socket answers a ping; each page socket was sent no close."""
        for name, communicator in self.json.items():
            await communicator.send_to(text_data=json.dumps({"type": "ping"}))
            while True:
                output = await communicator.receive_output(timeout=5)
                assert output["type"] != "websocket.close", f"{name} was closed with {output.get('code')}"
                if json.loads(output["text"])["type"] == "pong":
                    break
        for name, communicator in self.pages.items():
            while not await communicator.receive_nothing(timeout=0.3):
                output = await communicator.receive_output()
                assert output["type"] != "websocket.close", f"{name} was closed with {output.get('code')}"

    async def close(self):
        for communicator in [*self.json.values(), *self.pages.values()]:
            await communicator.disconnect()


def test_every_consumer_handles_or_ignores_every_declared_event_type():
    for consumer in CONSUMERS:
        for event_type in EVENT_TYPES:
            handled = callable(getattr(consumer, event_type.replace(".", "_"), None))
            ignored = event_type in consumer.IGNORED_EVENTS
            assert handled != ignored, f"{consumer.__name__}: {event_type} handled={handled} ignored={ignored}"


def test_every_declared_event_sent_to_every_consumer_leaves_every_socket_open(world):
    events = example_events(world["session"])
    assert set(events) == EVENT_TYPES  # a new event type needs an example here
    sockets = Sockets(world)

    async def scenario():
        await sockets.open()
        try:
            layer = get_channel_layer()
            for event in events.values():
                await layer.group_send(session_group(world["session"].pk), event)
            await sockets.assert_all_open()
        finally:
            await sockets.close()

    async_to_sync(scenario)()


def test_renaming_a_session_and_marking_it_done_leave_every_socket_open(world):
    sockets = Sockets(world)
    owner = caller_for_user(world["owner"])

    async def scenario():
        await sockets.open()
        try:
            await database_sync_to_async(session_update)(
                session_id=world["session"].pk, caller=owner, title="Stock take", state="done"
            )
            await sockets.assert_all_open()
        finally:
            await sockets.close()

    async_to_sync(scenario)()


def test_a_human_opening_the_chap_socket_leaves_the_agents_sockets_open(world):
    bearer = bearer_headers(world["token"])
    agent_socket = WebsocketCommunicator(application, "/ws/agents/", headers=bearer)
    human = WebsocketCommunicator(
        application, f"/ws/sessions/{world['session'].pk}/chap/", headers=cookie_headers(None, world["owner"])
    )

    async def scenario():
        assert (await agent_socket.connect())[0]
        assert (await agent_socket.receive_json_from(timeout=30))["type"] == "hello"
        assert (await human.connect())[0]
        await agent_socket.send_to(text_data=json.dumps({"type": "ping"}))
        output = await agent_socket.receive_output(timeout=5)
        assert output["type"] == "websocket.send" and json.loads(output["text"])["type"] == "pong"
        await human.disconnect()
        await agent_socket.disconnect()

    async_to_sync(scenario)()


def test_an_undeclared_event_is_never_sent_and_one_arriving_anyway_closes_nothing(world):
    with pytest.raises(ValueError, match="undeclared event type"):
        send_on_commit(world["session"].pk, {"type": "chap.session", "title": "x"})
    sockets = Sockets(world)

    async def scenario():
        await sockets.open()
        try:
            await get_channel_layer().group_send(session_group(world["session"].pk), {"type": "chap.session"})
            await sockets.assert_all_open()
        finally:
            await sockets.close()

    async_to_sync(scenario)()
