"""The LLM agent against a local OpenAI-compatible server streaming scripted answers over HTTP."""

import json

import pytest

from agents.models import Task, TaskState
from agents.operations.files import workspace_root
from agents.scheduling.acts import task_create
from agents.worker import Worker
from sessions.access import caller_for_user
from sessions.membership import agent_join
from sessions.models import Message
from tests.agents.llm_server import ScriptedModel
from tests.factories import make_agent
from tests.people import session_of

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

ANSWER = {
    "payload_type": "collaborative_response",
    "payload": {
        "content": {"format": "markdown", "body": "The workspace holds notes.md with the plan."},
        "confidence_score": 0.8,
        "assumptions_made": ["notes.md is current"],
        "supporting_materials": [{"type": "workspace_file", "citation": "notes.md"}],
    },
}


@pytest.fixture
def world(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test")
    people = session_of()
    owner, session = people["owner"], people["session"]
    servers = []

    def start(turns, **agent_fields):
        model = ScriptedModel(turns)
        servers.append(model)
        agent = make_agent(
            "thinker",
            kind="llm",
            llm_base_url=model.base_url,
            llm_model="scripted-1",
            llm_api_key_env="TEST_LLM_KEY",
            allowed_operations=["file.*"],
            **agent_fields,
        )
        agent_join(session=session, agent=agent)
        task = task_create(session_id=session.pk, caller=caller_for_user(owner), title="Summarise", agent="thinker")
        return model, task

    yield {"session": session, "start": start}
    for model in servers:
        model.close()


def run_worker():
    assert Worker("w", lease_s=30).run_once()


def payloads(session, payload_type):
    rows = Message.objects.filter(session=session, payload_type=payload_type).order_by("seq")
    return [m.envelope["payload"] for m in rows]


def test_a_full_loop_runs_sap_from_the_stream_and_posts_a_valid_answer(world):
    first = (
        "I will look first.\n@@query:file.list#l\n{}\n@@end\n"
        '@@action:file.write#w\n{"path": "notes.md", "content": "the plan"}\n@@end\n'
    )
    model, task = world["start"]([first, json.dumps(ANSWER)])
    run_worker()
    done = Task.objects.get(pk=task.pk)
    assert done.state == TaskState.DONE, done.last_error
    assert (workspace_root(world["session"].pk) / "notes.md").read_text() == "the plan"
    second = model.requests[1]["messages"]
    assert second[-1]["role"] == "user" and "@@result:file.list#l" in second[-1]["content"]
    assert "@@result:file.write#w" in second[-1]["content"]
    assert model.requests[0]["auth"] == "Bearer sk-test" and model.requests[0]["stream"] is True
    system = model.requests[0]["messages"][0]["content"]
    assert "file.write" in system and "limited-responsibility" in system
    [answer] = payloads(world["session"], "collaborative_response")
    assert (answer["provenance"]["agent"], answer["provenance"]["model"], answer["provenance"]["kind"]) == (
        "thinker",
        "scripted-1",
        "llm",
    )
    assert done.resources["sap_operations"] == 2 and done.resources["llm_tokens"] > 0
    statuses = payloads(world["session"], "agent_status")
    assert statuses[1]["resources_used"]["limits"] == {"steps": 8, "seconds": 180.0, "tokens": 50000}


def test_an_invalid_answer_gets_one_repair_round(world):
    broken = {"payload_type": "collaborative_response", "payload": {"content": {"body": "no confidence"}}}
    model, task = world["start"]([json.dumps(broken), json.dumps(ANSWER)])
    run_worker()
    assert Task.objects.get(pk=task.pk).state == TaskState.DONE
    repair = model.requests[1]["messages"][-1]["content"]
    assert "not valid" in repair and "confidence_score" in repair


def test_an_answer_still_invalid_after_repair_fails_the_task_with_a_structured_error(world):
    _, task = world["start"](["not json at all", "still not json"])
    run_worker()
    failed = Task.objects.get(pk=task.pk)
    assert failed.state == TaskState.FAILED and "INVALID_MESSAGE" in failed.last_error
    [error] = payloads(world["session"], "error")
    assert error["code"] == "INVALID_MESSAGE" and "repair" in error["message"]


def test_a_model_that_stalls_past_the_time_limit_is_a_timeout(world, settings):
    settings.CHAP_LLM_MAX_SECONDS = 1
    _, task = world["start"]([{"stall_s": 3}])
    run_worker()
    stopped = Task.objects.get(pk=task.pk)
    assert stopped.state == TaskState.QUEUED and stopped.attempts == 1 and stopped.last_error.startswith("TIMEOUT")
    assert payloads(world["session"], "error")[0]["code"] == "TIMEOUT"


def test_a_server_error_is_retried_and_then_fails(world):
    _, task = world["start"]([{"status": 500}, {"status": 500}, {"status": 500}])
    for _ in range(3):
        run_worker()
    failed = Task.objects.get(pk=task.pk)
    assert (failed.state, failed.attempts) == (TaskState.FAILED, 3)
    assert failed.last_error.startswith("UPSTREAM_ERROR") and "HTTP 500" in failed.last_error
