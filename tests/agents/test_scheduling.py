"""Tasks: role matching, priorities, dependencies, approvals, human acts, leases; and the worker."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Task, TaskState
from agents.runtime import TaskRun
from agents.scheduling.acts import (
    task_approve,
    task_cancel,
    task_create,
    task_pause,
    task_reassign,
    task_reprioritise,
    task_resume,
    task_retry,
)
from agents.scheduling.leases import Claim, task_claim, task_fail, task_finish, task_renew
from agents.scheduling.plans import plan_accept
from agents.worker import Worker
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent, make_user
from tests.people import session_of
from tests.sessions.envelopes import envelope

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def team():
    people = session_of("viewer")
    researcher = make_agent("researcher", kind="builtin", roles=["research"], behaviour="scribe")
    writer = make_agent("writer", kind="builtin", roles=["writing", "research"], behaviour="scribe")
    for agent in (researcher, writer):
        agent_join(session=people["session"], agent=agent)
    return {
        "session": people["session"],
        "owner": caller_for_user(people["owner"]),
        "viewer": caller_for_user(people["viewer"]),
        "agents": [researcher, writer],
    }


def create(team, title="step", **kwargs):
    return task_create(session_id=team["session"].pk, caller=team["owner"], title=title, **kwargs)


def events(session, task):
    rows = Message.objects.filter(session=session, payload_type="task_event").order_by("seq")
    return [m.envelope["payload"]["action"] for m in rows if m.envelope["payload"]["task_id"] == task.pk]


def test_roles_are_matched_to_the_least_busy_able_agent(team):
    first = create(team, required_role="research")
    second = create(team, required_role="research")
    third = create(team, required_role="writing")
    assert {first.agent.name, second.agent.name} == {"researcher", "writer"}
    assert third.agent.name == "writer"
    nobody = create(team, required_role="law")
    assert nobody.agent is None and nobody.state == TaskState.QUEUED
    assert task_claim(worker="w") is not None  # someone's task, but never the unassigned one
    assert events(team["session"], first) == ["created"]


def test_priority_then_age_decides_what_runs_first(team):
    low = create(team, "low", agent="researcher")
    high = create(team, "high", agent="writer", priority=5)
    assert task_claim(worker="w").pk == high.pk
    assert task_claim(worker="w").pk == low.pk
    assert task_claim(worker="w") is None


def test_a_dependent_task_waits_for_the_one_it_builds_on(team):
    base = create(team, "collect", agent="researcher")
    after = create(team, "write", agent="writer", depends_on=[base.pk], priority=9)
    claimed = task_claim(worker="w")
    assert claimed.pk == base.pk
    assert task_claim(worker="w") is None  # "write" outranks, but its input is not ready
    assert task_finish(Claim(base.pk, claimed.attempts, "w"))
    assert task_claim(worker="w").pk == after.pk


def test_a_step_needing_approval_runs_only_after_a_human_approves(team):
    risky = create(team, "publish", agent="writer", requires_approval=True)
    assert risky.state == TaskState.WAITING_APPROVAL and task_claim(worker="w") is None
    with pytest.raises(ProtocolError) as refused:
        task_approve(session_id=team["session"].pk, task_id=risky.pk, caller=caller_for_agent(team["agents"][0]))
    assert refused.value.code in ("PERMISSION_DENIED", "RESOURCE_NOT_FOUND")
    task_approve(session_id=team["session"].pk, task_id=risky.pk, caller=team["owner"])
    assert task_claim(worker="w").pk == risky.pk
    assert events(team["session"], risky) == ["created", "approved"]


def test_human_acts_change_the_task_and_are_logged(team):
    session_id = team["session"].pk
    task = create(team, "draft", agent="researcher")
    kwargs = {"session_id": session_id, "task_id": task.pk, "caller": team["owner"]}
    assert task_reassign(**kwargs, agent="writer").agent.name == "writer"
    assert task_reprioritise(**kwargs, priority=7).priority == 7
    task_pause(**kwargs)
    assert task_claim(worker="w") is None
    task_resume(**kwargs)
    task_cancel(**kwargs, reason="not needed")
    assert task_claim(worker="w") is None
    with pytest.raises(ProtocolError) as again:
        task_cancel(**kwargs)
    assert again.value.code == "INVALID_STATE"
    assert task_retry(**kwargs).state == TaskState.QUEUED
    actions = ["created", "reassigned", "reprioritised", "paused", "resumed", "cancelled", "retried"]
    assert events(team["session"], task) == actions


def test_viewers_and_outsiders_cannot_schedule(team):
    task = create(team, agent="researcher")
    with pytest.raises(ProtocolError) as viewer:
        task_cancel(session_id=team["session"].pk, task_id=task.pk, caller=team["viewer"])
    assert viewer.value.code == "PERMISSION_DENIED"
    with pytest.raises(ProtocolError) as outsider:
        task_cancel(session_id=team["session"].pk, task_id=task.pk, caller=caller_for_user(make_user()))
    assert outsider.value.code == "RESOURCE_NOT_FOUND"
    assert Task.objects.get(pk=task.pk).state == TaskState.QUEUED


def test_an_accepted_plan_becomes_a_chain_of_tasks_once(team):
    from sessions.log import message_post

    agent = team["agents"][0]
    plan = [
        {"step": 1, "action": "Collect sources", "required_capability": "research"},
        {"step": 2, "action": "Write the report", "required_capability": "writing", "requires_approval": True},
    ]
    team["session"].refresh_from_db()
    declared = envelope(
        "agent_capability_declaration",
        {"can_do": [{"action": "research"}], "proposed_plan": plan},
        sender=("agent", agent.name),
        session_id=team["session"].pk,
        context_checksum=team["session"].head_checksum,
    )
    message_post(session_id=team["session"].pk, caller=caller_for_agent(agent), envelope=declared)
    tasks = plan_accept(session_id=team["session"].pk, caller=team["owner"], message_id=declared["message_id"])
    assert [(t.plan_step, t.state, t.agent.name) for t in tasks] == [
        (1, TaskState.QUEUED, "researcher"),
        (2, TaskState.WAITING_APPROVAL, "writer"),
    ]
    assert list(tasks[1].depends_on.all()) == [tasks[0]]
    again = plan_accept(session_id=team["session"].pk, caller=team["owner"], message_id=declared["message_id"])
    assert [t.pk for t in again] == [t.pk for t in tasks]
    with pytest.raises(ProtocolError) as none:
        plan_accept(session_id=team["session"].pk, caller=team["owner"], message_id="msg_nope")
    assert none.value.code == "RESOURCE_NOT_FOUND"


def test_a_lease_that_ran_out_lets_another_worker_take_the_task_and_fences_the_first(team):
    task = create(team, agent="researcher")
    first = task_claim(worker="a", lease_s=30)
    assert task_claim(worker="b") is None  # held
    Task.objects.filter(pk=task.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    second = task_claim(worker="b")
    assert (second.pk, second.attempts, second.lease_owner) == (task.pk, 2, "b")
    stale = Claim(task.pk, first.attempts, "a")
    assert not task_renew(stale) and not task_finish(stale) and not task_fail(stale, error="x")
    assert task_finish(Claim(task.pk, 2, "b"))
    assert Task.objects.get(pk=task.pk).state == TaskState.DONE


def test_a_failed_attempt_is_retried_until_attempts_run_out(team):
    task = create(team, agent="researcher")
    Task.objects.filter(pk=task.pk).update(max_attempts=2)
    for attempt in (1, 2):
        claimed = task_claim(worker="w")
        assert claimed.attempts == attempt
        task_fail(Claim(task.pk, attempt, "w"), error="boom")
    final = Task.objects.get(pk=task.pk)
    assert (final.state, final.last_error, task_claim(worker="w")) == (TaskState.FAILED, "boom", None)
    assert events(team["session"], task)[-1] == "failed"


def test_the_concurrency_limit_holds_an_agents_second_task_back(team):
    create(team, "one", agent="researcher")
    create(team, "two", agent="researcher")
    assert task_claim(worker="a") is not None
    assert task_claim(worker="b") is None


def test_the_worker_runs_the_writer_which_saves_its_report_and_reports(team):
    team["agents"][0].allowed_operations = ["file.write"]
    team["agents"][0].save()
    task = create(team, "Brief the team", agent="researcher")
    assert Worker("w", lease_s=5).run_once()
    done = Task.objects.get(pk=task.pk)
    assert done.state == TaskState.DONE and done.resources["sap_operations"] == 1
    result = Message.objects.get(session=team["session"], message_id=done.result_message_id)
    payload = result.envelope["payload"]
    assert payload["content"]["body"].startswith("# Brief the team")
    assert {
        "type": "workspace_file",
        "citation": f"reports/task-{task.pk}.md",
        "relevance": "the report, for the next step",
    } in payload["supporting_materials"]
    statuses = Message.objects.filter(session=team["session"], payload_type="agent_status").count()
    assert statuses == 2 and events(team["session"], task) == ["created", "finished"]


def test_a_rerun_never_posts_what_the_first_attempt_already_posted(team):
    task = create(team, agent="researcher")
    claimed = task_claim(worker="a")
    first = TaskRun(claimed, Claim(task.pk, claimed.attempts, "a"))
    posted = first.post("brief", "agent_status", {"activity": "first attempt"})
    Task.objects.filter(pk=task.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    again = task_claim(worker="b")
    second = TaskRun(again, Claim(task.pk, again.attempts, "b"))
    assert second.post("brief", "agent_status", {"activity": "second attempt"}) == posted
    assert Message.objects.filter(session=team["session"], message_id=posted).count() == 1


@pytest.mark.django_db(transaction=True, databases=["default", "datasets"])
def test_the_server_runs_built_in_agents_in_its_own_process_when_asked(team):
    from tests.live import DaphneServer, wait_for

    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    try:
        task = create(team, "Brief", agent="writer")
        done = wait_for(lambda: Task.objects.filter(pk=task.pk, state=TaskState.DONE).first(), what="the brief")
    finally:
        server.stop()
    assert done.result_message_id == f"task{task.pk}-report"
