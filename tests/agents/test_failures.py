"""Failures say so everywhere: the problem report, the agent's status, the task card, the state card
and the sessions list; a retry that would fail the same way says why; a step given to an agent
without its role asks first."""

import logging
import re

import pytest
from django.db import DatabaseError
from django.urls import reverse

from agents.models import Task, TaskState
from agents.scheduling.acts import task_create, task_reassign, task_retry
from agents.worker import Worker
from protocol.errors import ProtocolError
from protocol.logs import ContextIds
from sessions.access import caller_for_user
from sessions.log import message_post_at_head
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent
from tests.people import session_of

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
BEHAVIOURS = {"broken": "tests.agents.behaviours.broken", "timing_out": "tests.agents.behaviours.timing_out"}


@pytest.fixture
def team(settings):
    settings.CHAP_BEHAVIOURS = BEHAVIOURS
    world = session_of(title="Tumours")
    agents = {
        "analyst": make_agent("analyst", kind="builtin", roles=["analysis"], behaviour="broken"),
        "scribe": make_agent("scribe", kind="builtin", roles=["writing"], behaviour="scribe"),
        "reviewer": make_agent("reviewer", kind="builtin", roles=["review"], behaviour="reviewer"),
        "slowpoke": make_agent("slowpoke", kind="builtin", roles=["analysis"], behaviour="timing_out"),
        "ghost": make_agent("ghost", kind="builtin", roles=["analysis"], behaviour="no-such-behaviour"),
    }
    for agent in agents.values():
        agent_join(session=world["session"], agent=agent)
    return {**world, "caller": caller_for_user(world["owner"]), **agents}


def step(team, agent, title="Analyse the data", role="analysis"):
    task = task_create(session_id=team["session"].pk, caller=team["caller"], title=title, agent=agent,
                       required_role=role)  # fmt: skip
    while Worker("w", lease_s=30).run_once():
        pass
    return Task.objects.get(pk=task.pk)


def reports(session):
    return [
        m.envelope["payload"] for m in Message.objects.filter(session=session, payload_type="error").order_by("seq")
    ]


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_an_unexpected_error_is_reported_in_words_once_and_shown_failed_everywhere(team, client):
    task = step(team, "analyst")
    assert (task.state, task.attempts) == (TaskState.FAILED, 1)  # a bug fails the same way again: no retries
    [report] = reports(team["session"])
    assert report["message"] == (
        "analyst could not finish “Analyse the data”: it stopped on an unexpected error in its own code. This is "
        "a fault in analyst, not in your request, so retrying would fail the same way: reassign the step to "
        "another agent that does analysis on the scheduling board, or cancel it."
    )
    assert report["details"]["technical"] == "KeyError: 'mean_area'" and "KeyError" not in report["message"]

    client.force_login(team["owner"])
    page = client.get(reverse("workspace:detail", args=[team["session"].pk])).content.decode()
    assert "could not finish “Analyse the data”" in text(page) and "Traceback" not in page
    bar = text(re.search(r'<section id="agent-status".*?</section>', page, re.S).group())
    assert "analyst builtin online · failed: “Analyse the data”: it stopped on an unexpected error" in bar
    assert "0/1" not in bar
    state = text(re.search(r'<section id="session-state".*?</section>', page, re.S).group())
    assert "A step failed" in state and "“Analyse the data” failed: it stopped on an unexpected error" in state
    assert "Waiting for you" not in state
    board = text(client.get(reverse("workspace:schedule", args=[team["session"].pk])).content.decode())
    assert f"Failed #{task.pk} Analyse the data Failed · priority 0 · attempt 1 Failed: it stopped" in board
    listed = text(client.get(reverse("workspace:list")).content.decode())
    assert "Tumours A step failed" in listed and "Tumours Waiting for you" not in listed


def test_a_retry_that_would_fail_the_same_way_says_why_and_one_that_may_succeed_runs(team):
    task = step(team, "analyst")
    kwargs = {"session_id": team["session"].pk, "task_id": task.pk, "caller": team["caller"]}
    with pytest.raises(ProtocolError) as refused:
        task_retry(**kwargs)
    assert refused.value.code == "INVALID_STATE"
    assert refused.value.message == (
        "retrying “Analyse the data” would fail the same way: it stopped on an unexpected error in its own code, "
        "and nothing changed since"
    )
    assert "reassign the step" in refused.value.suggestion[0]
    assert len(reports(team["session"])) == 1 and Task.objects.get(pk=task.pk).state == TaskState.FAILED

    message_post_at_head(session_id=team["session"].pk, caller=team["caller"], payload_type="human_feedback",
                         payload={"target_message_id": task.source_message_id or "x", "feedback_type": "refinement",
                                  "provided_context": "the column is called area_mean"})  # fmt: skip
    assert task_retry(**kwargs).state == TaskState.QUEUED


