"""The collaboration loop around the work: a plan step nobody can take says so and is fixed by
inviting an agent; the session's state follows the work; owners add members from the page; pausing
an agent is remembered and logged; the page speaks in plain words."""

import pytest
from django.urls import reverse

from agents.models import Task, TaskState
from agents.scheduling.acts import agent_pause, task_create
from agents.scheduling.plans import plan_accept
from sessions.access import caller_for_agent, caller_for_user
from sessions.chap import labels
from sessions.log import message_post
from sessions.membership import agent_join, member_invite
from sessions.models import Membership, Message
from tests.factories import make_agent, make_session, make_user
from tests.sessions.envelopes import envelope
from workspace.standing import work_state

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def planned(client):
    """A session whose plan has a writing step and no writer: the scribe exists but is not invited."""
    owner = make_user("olga")
    session = make_session(owner=owner, title="Sales by region")
    planner = make_agent("planner", kind="builtin", roles=["planning"], behaviour="planner")
    make_agent("scribe", kind="builtin", roles=["writing", "summary"], behaviour="scribe")
    agent_join(session=session, agent=planner)
    session.refresh_from_db()
    plan = [
        {"step": 1, "action": "Plan the work", "required_capability": "planning"},
        {"step": 2, "action": "Write the findings", "required_capability": "writing"},
    ]
    declared = envelope(
        "agent_capability_declaration",
        {
            "can_do": [{"action": "plan"}],
            "proposed_plan": plan,
            "template": "data-analysis",
            "template_similarity": 0.4,
        },
        sender=("agent", "planner"),
        session_id=session.pk,
        context_checksum=session.head_checksum,
    )
    message_post(session_id=session.pk, caller=caller_for_agent(planner), envelope=declared)
    session.refresh_from_db()
    client.force_login(owner)
    return {"session": session, "owner": owner, "client": client, "plan": declared["message_id"]}


def page(world) -> str:
    return world["client"].get(reverse("workspace:detail", args=[world["session"].pk])).content.decode()


def test_a_plan_step_nobody_can_take_says_so_and_offers_the_agent_that_can(planned):
    html = page(planned)
    assert "Nobody here does writing" in html and "<option>scribe</option>" in html
    assert "agent capability declaration" not in html and "similarity" not in html
    assert "following the “data analysis” template" in html
    state = work_state(planned["session"])
    assert state["label"] == "Waiting for you" and state["waiting"][0]["what"] == "planner's plan in 2 steps"


def test_inviting_the_agent_gives_it_the_waiting_step_and_is_logged(planned):
    session, caller = planned["session"], caller_for_user(planned["owner"])
    tasks = plan_accept(session_id=session.pk, caller=caller, message_id=planned["plan"])
    assert tasks[1].agent is None
    assert any("needs an agent that does writing" in item["what"] for item in work_state(session)["waiting"])
    response = planned["client"].post(reverse("workspace:agent-invite", args=[session.pk]), {"agent": "scribe"})
    assert "scribe joined the session" in response.content.decode()
    assert Task.objects.get(pk=tasks[1].pk).agent.name == "scribe"
    invited = Message.objects.filter(session=session, payload_type="session_event").last().envelope["payload"]
    assert invited["action"] == "agent_invited" and invited["agent"] == "scribe" and invited["by"] == "human:olga"
    assert "Nobody here does writing" not in page(planned)
    session.refresh_from_db()
    assert work_state(session)["label"] == "Working"


def test_viewers_cannot_invite_agents_and_unknown_agents_are_refused(planned):
    viewer = make_user("vic")
    Membership.objects.create(session=planned["session"], user=viewer, role="viewer")
    planned["client"].force_login(viewer)
    url = reverse("workspace:agent-invite", args=[planned["session"].pk])
    assert "cannot" in planned["client"].post(url, {"agent": "scribe"}).content.decode()
    planned["client"].force_login(planned["owner"])
    assert "no enabled agent" in planned["client"].post(url, {"agent": "nobody"}).content.decode()


