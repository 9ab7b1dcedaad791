"""Real Daphne processes on PostgreSQL + Redis, real WebSocket clients (agents.client)."""

import asyncio
import html
import os
import re
import time
import urllib.request

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.db import connections as db_connections

from agents.client import ChapClient
from sessions.models import Message
from tests.factories import make_session, make_user
from tests.live import open_socket, requires_scale, signed_in, ws_url
from tests.people import agents_in
from tests.sessions.envelopes import note

pytestmark = [requires_scale, pytest.mark.processes]

FAULT_CLIENTS = int(os.environ.get("CHAP_FAULT_CLIENTS", 20))
# 20 writers of 200 messages each (4,000, every one to 20 readers): about 100 s on two cores. Set
# CHAP_FAULT_CLIENTS and CHAP_FAULT_MESSAGES higher for a longer soak (500 each took 254 s).
FAULT_MESSAGES = int(os.environ.get("CHAP_FAULT_MESSAGES", 200))


async def drain_until(client, head, timeout=120):
    """Collect delivered messages until the client has seen ``head`` of them."""
    seen = []
    deadline = time.monotonic() + timeout
    while client.last_seq < head or not client._inbox.empty():
        if time.monotonic() > deadline:
            raise AssertionError(f"stuck at {client.last_seq} of {head}")
        try:
            seq, item = await client.next_message(timeout=2)
        except TimeoutError:
            await client.ping()
            continue
        if seq is not None:
            seen.append((seq, item["message_id"]))
    return seen


def test_clients_on_two_servers_see_the_same_sequence(two_servers):
    session = make_session()
    (a_name, a_token), (b_name, b_token) = agents_in(session, 2)
    per_client = int(os.environ.get("CHAP_ORDER_MESSAGES", 40))

    async def scenario():
        async with (
            ChapClient([ws_url(two_servers[0])], str(session.pk), token=a_token) as a,
            ChapClient([ws_url(two_servers[1])], str(session.pk), token=b_token) as b,
        ):

            async def write(client, name):
                for i in range(per_client):
                    await client.post(note(session, name, f"{name}-{i}"))

            await asyncio.gather(write(a, a_name), write(b, b_name))
            return await drain_until(a, 2 * per_client), await drain_until(b, 2 * per_client)

    seen_a, seen_b = asyncio.run(scenario())
    assert seen_a == seen_b
    assert [seq for seq, _ in seen_a] == list(range(1, 2 * per_client + 1))
    stored = list(Message.objects.filter(session=session).order_by("seq").values_list("seq", "message_id"))
    assert seen_a == stored


def test_a_page_from_one_server_goes_on_from_its_head_over_the_other(two_servers):
    """The workspace page rendered by server A, its socket on server B: what agents post through both
    servers after the page's head, before the socket joins and while it does, arrives once, in order."""
    server_a, server_b = two_servers
    owner = make_user("olga")
    session = make_session(owner=owner)
    (a_name, a_token), (b_name, b_token) = agents_in(session, 2)
    cookie = signed_in(owner)
    request = urllib.request.Request(f"{server_a.url}/sessions/{session.pk}/", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=10) as response:
        path = html.unescape(re.search(r'ws-connect="([^"]+)"', response.read().decode())[1])
    head = int(re.search(r"since=(\d+)", path)[1])
    per_client = 10

    async def scenario():
        async with (
            ChapClient([ws_url(server_a)], str(session.pk), token=a_token) as a,
            ChapClient([ws_url(server_b)], str(session.pk), token=b_token) as b,
        ):

            async def write(client, name, numbers):
                for i in numbers:
                    await client.post(note(session, name, f"{name}-{i}"))

            await write(a, a_name, range(3))  # between the page's render and its socket's join
            page = await open_socket(server_b, path, Cookie=cookie, Origin=server_b.url)
            await asyncio.gather(write(a, a_name, range(3, per_client)), write(b, b_name, range(per_client)))
            shown = []
            while not shown or shown[-1] < head + 2 * per_client:
                fragment = await asyncio.wait_for(page.recv(), 30)
                shown += [int(seq) for seq in re.findall(r'<data id="page-seq" value="(\d+)"', fragment)]
            await page.close()
            return shown

    assert asyncio.run(scenario()) == list(range(head + 1, head + 2 * per_client + 1))


@pytest.mark.timeout(900)
def test_no_message_lost_or_doubled_while_a_server_is_killed_and_restarted(two_servers):
    session = make_session()
    clients = agents_in(session, FAULT_CLIENTS)
    total = FAULT_CLIENTS * FAULT_MESSAGES
    servers = [ws_url(server) for server in two_servers]

    async def scenario():
        connections = [
            ChapClient(servers[n % 2 :] + servers[: n % 2], str(session.pk), token=token)
            for n, (_, token) in enumerate(clients)
        ]
        for connection in connections:
            await connection.__aenter__()
        collected = [[] for _ in connections]

        async def collect(index, connection):
            while True:
                seq, item = await connection.next_message()
                if seq is not None:
                    collected[index].append((seq, item["message_id"]))

        async def write(connection, name):
            for i in range(FAULT_MESSAGES):
                await connection.post(note(session, name, f"{name}-{i}"))

        async def chaos():
            victim = two_servers[0]
            stored = sync_to_async(lambda: Message.objects.filter(session=session).count())
            while await stored() < total // 4:
                await asyncio.sleep(0.2)
            if os.environ.get("CHAP_FAULT_KILL") == "0":
                return
            victim.process.kill()
            await asyncio.to_thread(victim.process.wait)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(victim.start)

        collectors = [asyncio.create_task(collect(i, c)) for i, c in enumerate(connections)]
        await asyncio.gather(chaos(), *(write(c, name) for c, (name, _) in zip(connections, clients, strict=True)))
        deadline = time.monotonic() + 180
        while min(len(seen) for seen in collected) < total and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            for connection in connections:
                await connection.ping()
        for task in collectors:
            task.cancel()
        reconnects = sum(c.reconnects for c in connections)
        for connection in connections:
            await connection.close()
        await sync_to_async(db_connections.close_all)()  # the ORM thread's connection, before teardown
        return collected, reconnects

    collected, reconnects = asyncio.run(scenario())
    stored = list(Message.objects.filter(session=session).order_by("seq").values_list("seq", "message_id"))
    assert len(stored) == total
    assert len({message_id for _, message_id in stored}) == total
    for seen in collected:
        assert seen == stored
    assert reconnects > 0, "the killed server's clients should have reconnected"
    call_command("verify_session", str(session.pk))
