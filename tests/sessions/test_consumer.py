"""The session socket through the real ASGI stack (channels' WebsocketCommunicator)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from agents.tokens import token_issue, token_revoke
from sessions.events import message_frame
from sessions.membership import agent_join
from sessions.models import WorkSession
from tests.factories import make_agent, make_user
from tests.sessions import envelopes
from tests.sockets import Socket, bearer_headers, cookie_headers, run

pytestmark = pytest.mark.django_db(transaction=True)


def envelope_for(session, sender, factory=envelopes.proposal, **kwargs):
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    return factory(
        session_id=session.pk, context_checksum=kwargs.pop("context_checksum", head), sender=sender, **kwargs
    )


def test_post_is_acked_and_delivered_once_to_every_member_connection(client, session, alice):
    bob = make_user("bob")
    session.memberships.create(user=bob, role="editor")
    alice_headers, bob_headers = cookie_headers(client, alice), cookie_headers(client, bob)
    first = envelope_for(session, ("human", "alice"), message_id="m1")

    async def scenario():
        a, b = Socket(session, alice_headers), Socket(session, bob_headers)
        try:
            assert (await a.open())[0] and (await b.open())[0]
            hello = await a.receive()
            await b.receive()
            await a.receive_until(lambda frame: frame.get("online") == ["human:alice", "human:bob"])
            await a.send(first)
            # The ack and the sender's own copy may come in either order.
            ack, mine = sorted([await a.receive(), await a.receive()], key=lambda frame: frame["type"])
            theirs = await b.receive_until("message")
            assert await a.communicator.receive_nothing(timeout=0.3)
            return hello, ack, mine, theirs
        finally:
            await a.close()
            await b.close()

    hello, ack, mine, theirs = run(scenario)
    assert hello["head_seq"] == 0 and hello["heartbeat_s"] == 30 and hello["role"] == "owner"
    assert (ack["message_id"], ack["seq"]) == ("m1", 1)
    assert mine == theirs
    assert mine["seq"] == 1 and mine["envelope"]["message_id"] == "m1"
    assert mine["envelope"]["payload"] == first["payload"]


def test_invalid_envelope_gets_a_structured_error_frame(client, session, alice):
    headers = cookie_headers(client, alice)
    bad = envelope_for(session, ("human", "alice"), message_id="bad")
    bad["payload"] = {}

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            await socket.send(bad)
            return await socket.receive()
        finally:
            await socket.close()

    frame = run(scenario)
    assert frame["type"] == "error" and frame["message_id"] == "bad"
    assert frame["error"]["code"] == "INVALID_MESSAGE"
    assert set(frame["error"]) >= {"code", "message", "category", "details", "suggestion", "retryable"}


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "INVALID_FRAME"),
        ("[1, 2]", "INVALID_FRAME"),
        (json.dumps({"type": "dance"}), "INVALID_FRAME"),
        (json.dumps({"type": "resume", "since_seq": -1}), "INVALID_FRAME"),
        ("x" * (1024 * 1024 + 1), "MESSAGE_TOO_LARGE"),
    ],
)
def test_bad_frames_get_errors_and_the_connection_lives_on(client, session, alice, frame, code):
    headers = cookie_headers(client, alice)

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            await socket.send(frame)
            error = await socket.receive()
            await socket.send({"type": "ping"})
            pong = await socket.receive()
            return error, pong
        finally:
            await socket.close()

    error, pong = run(scenario)
    assert error["error"]["code"] == code
    assert pong["type"] == "pong" and pong["head_seq"] == 0


def test_rate_limit_is_retryable(client, session, alice, settings):
    settings.CHAP_WS_BURST = 3
    settings.CHAP_WS_RATE_PER_S = 1
    headers = cookie_headers(client, alice)

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            frames = []
            for _ in range(5):
                await socket.send({"type": "ping"})
                frames.append(await socket.receive())
            return frames
        finally:
            await socket.close()

    frames = run(scenario)
    assert [f["type"] for f in frames] == ["pong", "pong", "pong", "error", "error"]
    assert frames[3]["error"]["code"] == "RATE_LIMITED" and frames[3]["error"]["retryable"] is True


def test_resume_replays_in_order_and_live_messages_are_not_doubled(client, session, alice):
    headers = cookie_headers(client, alice)
    from sessions.access import caller_for_user
    from sessions.log import message_post

    for n in range(1, 6):
        message_post(
            session_id=session.pk,
            caller=caller_for_user(alice),
            envelope=envelope_for(session, ("human", "alice"), message_id=f"old{n}"),
        )
    live = envelope_for(session, ("human", "alice"), message_id="live")

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            hello = await socket.receive()
            await socket.send({"type": "resume", "since_seq": 2})
            await socket.send(live)
            frames = [await socket.receive() for _ in range(6)]
            assert await socket.communicator.receive_nothing(timeout=0.3)
            return hello, frames
        finally:
            await socket.close()

    hello, frames = run(scenario)
    assert hello["head_seq"] == 5
    kinds = [(f["type"], f.get("seq")) for f in frames]
    assert kinds[:4] == [("message", 3), ("message", 4), ("message", 5), ("resumed", None)]
    assert sorted(kinds[4:], key=str) == sorted([("ack", 6), ("message", 6)], key=str)


def test_broadcasts_already_delivered_by_a_replay_are_dropped(client, session, alice, monkeypatch):
    from sessions import log
    from sessions.access import caller_for_user
    from sessions.events import session_group

    headers = cookie_headers(client, alice)
    # Store three messages without broadcasting them, as if their broadcasts were still in flight.
    monkeypatch.setattr(log, "send_on_commit", lambda session_id, event: None)
    stored = [
        log.message_post(
            session_id=session.pk,
            caller=caller_for_user(alice),
            envelope=envelope_for(session, ("human", "alice"), message_id=f"g{n}"),
        )
        for n in (1, 2, 3)
    ]
    third = WorkSession.objects.get(pk=session.pk).messages.get(seq=3).envelope

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            hello = await socket.receive()
            await socket.send({"type": "resume", "since_seq": 0})
            await socket.receive_until("resumed")
            layer = get_channel_layer()
            group = session_group(session.pk)
            await socket.send({"type": "resume", "since_seq": 1})
            replayed = [await socket.receive(), await socket.receive()]
            await socket.receive_until("resumed")
            await layer.group_send(group, {"type": "chap.message", "seq": 3, "frame": message_frame(3, third)})
            await layer.group_send(group, {"type": "chap.message", "seq": 2, "frame": message_frame(2, {})})
            assert await socket.communicator.receive_nothing(timeout=0.3)
            return hello, replayed
        finally:
            await socket.close()

    hello, replayed = run(scenario)
    assert hello["head_seq"] == 3 and [ack.seq for ack in stored] == [1, 2, 3]
    assert [f["seq"] for f in replayed] == [2, 3]


def test_a_broadcast_ahead_of_the_connection_fills_the_gap_first(client, session, alice, monkeypatch):
    from sessions import log
    from sessions.access import caller_for_user
    from sessions.events import session_group

    headers = cookie_headers(client, alice)
    monkeypatch.setattr(log, "send_on_commit", lambda session_id, event: None)

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            for n in (1, 2, 3):
                await database_sync_to_async(log.message_post)(
                    session_id=session.pk,
                    caller=caller_for_user(alice),
                    envelope=await database_sync_to_async(envelope_for)(
                        session, ("human", "alice"), message_id=f"g{n}"
                    ),
                )
            third = await database_sync_to_async(lambda: session.messages.get(seq=3).envelope)()
            await get_channel_layer().group_send(
                session_group(session.pk), {"type": "chap.message", "seq": 3, "frame": message_frame(3, third)}
            )
            frames = [await socket.receive() for _ in range(3)]
            assert await socket.communicator.receive_nothing(timeout=0.3)
            return frames
        finally:
            await socket.close()

    frames = run(scenario)
    assert [(f["seq"], f["envelope"]["message_id"]) for f in frames] == [(1, "g1"), (2, "g2"), (3, "g3")]


def test_agent_connects_with_its_bearer_token_and_a_revoked_one_is_refused(session):
    agent = make_agent("planner")
    agent_join(session=session, agent=agent)
    token = token_issue(agent=agent)
    stranger = make_agent("stranger")
    stranger_token = token_issue(agent=stranger)

    async def connect(token_value):
        socket = Socket(session, bearer_headers(token_value))
        try:
            connected, code = await socket.open()
            hello = await socket.receive() if connected else None
            return connected, code, hello
        finally:
            await socket.close()

    connected, _, hello = async_to_sync(connect)(token)
    assert connected and hello["role"] == "agent"
    assert async_to_sync(connect)(stranger_token)[:2] == (False, 4403)
    assert async_to_sync(connect)("chap_not-a-real-token")[:2] == (False, 4403)
    token_revoke(token=agent.tokens.get())
    assert async_to_sync(connect)(token)[:2] == (False, 4403)


def test_viewer_may_listen_but_not_post(client, session):
    viewer = make_user("vera")
    session.memberships.create(user=viewer, role="viewer")
    headers = cookie_headers(client, viewer)
    message = envelope_for(session, ("human", "vera"))

    async def scenario():
        socket = Socket(session, headers)
        try:
            assert (await socket.open())[0]
            await socket.receive()
            await socket.send(message)
            return await socket.receive()
        finally:
            await socket.close()

    assert run(scenario)["error"]["code"] == "PERMISSION_DENIED"


def test_presence_is_broadcast_when_it_changes(client, session, alice):
    agent = make_agent("planner")
    agent_join(session=session, agent=agent)
    token = token_issue(agent=agent)
    headers = cookie_headers(client, alice)

    async def scenario():
        human = Socket(session, headers)
        bot = Socket(session, bearer_headers(token))
        try:
            await human.open()
            await human.receive()
            joined = await human.receive_until("presence")
            await bot.open()
            both = await human.receive_until("presence")
            await bot.close()
            left = await human.receive_until("presence")
            return joined, both, left
        finally:
            await human.close()

    joined, both, left = run(scenario)
    assert joined["online"] == ["human:alice"]
    assert both["online"] == ["agent:planner", "human:alice"]
    assert left["online"] == ["human:alice"]


def test_silent_connection_is_closed_after_the_heartbeat_timeout(client, session, alice, settings):
    settings.CHAP_HEARTBEAT_S = 0.2
    headers = cookie_headers(client, alice)

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            while True:
                output = await socket.communicator.receive_output(timeout=3)
                if output["type"] == "websocket.close":
                    return output
        finally:
            await socket.close()

    assert run(scenario)["code"] == 4408


def test_connections_of_a_crashed_process_go_offline_at_the_next_heartbeat(client, session, alice):
    from datetime import timedelta

    from django.utils import timezone

    from sessions.models import Presence

    agent = make_agent("ghost")
    agent_join(session=session, agent=agent)
    # A row left behind by a process that died: nothing will ever delete it.
    Presence.objects.create(session=session, participant="agent:ghost", channel_name="dead-process-channel")
    headers = cookie_headers(client, alice)

    async def scenario():
        socket = Socket(session, headers)
        try:
            await socket.open()
            await socket.receive()
            first = await socket.receive_until("presence")
            await database_sync_to_async(
                lambda: Presence.objects.filter(channel_name="dead-process-channel").update(
                    last_seen=timezone.now() - timedelta(minutes=10)
                )
            )()
            await socket.send({"type": "ping"})
            after = await socket.receive_until("presence")
            return first, after
        finally:
            await socket.close()

    first, after = run(scenario)
    assert first["online"] == ["agent:ghost", "human:alice"]
    assert after["online"] == ["human:alice"]
