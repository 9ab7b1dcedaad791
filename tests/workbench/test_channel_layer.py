"""The channel layers: the embedded one keeps a socket that fell behind in its groups; the Redis one
keeps a quiet socket listening and lets a burst of sockets leave their groups."""

import asyncio
import os
import uuid

import pytest

from workbench.env import channel_layer_from_url
from workbench.layers import EmbeddedChannelLayer, SharedChannelLayer


def test_a_socket_whose_queued_message_expired_still_hears_its_session():
    async def scenario():
        layer = EmbeddedChannelLayer(expiry=0.05)
        socket = await layer.new_channel()
        await layer.group_add("session", socket)
        await layer.group_send("session", {"type": "chap.message", "seq": 1})
        await asyncio.sleep(0.1)  # the socket was too busy to read it in time
        await layer.group_send("session", {"type": "chap.message", "seq": 2})
        return await asyncio.wait_for(layer.receive(socket), timeout=2)

    assert asyncio.run(scenario())["seq"] == 2


def shared_layer() -> SharedChannelLayer:
    """A fresh layer as settings configure it for REDIS_URL."""
    return SharedChannelLayer(**channel_layer_from_url(os.environ["REDIS_URL"])["CONFIG"])


on_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the layer shared between processes (Redis)")


@on_redis
def test_a_socket_that_hears_nothing_for_a_while_still_gets_the_next_message():
    """Redis ends channels-redis's blocking receive every 5 s; the client must not give up on it first
    (redis-py 8's 5 s read timeout did, and the socket waiting on it was closed with 1011)."""

    async def scenario():
        layer = shared_layer()
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        done, _ = await asyncio.wait({waiting}, timeout=12)  # two blocking receives and more
        assert not done, f"the quiet receive ended with {waiting.exception()!r}"
        await layer.send(channel, {"type": "chap.message", "seq": 1})
        message = await asyncio.wait_for(waiting, timeout=30)
        await layer.close_pools()
        return message

    assert asyncio.run(scenario())["seq"] == 1


@on_redis
def test_hundreds_of_sockets_closing_at_once_leave_their_group_and_the_rest_still_hear_it():
    """A burst of disconnects waits for the pool's connections instead of failing past its size."""
    sockets = 300

    async def scenario():
        layer = shared_layer()
        group = f"burst-{uuid.uuid4().hex}"
        channels = [await layer.new_channel() for _ in range(sockets)]
        await asyncio.gather(*(layer.group_add(group, channel) for channel in channels))
        await asyncio.gather(*(layer.group_discard(group, channel) for channel in channels[1:]))
        await layer.group_send(group, {"type": "chap.message", "seq": 1})
        message = await asyncio.wait_for(layer.receive(channels[0]), timeout=30)
        await layer.close_pools()
        return message

    assert asyncio.run(scenario())["seq"] == 1