def test_the_owner_adds_a_member_from_the_page_and_it_is_logged(planned):
    make_user("ed")
    url = reverse("workspace:members", args=[planned["session"].pk])
    html = planned["client"].post(url, {"username": "ed", "role": "editor"}).content.decode()
    assert "ed can open this session now" in html and 'ed <span class="muted">editor' in html
    added = Message.objects.filter(session=planned["session"], payload_type="session_event").last()
    assert added.envelope["payload"] == {
        "action": "member_added", "username": "ed", "role": "editor", "by": "human:olga",
        "label": "olga added ed as editor",
    }  # fmt: skip
    assert "no user" in planned["client"].post(url, {"username": "ghost", "role": "editor"}).content.decode()


def test_only_owners_add_members(planned):
    editor = make_user("ed")
    member_invite(
        session_id=planned["session"].pk, caller=caller_for_user(planned["owner"]), username="ed", role="editor"
    )
    make_user("zoe")
    planned["client"].force_login(editor)
    url = reverse("workspace:members", args=[planned["session"].pk])
    assert "only the session" in planned["client"].post(url, {"username": "zoe", "role": "viewer"}).content.decode()
    assert not Membership.objects.filter(user__username="zoe").exists()


def test_pausing_an_agent_is_logged_and_holds_its_later_tasks_too(planned):
    session, caller = planned["session"], caller_for_user(planned["owner"])
    assert agent_pause(session_id=session.pk, agent="planner", caller=caller) == []  # no open task: still recorded
    paused = Message.objects.filter(session=session, payload_type="session_event").last().envelope["payload"]
    assert paused["action"] == "agent_paused" and paused["agent"] == "planner"
    later = task_create(session_id=session.pk, caller=caller, title="Plan again", agent="planner")
    assert later.paused and later.state == TaskState.QUEUED
    board = planned["client"].get(reverse("workspace:schedule", args=[session.pk])).content.decode()
    assert "Resume planner here" in board and "paused in this session" in board
    agent_pause(session_id=session.pk, agent="planner", caller=caller, paused=False)
    assert not Task.objects.get(pk=later.pk).paused


def test_the_state_card_says_done_and_mark_done_confirms_while_questions_are_open(planned):
    html = page(planned)
    assert 'data-testid="session-state"' in html and "Mark the session done" in html


@pytest.mark.parametrize(
    ("status", "words"),
    [("in_progress", "in progress"), ("needs_review", "needs review"), ("waiting_approval", "waiting for approval")],
)
def test_statuses_read_as_words(status, words):
    assert labels.status_label(status) == words


def test_a_message_is_named_by_what_it_is_for_and_who_sent_it():
    node = {"kind": "human_feedback", "feedback_type": "correction", "sender": "human:olga", "seq": 12}
    assert labels.message_label(node) == "the correction from olga"
    assert labels.message_label({"kind": "agent_capability_declaration", "sender": "agent:planner", "seq": 3}) == (
        "the plan from planner"
    )


def test_the_new_session_form_preselects_agents_for_the_roles_templates_need(client):
    from agents.behaviours.registry import builtin_agents_ensure
    from agents.task_templates import templates_ensure
    from workspace.forms import NewSessionForm

    templates_ensure()
    builtin_agents_ensure()
    form = NewSessionForm()
    assert {"planner", "analyst", "scribe", "reviewer"} <= set(form.initial["agents"])
    assert form.template_roles["data-analysis"] == ["planning", "analysis", "writing", "review"]
    assert form.agents_covering(form.template_roles["data-analysis"]) == ["planner", "analyst", "scribe", "reviewer"]
    client.force_login(make_user("nina"))
    html = client.get(reverse("workspace:new")).content.decode()
    assert 'value="scribe"' in html and 'id="template-roles"' in html and "Kind of task" in html
