"""The embedded channel layer keeps a socket that fell behind in its groups."""

import asyncio

from workbench.layers import EmbeddedChannelLayer


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
