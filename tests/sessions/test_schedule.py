"""The multi-agent scheduling view: lanes, unassigned tasks, hand-offs, and every act on them."""

import pytest
from django.urls import reverse

from agents.models import Task, TaskState
from agents.scheduling.acts import task_create
from agents.scheduling.leases import Claim, task_claim, task_finish
from agents.scheduling.plans import plan_accept
from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join, member_add
from tests.factories import make_agent, make_user, post_message
from tests.people import session_of, with_builtin
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def team(client):
    people = session_of(title="Supplier scan")
    session, owner = people["session"], people["owner"]
    with_builtin(session, finder=["research"], author=["writing"])
    client.force_login(owner)
    caller = caller_for_user(owner)
    made = {
        "collect": task_create(session_id=session.pk, caller=caller, title="Collect sources", agent="finder"),
        "law": task_create(session_id=session.pk, caller=caller, title="Check the law", required_role="legal"),
    }
    made["write"] = task_create(
        session_id=session.pk, caller=caller, title="Write it up", agent="author", depends_on=[made["collect"].pk]
    )
    return {"session": session, "owner": owner, "client": client, "tasks": made}


def act(team, **data):
    url = reverse("workspace:schedule-act", args=[team["session"].pk])
    return team["client"].post(url, data).content.decode()


def lane_of(html, agent):
    start = html.index(f'data-lane="{agent}"')
    return html[start : html.index("</section>", start)]


def test_lanes_show_each_agents_queue_and_the_unassigned_by_role(team):
    html = team["client"].get(reverse("workspace:schedule", args=[team["session"].pk])).content.decode()
    assert "Collect sources" in lane_of(html, "finder") and "Write it up" in lane_of(html, "author")
    assert "Waiting for an agent that does legal" in html and "Check the law" in html
    assert "Nobody here does legal" in html  # and no agent of the workbench does either: the page says so
    assert f"← from #{team['tasks']['collect'].pk}" in html and "Hand-offs" in html
    collect, write = team["tasks"]["collect"].pk, team["tasks"]["write"].pk
    assert f"#{collect} Collect sources → #{write} Write it up: the output of “Collect sources”, when ready" in html
    assert html.count('draggable="true"') == 3  # a member drags a card to another lane to reassign it


def test_reassign_reprioritise_cancel_and_retry_from_a_card(team):
    task = team["tasks"]["collect"]
    html = act(team, action="reassign", task_id=task.pk, agent="author")
    assert "Collect sources" in lane_of(html, "author") and "Collect sources" not in lane_of(html, "finder")
    act(team, action="reprioritise", task_id=task.pk, priority="7")
    act(team, action="cancel", task_id=task.pk)
    assert Task.objects.get(pk=task.pk).state == TaskState.CANCELLED
    act(team, action="retry", task_id=task.pk)
    task.refresh_from_db()
    assert (task.state, task.priority, task.agent.name) == (TaskState.QUEUED, 7, "author")
    logged = [m.envelope["payload"]["action"] for m in team["session"].messages.filter(payload_type="task_event")]
    assert logged[-4:] == ["reassigned", "reprioritised", "cancelled", "retried"]
    assert "unknown action" in act(team, action="explode", task_id=task.pk)
    assert "whole number" in act(team, action="reprioritise", task_id=task.pk, priority="high")


def card_of(html, task):
    start = html.index(f'id="task-{task.pk}"')
    return html[start : html.index("</article>", start)]


def test_a_refused_act_is_said_on_its_card_and_a_reassignment_to_another_role_asks_there(team):
    collect, law = team["tasks"]["collect"], team["tasks"]["law"]
    refused = act(team, action="retry", task_id=collect.pk)  # a queued task has nothing to retry
    assert 'data-testid="card-refusal"' in card_of(refused, collect) and refused.count('role="alert"') == 1
    asked = act(team, action="reassign", task_id=law.pk, agent="author")
    assert 'data-testid="confirm-reassign"' in card_of(asked, law) and "author does not do legal" in card_of(asked, law)


def test_pausing_an_agent_pauses_its_tasks_here(team):
    url = reverse("workspace:schedule-agent", args=[team["session"].pk])
    html = team["client"].post(url, {"agent": "finder", "paused": "1"}).content.decode()
    assert Task.objects.get(pk=team["tasks"]["collect"].pk).paused and "Resume finder here" in html
    team["client"].post(url, {"agent": "finder", "paused": "0"})
    assert not Task.objects.get(pk=team["tasks"]["collect"].pk).paused


def test_forwarding_a_result_hands_it_to_another_agent_with_a_note(team):
    claimed = task_claim(worker="w")
    assert task_finish(Claim(claimed.pk, claimed.attempts, "w"), result_message_id="m-result")
    html = act(team, action="forward", task_id=claimed.pk, agent="author", note="Use only the 2024 sources")
    forwarded = Task.objects.get(source_message_id="m-result")
    assert forwarded.agent.name == "author" and forwarded.instructions == "Use only the 2024 sources"
    assert f"Continue from task {claimed.pk}" in lane_of(html, "author")
    assert "has no result to forward" in act(team, action="forward", task_id=team["tasks"]["law"].pk, agent="author")


def test_viewers_see_the_board_without_actions_and_cannot_act(client, team):
    viewer = make_user("vic")
    member_add(session=team["session"], user=viewer, role="viewer")
    client.force_login(viewer)
    html = client.get(reverse("workspace:schedule", args=[team["session"].pk])).content.decode()
    assert "Collect sources" in html and "Reassign" not in html and 'draggable="true"' not in html
    refused = client.post(
        reverse("workspace:schedule-act", args=[team["session"].pk]),
        {"action": "cancel", "task_id": team["tasks"]["collect"].pk},
    ).content.decode()
    assert "a viewer cannot" in refused and Task.objects.get(pk=team["tasks"]["collect"].pk).state == "queued"
    client.force_login(make_user("out"))
    assert client.get(reverse("workspace:schedule", args=[team["session"].pk])).status_code == 404


def test_a_plans_hand_offs_name_the_output_each_step_promised(team):
    session, owner = team["session"], team["owner"]
    post_message(session, caller_for_user(owner), envelopes.proposal, message_id="t")
    planner = make_agent("planner", kind="builtin")
    agent_join(session=session, agent=planner)
    post_message(session, caller_for_agent(planner), envelopes.declaration, steps=2, message_id="d", in_reply_to="t")
    first, second = plan_accept(session_id=session.pk, caller=caller_for_user(owner), message_id="d")
    html = team["client"].get(reverse("workspace:schedule", args=[session.pk])).content.decode()
    assert f"← from #{first.pk}: output 1, when ready" in html
    assert f"#{first.pk} step 1 → #{second.pk} step 2: output 1, when ready" in html
