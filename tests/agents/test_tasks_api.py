"""The task endpoints as a member's script or the scheduling view would call them."""

import pytest

from agents.models import TaskState
from sessions.access import caller_for_agent
from sessions.log import message_post
from sessions.models import WorkSession
from tests.people import api_as, session_of, with_builtin
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def world():
    people = session_of("viewer", "outsider")
    with_builtin(people["session"], finder=["research"], author=["writing"])
    return {"session": people["session"], **{role: api_as(people[role]) for role in ("owner", "viewer", "outsider")}}


def tasks_url(world, tail=""):
    return f"/api/sessions/{world['session'].pk}/tasks/{tail}"


def test_create_list_and_read_tasks(world):
    first = world["owner"].post(tasks_url(world), {"title": "Collect", "required_role": "research"}, format="json")
    assert first.status_code == 201 and first.json()["agent"] == "finder"
    second = world["owner"].post(
        tasks_url(world), {"title": "Write", "agent": "author", "depends_on": [first.json()["id"]], "priority": 3},
        format="json",
    )  # fmt: skip
    assert second.json()["depends_on"] == [first.json()["id"]]
    listed = world["viewer"].get(tasks_url(world)).json()
    assert [t["title"] for t in listed] == ["Write", "Collect"]  # by priority
    assert world["viewer"].get(tasks_url(world, f"{first.json()['id']}/")).json()["state"] == "queued"


def test_actions_change_the_task(world):
    task = world["owner"].post(tasks_url(world), {"title": "Draft", "agent": "finder"}, format="json").json()
    act = tasks_url(world, f"{task['id']}/actions/")
    assert (
        world["owner"].post(act, {"action": "reassign", "agent": "author"}, format="json").json()["agent"] == "author"
    )
    assert world["owner"].post(act, {"action": "reprioritise", "priority": 9}, format="json").json()["priority"] == 9
    assert world["owner"].post(act, {"action": "pause"}, format="json").json()["paused"] is True
    assert world["owner"].post(act, {"action": "resume"}, format="json").json()["paused"] is False
    assert (
        world["owner"].post(act, {"action": "cancel", "reason": "later"}, format="json").json()["state"] == "cancelled"
    )
    again = world["owner"].post(act, {"action": "cancel"}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_STATE"
    assert world["owner"].post(act, {"action": "retry"}, format="json").json()["state"] == "queued"


def test_approval_gated_task_waits_for_a_human(world):
    task = (
        world["owner"]
        .post(tasks_url(world), {"title": "Publish", "agent": "author", "requires_approval": True}, format="json")
        .json()
    )
    assert task["state"] == TaskState.WAITING_APPROVAL
    approved = world["owner"].post(tasks_url(world, f"{task['id']}/actions/"), {"action": "approve"}, format="json")
    assert approved.json()["state"] == "queued"


def test_bad_requests_get_structured_errors(world):
    task = world["owner"].post(tasks_url(world), {"title": "Draft", "agent": "finder"}, format="json").json()
    act = tasks_url(world, f"{task['id']}/actions/")
    missing = world["owner"].post(act, {"action": "reprioritise"}, format="json")
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "VALIDATION_FAILED"
    assert world["owner"].post(act, {"action": "explode"}, format="json").status_code == 400
    unknown_agent = world["owner"].post(tasks_url(world), {"title": "x", "agent": "ghost"}, format="json")
    assert unknown_agent.status_code == 404 and unknown_agent.json()["error"]["code"] == "RESOURCE_NOT_FOUND"
    assert world["owner"].get(tasks_url(world, "99999999999/")).status_code == 404
    assert world["owner"].post(tasks_url(world), ["not", "an", "object"], format="json").status_code == 400


def test_viewers_cannot_schedule_and_outsiders_see_nothing(world):
    viewer = world["viewer"].post(tasks_url(world), {"title": "x"}, format="json")
    assert viewer.status_code == 403 and viewer.json()["error"]["code"] == "PERMISSION_DENIED"
    assert world["outsider"].get(tasks_url(world)).status_code == 404


def test_accepting_a_plan_makes_its_tasks(world):
    session = world["session"]
    finder = session.participants.get(agent__name="finder").agent
    declared = envelopes.envelope(
        "agent_capability_declaration",
        {"can_do": [{"action": "find"}], "proposed_plan": [
            {"step": 1, "action": "Find sources", "required_capability": "research"},
            {"step": 2, "action": "Write it up", "required_capability": "writing"},
        ]},
        sender=("agent", "finder"), session_id=session.pk,
        context_checksum=WorkSession.objects.get(pk=session.pk).head_checksum,
    )  # fmt: skip
    message_post(session_id=session.pk, caller=caller_for_agent(finder), envelope=declared)
    accept = f"/api/sessions/{session.pk}/plans/{declared['message_id']}/accept/"
    made = world["owner"].post(accept)
    assert made.status_code == 201 and [(t["plan_step"], t["agent"]) for t in made.json()] == [
        (1, "finder"),
        (2, "author"),
    ]
    assert world["owner"].post(f"/api/sessions/{session.pk}/plans/nope/accept/").status_code == 404
