"""The agent socket keeps listening while SAP requests run: pings are answered, tasks taken and messages
delivered meanwhile, each result comes back under its request's ``ref``, a connection runs a bounded
number of requests at once, and a disconnect leaves nothing waiting on it."""

import asyncio
import threading
import time

import pytest
from asgiref.sync import async_to_sync

from agents import sap_service
from agents.consumers import MAX_SAP_IN_FLIGHT
from agents.models import TaskState
from agents.operations.registry import workbench_registry
from agents.sap.blocks import format_block
from agents.sap.registry import Operation, Registry
from agents.scheduling.acts import task_create
from sessions.access import caller_for_user
from sessions.models import Message
from tests.people import clerk_world
from tests.sockets import agent_socket, frame_of, opened

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "datasets"])
WAIT = 30  # seconds a frame the test expects may take on a busy machine; it comes as soon as it is sent


class Gate:
    """test.wait, an operation that runs until the test opens the gate: a SAP request as slow as it needs."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.running = threading.Semaphore(0)

    def wait(self, call, params):
        self.running.release()
        assert self.opened.wait(WAIT * 2), "the test never opened the gate"
        return {"waited": call.block.id}

    def started(self, count=1):
        """Blocks until ``count`` more requests are inside the operation."""
        for _ in range(count):
            assert self.running.acquire(timeout=WAIT), "a SAP request never started"


@pytest.fixture
def gate(monkeypatch):
    gate = Gate()
    operation = Operation("test.wait", "query", "Waits until the test lets it finish.", gate.wait)
    monkeypatch.setattr(sap_service, "workbench_registry", lambda: Registry([*workbench_registry(), operation]))
    yield gate
    gate.opened.set()  # no thread of a failed test stays blocked


@pytest.fixture
def world():
    return clerk_world(allowed_operations=["test.*"])


def slow(world, ref):
    text = format_block("query", "test.wait", {}, ref)
    return {"type": "sap", "ref": ref, "session_id": str(world["session"].pk), "text": text}


def test_a_ping_is_answered_and_a_task_taken_while_a_slow_sap_request_runs(world, gate):
    task = task_create(
        session_id=world["session"].pk, caller=caller_for_user(world["owner"]), title="Count", agent="clerk"
    )

    async def scenario():
        socket = await opened(agent_socket(world["token"]))
        await frame_of(socket, "hello", timeout=WAIT)
        await socket.send_json_to(slow(world, "s1"))
        await asyncio.to_thread(gate.started)
        await socket.send_json_to({"type": "ping", "ref": "p"})
        pong = await frame_of(socket, "pong", timeout=WAIT)
        await socket.send_json_to({"type": "task.take", "ref": "t"})
        taken = await frame_of(socket, "task.taken", timeout=WAIT)
        gate.opened.set()
        result = await frame_of(socket, "sap.result", timeout=WAIT)
        await socket.disconnect()
        return pong, taken, result

    pong, taken, result = async_to_sync(scenario)()
    assert pong["ref"] == "p" and str(world["session"].pk) in pong["sessions"]
    assert taken["ref"] == "t" and taken["task"]["id"] == task.pk
    assert task.__class__.objects.get(pk=task.pk).state == TaskState.RUNNING
    assert result["ref"] == "s1" and result["text"].startswith("@@result:test.wait#s1")


def test_requests_past_the_bound_are_refused_and_each_result_comes_back_under_its_ref(world, gate):
    refs = [f"s{n}" for n in range(MAX_SAP_IN_FLIGHT)]

    async def scenario():
        socket = await opened(agent_socket(world["token"]))
        await frame_of(socket, "hello", timeout=WAIT)
        for ref in refs:
            await socket.send_json_to(slow(world, ref))
        await asyncio.to_thread(gate.started, MAX_SAP_IN_FLIGHT)
        await socket.send_json_to(slow(world, "extra"))
        refused = await frame_of(socket, "error", timeout=WAIT)
        gate.opened.set()
        results = [await frame_of(socket, "sap.result", timeout=WAIT) for _ in refs]
        await socket.send_json_to(slow(world, "after"))
        after = await frame_of(socket, "sap.result", timeout=WAIT)
        await socket.disconnect()
        return refused, results, after

    refused, results, after = async_to_sync(scenario)()
    assert refused["ref"] == "extra" and refused["error"]["code"] == "LIMIT_EXCEEDED"
    assert refused["error"]["details"] == {"budget": "requests at once", "limit": MAX_SAP_IN_FLIGHT}
    assert refused["error"]["suggestion"]
    assert sorted(result["ref"] for result in results) == refs
    assert all(result["text"].startswith(f"@@result:test.wait#{result['ref']}") for result in results)
    assert after["ref"] == "after"


def sap_runs():
    """The SAP requests this event loop is still waiting on (the socket answers each in a task of its own)."""
    return [task for task in asyncio.all_tasks() if task.get_coro().__qualname__ == "AgentConsumer._answer"]


def test_a_disconnect_cancels_the_requests_the_socket_was_waiting_on(world, gate):
    async def scenario():
        socket = await opened(agent_socket(world["token"]))
        await frame_of(socket, "hello", timeout=WAIT)
        await socket.send_json_to(slow(world, "s1"))
        await asyncio.to_thread(gate.started)
        running = sap_runs()
        await socket.disconnect()
        await asyncio.sleep(0)  # the cancelled requests' tasks end on the loop's next turn
        return running, sap_runs()

    running, left = async_to_sync(scenario)()
    assert len(running) == 1 and running[0].cancelled() and left == []
    gate.opened.set()
    audited = Message.objects.filter(session=world["session"], payload_type="operation_record")
    deadline = time.monotonic() + WAIT  # the request itself ends in its thread, audited, within its budget
    while not audited.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert audited.count() == 1
