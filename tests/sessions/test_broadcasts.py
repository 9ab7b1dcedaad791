"""Broadcasts from synchronous code outside a server (the worker, a command) reach every subscriber, in
order, through a layer shared between processes; they go out on one loop the process keeps for them."""

import asyncio
import os
import uuid

import pytest
from channels.layers import get_channel_layer

from sessions.events import CHAP_PRESENCE, send_on_commit, session_group

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="a layer shared between processes (Redis)"),
    pytest.mark.django_db,
]


def test_broadcasts_from_a_thread_without_a_loop_reach_a_subscriber_in_order():
    session_id = uuid.uuid4()
    layer = get_channel_layer()

    def worker_posts():
        for n in range(30):
            send_on_commit(session_id, {"type": CHAP_PRESENCE, "online": [str(n)]})

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add(session_group(session_id), channel)
        await asyncio.get_running_loop().run_in_executor(None, worker_posts)
        received = [await asyncio.wait_for(layer.receive(channel), timeout=30) for _ in range(30)]
        await layer.group_discard(session_group(session_id), channel)
        return [event["online"][0] for event in received]

    assert asyncio.run(scenario()) == [str(n) for n in range(30)]
