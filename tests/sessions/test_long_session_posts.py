"""Posts sent while a fresh server opens a long session are each acknowledged and stored once: a real
Daphne, twenty agents on their sockets, and the session's page asked for as they post (the server
builds the session's graph from its log then). Building it inside the write lock once held up every
writer until it was done, and on SQLite they gave up ("database is locked") and lost their posts."""

import asyncio
import urllib.request

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.db import connections as db_connections

from agents.client import ChapClient
from sessions.models import Message
from tests.factories import make_session, make_user
from tests.live import DaphneServer, signed_in, ws_url
from tests.people import agents_in
from tests.sessions.envelopes import note
from tests.sessions.rounds import rounds

pytestmark = [pytest.mark.processes, pytest.mark.timeout(600)]

AGENTS = 20
EACH = 5


def test_agents_posting_while_a_fresh_server_opens_a_long_session_lose_nothing(transactional_db):
    owner = make_user()
    session = make_session(owner=owner)
    rounds(session, owner, 60)  # 360 messages, a third of them milestone checkpoints
    clients = agents_in(session, AGENTS)
    cookie = signed_in(owner)
    server = DaphneServer().start()

    def page() -> int:
        request = urllib.request.Request(f"{server.url}/sessions/{session.pk}/", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=300) as answer:
            return answer.status

    async def write(name: str, token: str) -> None:
        async with ChapClient([ws_url(server)], str(session.pk), token=token) as connection:
            for i in range(EACH):
                await connection.post(note(session, name, f"{name}-{i}"), timeout=120)

    async def scenario() -> int:
        opened = asyncio.create_task(asyncio.to_thread(page))
        await asyncio.gather(*(write(name, token) for name, token in clients))
        status = await opened
        await sync_to_async(db_connections.close_all)()
        return status

    try:
        assert asyncio.run(scenario()) == 200
    finally:
        server.stop()
    stored = Message.objects.filter(session=session, message_id__startswith="client").values_list("message_id")
    assert sorted(message_id for (message_id,) in stored) == sorted(
        f"{name}-{i}" for name, _ in clients for i in range(EACH)
    )
    call_command("verify_session", str(session.pk))