def test_an_agent_without_a_behaviour_is_never_retried_but_another_agent_takes_the_step(team):
    task = step(team, "ghost")
    [report] = reports(team["session"])
    assert "ghost could not finish “Analyse the data”: the workbench has no built-in behaviour" in report["message"]
    kwargs = {"session_id": team["session"].pk, "task_id": task.pk, "caller": team["caller"]}
    with pytest.raises(ProtocolError) as refused:
        task_retry(**kwargs)
    assert "would fail the same way: the workbench has no built-in behaviour" in refused.value.message
    moved = task_reassign(**kwargs, agent="slowpoke")
    assert (moved.state, moved.agent.name, moved.last_error) == (TaskState.QUEUED, "slowpoke", "")


def test_a_failure_a_retry_may_pass_is_tried_again_then_can_be_retried(team):
    task = step(team, "slowpoke")
    assert (task.state, task.attempts) == (TaskState.FAILED, 3)
    said = [r["message"].split(": ", 1)[1] for r in reports(team["session"])]
    assert said == [
        "the model did not answer within 180 seconds. Nothing yet: slowpoke tries again by itself (attempt 1 of 3).",
        "the model did not answer within 180 seconds. Nothing yet: slowpoke tries again by itself (attempt 2 of 3).",
        "the model did not answer within 180 seconds. Retry it from the scheduling board; if it fails again, "
        "reassign it to another agent.",
    ]
    retried = task_retry(session_id=team["session"].pk, task_id=task.pk, caller=team["caller"])
    assert retried.state == TaskState.QUEUED and retried.max_attempts == 4


def test_a_step_given_to_an_agent_without_its_role_is_refused_until_confirmed(team, client):
    session = team["session"]
    review = task_create(session_id=session.pk, caller=team["caller"], title="Review the report", agent="reviewer",
                         required_role="review", requires_approval=True)  # fmt: skip
    kwargs = {"session_id": session.pk, "task_id": review.pk, "caller": team["caller"]}
    with pytest.raises(ProtocolError) as refused:
        task_reassign(**kwargs, agent="scribe")
    assert refused.value.code == "ROLE_MISMATCH"
    assert refused.value.message == "scribe does not do review, which “Review the report” needs (scribe does writing)"
    assert refused.value.suggestion == [
        "give it to reviewer instead",
        "to give it to scribe anyway, send the reassignment again with confirm: true",
    ]
    assert Task.objects.get(pk=review.pk).agent.name == "reviewer"

    client.force_login(team["owner"])
    url = f"/api/sessions/{session.pk}/tasks/{review.pk}/actions/"
    rest = client.post(url, {"action": "reassign", "agent": "scribe"}, content_type="application/json")
    assert rest.status_code == 409 and rest.json()["error"]["code"] == "ROLE_MISMATCH"
    board = client.post(reverse("workspace:schedule-act", args=[session.pk]),
                        {"action": "reassign", "task_id": review.pk, "agent": "scribe"}).content.decode()  # fmt: skip
    assert 'data-testid="confirm-reassign"' in board and "Give it to scribe anyway" in board
    assert "scribe does not do review" in text(board)

    done = client.post(url, {"action": "reassign", "agent": "scribe", "confirm": True}, content_type="application/json")
    assert done.status_code == 200 and done.json()["agent"] == "scribe"
    last = Message.objects.filter(session=session, payload_type="task_event").last().envelope["payload"]
    assert last["note"] == "given to scribe, which does not do review, on purpose"


def test_the_workers_log_lines_about_a_task_carry_its_id_the_lease_renewers_too(team, settings, caplog, monkeypatch):
    def renew_fails(claim, lease_s):
        raise DatabaseError("the database is gone for a moment")

    settings.CHAP_BEHAVIOURS = {**BEHAVIOURS, "quick": "tests.agents.behaviours.quick"}
    agent_join(session=team["session"], agent=make_agent("sprinter", kind="builtin", behaviour="quick"))
    monkeypatch.setattr("agents.worker.task_renew", renew_fails)
    caplog.handler.addFilter(ContextIds())
    caplog.set_level(logging.WARNING, logger="agents.worker")
    broken, quick = (
        task_create(session_id=team["session"].pk, caller=team["caller"], title="Analyse", agent=name).pk
        for name in ("analyst", "sprinter")
    )
    for task in Task.objects.select_related("agent").filter(pk__in=(broken, quick)):
        Worker("w", lease_s=0.03).run(task)
    lines = {(r.task_id, r.getMessage().split(";")[0]) for r in caplog.records if r.name == "agents.worker"}
    assert (str(broken), f"task {broken} failed in worker w") in lines
    assert (str(quick), f"could not renew the lease of task {quick}") in lines
    assert all(task_id in (str(broken), str(quick)) for task_id, _ in lines)
