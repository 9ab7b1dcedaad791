"""A viewer's stats.* request on a table of a million distinct keys, against a real Daphne server with a
small SAP budget: it ends within the budget with LIMIT_EXCEEDED or TIMEOUT, the server's memory stays
flat, and when the client hangs up the operation's process is gone and the server idles."""

import asyncio
import http.client
import json
import secrets
import threading
import time

import psutil
import pytest

from agents.operations.datasets.store import create_table, open_store
from agents.sap import format_block, parse
from agents.tokens import token_issue
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent, make_session, make_user
from tests.live import DaphneServer, open_socket, signed_in, wait_for

pytestmark = [pytest.mark.django_db(transaction=True, databases=["default", "datasets"]), pytest.mark.processes]

BUDGET_S = 10
KEYS = 1_000_000
MB = 1 << 20


@pytest.fixture
def keyed():
    """A session whose table ``keys`` has a million rows, each its own key; Vic views it."""
    owner, viewer = make_user("olga"), make_user("vic")
    session = make_session(owner=owner, members={viewer: "viewer"})
    with open_store(session.pk) as store, store.atomic():
        create_table(store, "keys", [{"name": "key", "type": "string"}, {"name": "amount", "type": "number"}])
        numbers = (
            f"SELECT g::text, mod(g, 7) FROM generate_series(1, {KEYS}) AS g"
            if store.postgres
            else f"WITH RECURSIVE n(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM n WHERE g < {KEYS}) "
            "SELECT CAST(g AS TEXT), g % 7 FROM n"
        )
        store.execute(f"INSERT INTO {store.qualified('keys')} (key, amount) {numbers}")
    return {"session": session, "viewer": viewer, "owner": owner}


@pytest.fixture
def server():
    server = DaphneServer(CHAP_SAP_MAX_SECONDS=str(BUDGET_S)).start()
    yield server
    server.stop()


def send_sap(server, cookie, session, body) -> http.client.HTTPConnection:
    """POST one stats.compare to the server as the viewer's browser; the connection, to read or drop."""
    csrf = secrets.token_hex(16)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=4 * BUDGET_S)
    text = format_block("query", "stats.compare", body, "s")
    headers = {
        "Cookie": f"{cookie}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Referer": f"{server.url}/",
        "Content-Type": "text/plain",
    }
    connection.request("POST", f"/api/sessions/{session.pk}/sap/", body=text.encode(), headers=headers)
    return connection


SOME_KEYS = {
    "table": "keys",
    "measure": "amount",
    "group_by": "key",
    "filters": {"column": "amount", "op": "=", "value": 0},
}


def stopped_when_the_client_goes(process: psutil.Process, hang_up) -> float:
    """Once the operation's process runs, ``hang_up()``: seconds until that process is gone, after
    checking the server idles then."""
    worker = wait_for(lambda: process.children(), timeout=BUDGET_S / 2, what="the operation's process")[0]
    time.sleep(1)
    assert worker.is_running()
    hung_up = time.monotonic()
    hang_up()
    wait_for(lambda: not process.children(), timeout=BUDGET_S, what="the operation's process to be stopped")
    gone_after = time.monotonic() - hung_up
    assert not worker.is_running()
    before = process.cpu_times()
    time.sleep(2)
    after = process.cpu_times()
    busy = (after.user - before.user) + (after.system - before.system)
    assert busy < 0.5, f"the server used {busy:.2f} s of CPU in the 2 s after the client left"
    print(f"hung up: the operation's process gone {gone_after:.1f} s later; server CPU {busy:.2f} s in the next 2 s")
    return gone_after


def stopped_records(session) -> list:
    """The audit records of operations stopped because their caller went away."""
    records = Message.objects.filter(session=session, payload_type="operation_record")
    return [r for r in records if r.envelope["payload"]["response"].get("details", {}).get("measure") == "caller"]


class Watch:
    """The server process's resident memory, sampled every 50 ms while the test runs."""

    def __init__(self, process: psutil.Process):
        self.process, self.peak, self.running = process, 0, True
        self.base = process.memory_info().rss
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self):
        while self.running:
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.05)

    def growth(self) -> int:
        self.running = False
        self.thread.join()
        return self.peak - self.base


def test_a_viewers_stats_on_a_million_keys_ends_within_the_budget_and_stops_when_the_client_goes(keyed, server):
    process = psutil.Process(server.process.pid)
    cookie = signed_in(keyed["viewer"])
    every_key = {"table": "keys", "measure": "amount", "group_by": "key"}

    watch = Watch(process)
    started = time.monotonic()
    connection = send_sap(server, cookie, keyed["session"], every_key)
    response = connection.getresponse()
    (answer,) = parse(response.read().decode())
    took = time.monotonic() - started
    growth = watch.growth()
    connection.close()
    assert response.status == 200 and answer.type == "error", answer.body
    assert answer.body["code"] in ("LIMIT_EXCEEDED", "TIMEOUT") and answer.body["suggestion"], answer.body
    assert took < BUDGET_S + 5, f"ended {took:.1f} s after it started; the budget is {BUDGET_S} s"
    assert growth < 500 * MB, f"the server grew by {growth / MB:.0f} MB"
    print(f"\nevery key: {answer.body['code']} after {took:.1f} s; server memory growth {growth / MB:.0f} MB")

    # A seventh of the keys: every page limit passes on either database, so the work runs on, until...
    sent = time.monotonic()
    connection = send_sap(server, cookie, keyed["session"], SOME_KEYS)
    stopped_when_the_client_goes(process, connection.close)  # ...the client hangs up
    assert time.monotonic() - sent < BUDGET_S, "stopped by the client's going, not by the budget's end"
    wait_for(lambda: stopped_records(keyed["session"]), timeout=BUDGET_S, what="the stopped operation's record")


def test_an_agents_heavy_operation_stops_when_its_socket_closes(keyed, server):
    agent = make_agent("counter", allowed_operations=["stats.*"])
    agent_join(session=keyed["session"], agent=agent)
    bearer = {"Authorization": f"Bearer {token_issue(agent=agent)}"}
    process = psutil.Process(server.process.pid)

    async def ask_and_leave():
        socket = await open_socket(server, "/ws/agents/", **bearer)
        assert json.loads(await socket.recv())["type"] == "hello"
        text = format_block("query", "stats.compare", SOME_KEYS, "s")
        await socket.send(json.dumps({"type": "sap", "ref": "r", "session_id": str(keyed["session"].pk), "text": text}))
        return socket

    loop = asyncio.new_event_loop()
    try:
        socket = loop.run_until_complete(ask_and_leave())
        sent = time.monotonic()
        stopped_when_the_client_goes(process, lambda: loop.run_until_complete(socket.close()))
        assert time.monotonic() - sent < BUDGET_S, "stopped by the socket's closing, not by the budget's end"
        wait_for(lambda: stopped_records(keyed["session"]), timeout=BUDGET_S, what="the stopped operation's record")
    finally:
        loop.close()
