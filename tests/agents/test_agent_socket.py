"""/ws/agents/: an external agent's one connection for its sessions, tasks, posts and SAP."""

import json
import subprocess
import sys

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async as database_sync
from channels.testing import WebsocketCommunicator

from agents.models import Task, TaskState
from agents.operations.files import workspace_root
from agents.scheduling.acts import task_create
from agents.tokens import token_revoke
from protocol.logs import ContextIds
from sessions.access import caller_for_user
from sessions.membership import agent_join
from sessions.models import Message, WorkSession
from tests.factories import make_session
from tests.live import ROOT, child_env
from tests.people import clerk_world
from tests.sessions import envelopes
from workbench.asgi import application

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "datasets"])
CLERK_OPERATIONS = ["file.list", "file.write", "dataset.list-tables"]


@pytest.fixture
def world():
    return clerk_world(allowed_operations=CLERK_OPERATIONS)


def assign(world, title="List what we have"):
    return task_create(
        session_id=world["session"].pk, caller=caller_for_user(world["owner"]), title=title, agent="clerk"
    )


async def open_socket(token):
    socket = WebsocketCommunicator(application, "/ws/agents/", headers=[(b"authorization", f"Bearer {token}".encode())])
    connected, code = await socket.connect()
    return socket, connected, code


async def until(socket, kind, timeout=5):
    while True:
        frame = await socket.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


def test_hello_names_the_sessions_and_offers_the_queued_tasks(world):
    task = assign(world)

    async def scenario():
        socket, connected, _ = await open_socket(world["token"])
        hello = await socket.receive_json_from()
        await socket.disconnect()
        return connected, hello

    connected, hello = async_to_sync(scenario)()
    assert connected and hello["agent"] == "clerk"
    assert list(hello["sessions"]) == [str(world["session"].pk)]
    assert [t["id"] for t in hello["tasks"]] == [task.pk]


def test_a_revoked_or_unknown_token_is_refused(world):
    token_revoke(token=world["agent"].tokens.get())

    async def scenario(token):
        _, connected, code = await open_socket(token)
        return connected, code

    assert async_to_sync(scenario)(world["token"]) == (False, 4403)
    assert async_to_sync(scenario)("chap_nonsense") == (False, 4403)


def test_take_run_sap_post_and_finish_a_task_over_the_socket(world):
    task = assign(world)
    session_id = str(world["session"].pk)

    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        await socket.send_json_to({"type": "task.take", "ref": "t"})
        taken = await until(socket, "task.taken")
        sap = '@@action:file.write#w\n{"path": "notes.md", "content": "hello"}\n@@end\n'
        await socket.send_json_to({"type": "sap", "ref": "s", "session_id": session_id, "text": sap})
        answered = await until(socket, "sap.result")
        await socket.send_json_to({"type": "ping", "ref": "p"})
        head = (await until(socket, "pong"))["sessions"][session_id]["context_checksum"]
        envelope = envelopes.envelope(
            "collaborative_response",
            {"content": {"body": "notes.md holds the notes"}, "confidence_score": 0.9},
            sender=("agent", "clerk"), session_id=session_id, context_checksum=head,
        )  # fmt: skip
        await socket.send_json_to(envelope)
        ack = await until(socket, "ack")
        done = {"type": "task.done", "ref": "d", "task_id": task.pk, "attempt": taken["attempt"]}
        await socket.send_json_to({**done, "result_message_id": envelope["message_id"]})
        finished = await until(socket, "task.finished")
        await socket.send_json_to(done)
        again = await until(socket, "error")
        await socket.disconnect()
        return taken, answered, ack, finished, again, envelope

    taken, answered, ack, finished, again, envelope = async_to_sync(scenario)()
    assert taken["task"]["id"] == task.pk and taken["attempt"] == 1
    assert answered["text"].startswith("@@result:file.write#w")
    assert ack["message_id"] == envelope["message_id"] and ack["session_id"] == str(world["session"].pk)
    assert finished["task_id"] == task.pk
    assert again["ref"] == "d" and again["error"]["code"] == "INVALID_STATE"
    stored = Task.objects.get(pk=task.pk)
    assert (stored.state, stored.result_message_id) == (TaskState.DONE, envelope["message_id"])
    assert (workspace_root(world["session"].pk) / "notes.md").read_text() == "hello"


