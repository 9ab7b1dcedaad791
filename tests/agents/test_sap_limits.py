"""What one SAP request through POST /api/sessions/<id>/sap/ may spend, and how its answer reaches the client."""

import asyncio
import re

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from agents import sap_service
from agents.operations.registry import workbench_registry
from agents.sap import Operation, Registry, format_block, parse
from agents.tokens import token_issue
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent, make_session, make_user
from workbench.asgi import application

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer_world():
    owner, viewer = make_user("olga"), make_user("vic")
    return {"session": make_session(owner=owner, members={viewer: "viewer"}), "owner": owner, "viewer": viewer}


def ping(block_id):
    return f'@@query:system.ping#{block_id}\n{{"echo": "{block_id}"}}\n@@end\n'


def run_as(user, session, text):
    client = APIClient()
    client.force_login(user)
    response = client.post(f"/api/sessions/{session.pk}/sap/", text, content_type="text/plain")
    assert response.status_code == 200
    return parse(b"".join(response.streaming_content).decode())


def records_of(session):
    return list(Message.objects.filter(session=session, payload_type="operation_record").order_by("seq"))


def test_a_request_runs_its_operation_budget_and_refuses_the_rest_in_one_block(viewer_world, settings):
    settings.CHAP_SAP_MAX_OPERATIONS = 5
    session = viewer_world["session"]
    responses = run_as(viewer_world["viewer"], session, "".join(ping(n) for n in range(300)))
    assert [r.type for r in responses] == ["result"] * 5 + ["error"]
    refusal = responses[-1].body
    assert refusal["code"] == "LIMIT_EXCEEDED" and refusal["details"]["budget"] == "operations"
    assert refusal["details"]["limit"] == 5 and refusal["details"]["refused"] == 295
    assert refusal["details"]["first_refused"] == {"name": "system.ping", "id": "5"}
    assert "295" in refusal["message"] and refusal["suggestion"]
    records = records_of(session)
    assert len(records) == 6, "five pings and one record of the refusal, not one per refused block"
    assert records[-1].envelope["payload"]["outcome"] == "error"
    assert records[-1].envelope["payload"]["response"]["code"] == "LIMIT_EXCEEDED"


def test_a_request_past_its_time_budget_refuses_the_blocks_not_started(viewer_world, settings):
    settings.CHAP_SAP_MAX_SECONDS = 0  # spent as soon as anything ran: the first block still runs
    session = viewer_world["session"]
    first, refusal = run_as(viewer_world["viewer"], session, ping("a") + ping("b") + ping("c"))
    assert first.type == "result" and first.body["echo"] == "a"
    assert refusal.body["code"] == "LIMIT_EXCEEDED" and refusal.body["details"]["budget"] == "time"
    assert refusal.body["details"]["refused"] == 2
    assert len(records_of(session)) == 2


def test_workflow_steps_spend_the_same_budget(viewer_world, settings):
    settings.CHAP_SAP_MAX_OPERATIONS = 3
    steps = [{"id": f"s{n}", "operation": "system.ping"} for n in range(5)]
    workflow = format_block("action", "workflow.execute", {"steps": steps}, "w")
    session = viewer_world["session"]
    *_progress, stopped, refusal = run_as(viewer_world["owner"], session, workflow + ping("after"))
    assert stopped.type == "error" and stopped.body["code"] == "LIMIT_EXCEEDED"
    assert stopped.body["details"]["completed"] == ["s0", "s1"], "the workflow and two steps spent the three"
    assert refusal.body["details"]["budget"] == "operations" and refusal.body["details"]["refused"] == 1


@pytest.fixture
def csv_world(viewer_world):
    session = viewer_world["session"]

    def upload_and_import(content):
        text = format_block("action", "file.write", {"path": "wide.csv", "content": content}, "w")
        text += format_block("action", "dataset.import-csv", {"path": "wide.csv", "table": "wide"}, "i")
        written, imported = run_as(viewer_world["owner"], session, text)
        assert written.type == "result", written.body
        return imported

    return upload_and_import


@pytest.mark.django_db(databases=["default", "datasets"])
def test_a_csv_field_over_the_limit_is_refused_with_its_line(csv_world):
    refused = csv_world("id,note\n1,short\n2," + "x" * 140_000 + "\n")
    assert refused.type == "error" and refused.body["code"] == "LIMIT_EXCEEDED", refused.body
    assert refused.body["details"] == {"line": 3, "limit_chars": 131_072}
    assert "longer than 131,072 characters" in refused.body["message"] and refused.body["suggestion"]


@pytest.mark.django_db(databases=["default", "datasets"])
def test_a_csv_field_at_the_limit_loads(csv_world):
    loaded = csv_world("id,note\n1," + "x" * 131_072 + "\n")
    assert loaded.type == "result" and loaded.body["rows_loaded"] == 1, loaded.body


class Exchange:
    """One HTTP request through the workbench's ASGI application, as Daphne hands it over; ``log``
    holds, in order, what the test's operation computed and which blocks the client was sent."""

    def __init__(self):
        self.log = []
        self.status = None
        self.finished = asyncio.Event()

    def run(self, path, body, headers):
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [
                (name.encode(), value.encode())
                for name, value in {**headers, "content-length": str(len(body.encode()))}.items()
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        async_to_sync(application)(scope, self.receive(body), self.send)

    def receive(self, body):
        messages = [{"type": "http.request", "body": body.encode(), "more_body": False}]

        async def next_message():
            if messages:
                return messages.pop()
            await self.finished.wait()
            return {"type": "http.disconnect"}

        return next_message

    async def send(self, message):
        if message["type"] == "http.response.start":
            self.status = message["status"]
        elif message["type"] == "http.response.body":
            text = message.get("body", b"").decode()
            self.log += [f"sent {block_id}" for block_id in re.findall(r"^@@\w+:[\w.-]+#(\w+)", text, re.M)]
            if not message.get("more_body"):
                self.finished.set()


@pytest.fixture
def computing(monkeypatch):
    """An operation, test.compute, that notes in the exchange's log when it runs."""
    exchange = Exchange()

    def compute(call, params):
        exchange.log.append(f"computed {call.block.id}")
        return {"status": "done"}

    operation = Operation("test.compute", "query", "Notes that it ran.", compute)
    monkeypatch.setattr(sap_service, "workbench_registry", lambda: Registry([*workbench_registry(), operation]))
    return exchange


@pytest.mark.django_db(transaction=True)
def test_each_block_reaches_the_client_before_the_next_is_computed(computing, viewer_world):
    agent = make_agent("worker", allowed_operations=["test.*"])
    agent_join(session=viewer_world["session"], agent=agent)
    blocks = ping("p") + "".join(format_block("query", "test.compute", {}, name) for name in ("q1", "q2", "q3"))
    computing.run(
        f"/api/sessions/{viewer_world['session'].pk}/sap/",
        blocks,
        {"authorization": f"Bearer {token_issue(agent=agent)}", "content-type": "text/plain"},
    )
    assert computing.status == 200
    assert computing.log == ["sent p", "computed q1", "sent q1", "computed q2", "sent q2", "computed q3", "sent q3"]
