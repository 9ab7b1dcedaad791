"""Overload may delay live delivery, never stop it: a real Daphne, real sockets, on whichever
configuration the suite runs (SQLite + in-memory layer, or PostgreSQL + Redis).

Twenty agents each post 200 messages with up to 16 unacknowledged (issue 40): far more than a channel
holds, so the layer drops broadcasts. Every socket must still receive every message, once and in order,
within 30 s of the last post, with no help from the client (no ping, no resume, no reconnect): the
server finds the gaps and the missing tail itself, and keeps every socket open. The sockets sit quiet
first for longer than the Redis layer's blocking receive, as a session's sockets do between turns.
None of them pings, so the server's heartbeat is set past the test: a writer that finished early
would otherwise be closed (4408) as the protocol says, for 75 s of silence, before the others."""

import asyncio
import os
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connections as db_connections

from agents.client import ChapClient
from sessions.models import Message
from tests.factories import make_session
from tests.live import DaphneServer, ws_url
from tests.people import agents_in
from tests.sessions.envelopes import note

pytestmark = [pytest.mark.processes, pytest.mark.timeout(900)]

WRITERS = int(os.environ.get("CHAP_FLOOD_WRITERS", 20))
EACH = int(os.environ.get("CHAP_FLOOD_MESSAGES", 200))
IN_FLIGHT = 16
QUIET_FIRST_S = 6  # longer than one blocking receive of the Redis layer (5 s)
CATCH_UP_S = 30  # issue 40: every socket has every message within 30 s of the last post


def test_a_burst_of_writers_reaches_every_socket_complete_in_order_and_in_time(transactional_db):
    session = make_session()
    clients = agents_in(session, WRITERS)
    total = WRITERS * EACH
    server = DaphneServer(CHAP_HEARTBEAT_S="3600").start()

    async def scenario():
        connections = [ChapClient([ws_url(server)], str(session.pk), token=token) for _, token in clients]
        for connection in connections:
            await connection.__aenter__()
        received: list[list[int]] = [[] for _ in connections]

        async def collect(index, connection):
            async for seq, _ in connection.messages():
                received[index].append(seq)

        async def write(connection, name):
            gate = asyncio.Semaphore(IN_FLIGHT)

            async def one(i):
                async with gate:
                    await connection.post(note(session, name, f"{name}-{i}"), timeout=120)

            await asyncio.gather(*(one(i) for i in range(EACH)))

        collectors = [asyncio.create_task(collect(i, c)) for i, c in enumerate(connections)]
        await asyncio.sleep(QUIET_FIRST_S)
        await asyncio.gather(*(write(c, name) for c, (name, _) in zip(connections, clients, strict=True)))
        deadline = time.monotonic() + CATCH_UP_S
        while min(len(seen) for seen in received) < total and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        for task in collectors:
            task.cancel()
        reconnects = [connection.reconnects for connection in connections]
        for connection in connections:
            await connection.close()
        await sync_to_async(db_connections.close_all)()
        return received, reconnects

    try:
        received, reconnects = asyncio.run(scenario())
    finally:
        server.stop()
    assert Message.objects.filter(session=session).count() == total
    assert reconnects == [0] * WRITERS, "a socket was closed under the burst and its client had to reconnect"
    short = {index: len(seen) for index, seen in enumerate(received) if len(seen) < total}
    assert short == {}, f"sockets short of {total} messages {CATCH_UP_S} s after the last post: {short}"
    for seen in received:
        assert seen == list(range(1, total + 1))