def test_a_task_frame_that_fails_is_logged_under_its_task_and_request_ids(world, monkeypatch, caplog):
    task = assign(world)
    caplog.handler.addFilter(ContextIds())  # the filter settings.LOGGING puts on the console handler

    def broken(claim, **fields):
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr("agents.consumers.task_fail", broken)

    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        await socket.send_json_to({"type": "task.fail", "ref": "f", "task_id": task.pk, "attempt": 1, "error": "no"})
        error = await until(socket, "error")
        await socket.disconnect()
        return error["error"]

    error = async_to_sync(scenario)()
    [record] = [record for record in caplog.records if "agent socket frame 'task.fail' failed" in record.message]
    assert (error["code"], record.task_id, record.request_id) == ("INTERNAL_ERROR", str(task.pk), error["request_id"])


def test_the_agent_receives_its_sessions_messages_and_new_offers_live(world):
    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        task = await database_sync(assign)(world, "A new one")
        message = await until(socket, "message")
        offer = await until(socket, "task.offer")
        await socket.disconnect()
        return task, message, offer

    task, message, offer = async_to_sync(scenario)()
    assert message["envelope"]["payload_type"] == "task_event" and message["envelope"]["payload"]["task_id"] == task.pk
    assert offer["task"]["id"] == task.pk


def test_a_session_joined_later_is_delivered_and_resume_replays(world):
    other = make_session(owner=world["owner"], title="Later")

    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        await database_sync(agent_join)(session=other, agent=world["agent"])
        joined = await until(socket, "session.joined")
        await socket.send_json_to({"type": "resume", "session_id": str(world["session"].pk), "since_seq": 0})
        replayed = []
        while (frame := await socket.receive_json_from()) and frame["type"] == "message":
            replayed.append(frame["seq"])
        await socket.send_json_to({"type": "resume", "session_id": "someone-elses", "since_seq": 0})
        refused = await until(socket, "error")
        await socket.disconnect()
        return joined, replayed, frame, refused

    joined, replayed, resumed, refused = async_to_sync(scenario)()
    head = WorkSession.objects.get(pk=world["session"].pk).head_seq
    assert joined["session_id"] == str(other.pk)
    assert replayed == list(range(1, head + 1)) and resumed == {
        "type": "resumed",
        "session_id": str(world["session"].pk),
        "head_seq": head,
    }
    assert refused["error"]["code"] == "RESOURCE_NOT_FOUND"


def test_bad_frames_get_structured_errors_and_the_socket_stays_open(world):
    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        answers = []
        for frame in [
            "{oops",
            json.dumps({"type": "explode"}),
            json.dumps({"type": "task.done", "ref": "x", "task_id": "one"}),
        ]:
            await socket.send_to(text_data=frame)
            answers.append((await until(socket, "error"))["error"]["code"])
        await socket.send_json_to({"type": "task.take", "ref": "t"})
        nothing = await until(socket, "task.none")
        await socket.disconnect()
        return answers, nothing

    answers, nothing = async_to_sync(scenario)()
    assert answers == ["INVALID_FRAME", "INVALID_FRAME", "INVALID_FRAME"] and nothing["ref"] == "t"


def test_the_example_clerk_takes_a_task_runs_sap_and_posts_its_inventory(world, daphne_server):
    (workspace_root(world["session"].pk) / "data.csv").write_text("a,b\n1,2\n")
    task = assign(world)
    server = daphne_server.url.replace("http://", "ws://")
    clerk = subprocess.run(
        [sys.executable, "-m", "agents.examples.clerk", "--server", server, "--token", world["token"], "--once"],
        cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert clerk.returncode == 0, clerk.stderr
    done = Task.objects.get(pk=task.pk)
    assert done.state == TaskState.DONE and done.attempts == 1
    response = Message.objects.get(session=world["session"], message_id=done.result_message_id).envelope["payload"]
    assert "- data.csv (8 bytes)" in response["content"]["body"]
    assert response["supporting_materials"] == [{"type": "workspace_file", "citation": f"inventory/task-{task.pk}.md"}]
    assert (workspace_root(world["session"].pk) / f"inventory/task-{task.pk}.md").exists()
    token_revoke(token=world["agent"].tokens.get())
    refused = subprocess.run(
        [sys.executable, "-m", "agents.examples.clerk", "--server", server, "--token", world["token"], "--once"],
        cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode != 0 and "Refused" in refused.stderr


def test_a_silent_agent_is_closed_after_the_heartbeat_timeout(world, settings):
    settings.CHAP_HEARTBEAT_S = 0.2

    async def scenario():
        socket, _, _ = await open_socket(world["token"])
        await socket.receive_json_from()
        try:
            while True:
                output = await socket.receive_output(timeout=3)
                if output["type"] == "websocket.close":
                    return output["code"]
        finally:
            await socket.disconnect()

    assert async_to_sync(scenario)() == 4408
