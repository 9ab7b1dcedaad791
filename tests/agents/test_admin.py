"""The admin an operator uses for agents, tokens, sessions and tasks: pages load, actions act."""

import re

import pytest
from django.urls import reverse

from agents.models import AgentToken, Task, TaskState, TaskTemplate
from agents.scheduling.acts import task_create
from agents.tokens import agent_for_token, token_issue
from sessions.access import caller_for_user
from sessions.models import CriterionCheck, Message, Rating
from tests.factories import make_user
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def admin_client(client):
    client.force_login(make_user("root", superuser=True))
    return client


@pytest.fixture
def world():
    world = with_agent(
        session_of(title="Supplier scan"),
        "scribe",
        token=False,
        kind="builtin",
        roles=["writing"],
        can_do=[{"action": "write briefs", "scope": "the session log", "limitation": "no judgement"}],
        measured_profile={"reviewer_recall": 0.8},
    )
    caller = caller_for_user(world["owner"])
    return {**world, "task": task_create(session_id=world["session"].pk, caller=caller, title="Brief", agent="scribe")}


def act(client, model, action, ids):
    url = reverse(f"admin:{model}_changelist")
    return client.post(url, {"action": action, "_selected_action": [str(i) for i in ids]}, follow=True)


def test_every_admin_page_loads(admin_client, world):
    token_issue(agent=world["agent"])
    pages = [
        reverse("admin:agents_agent_changelist") + "?kind__exact=builtin&q=scr",
        reverse("admin:agents_agent_change", args=[world["agent"].pk]),
        reverse("admin:agents_agenttoken_changelist") + "?revoked_at__isnull=True",
        reverse("admin:agents_task_changelist") + "?state__exact=queued&q=Brief",
        reverse("admin:agents_task_change", args=[world["task"].pk]),
        reverse("admin:agents_approval_changelist"),
        reverse("admin:agents_tasktemplate_changelist") + "?q=swot",
        reverse("admin:agents_tasktemplate_change", args=[TaskTemplate.objects.get(slug="competitive-analysis").pk]),
        reverse("admin:chap_sessions_worksession_change", args=[world["session"].pk]),
        reverse("admin:chap_sessions_message_changelist") + f"?session__id__exact={world['session'].pk}",
    ]
    for page in pages:
        assert admin_client.get(page).status_code == 200, page


def test_the_agent_page_shows_declared_next_to_measured(admin_client, world):
    page = admin_client.get(reverse("admin:agents_agent_change", args=[world["agent"].pk])).content.decode()
    assert "write briefs" in page and "no judgement" in page and "reviewer_recall: 0.8" in page


def test_issue_shows_a_working_token_once_and_revoke_stops_it(admin_client, world):
    page = act(admin_client, "agents_agent", "issue_token", [world["agent"].pk]).content.decode()
    [token] = re.findall(r"not shown again\): (chap_[A-Za-z0-9_-]+)", page)
    assert agent_for_token(token) == world["agent"]
    stored = AgentToken.objects.get(agent=world["agent"])
    assert token not in (stored.digest, stored.prefix) and stored.last_used_at is not None
    assert (
        token not in admin_client.get(reverse("admin:agents_agent_change", args=[world["agent"].pk])).content.decode()
    )
    act(admin_client, "agents_agent", "revoke_tokens", [world["agent"].pk])
    assert agent_for_token(token) is None


def test_revoking_one_token_leaves_the_others(admin_client, world):
    keep, drop = token_issue(agent=world["agent"]), token_issue(agent=world["agent"])
    dropped = AgentToken.objects.get(prefix=drop[:12])
    act(admin_client, "agents_agenttoken", "revoke", [dropped.pk])
    assert agent_for_token(drop) is None and agent_for_token(keep) == world["agent"]


def test_disabling_an_agent_stops_its_tokens(admin_client, world):
    token = token_issue(agent=world["agent"])
    act(admin_client, "agents_agent", "disable", [world["agent"].pk])
    assert agent_for_token(token) is None


def test_task_actions_go_through_the_services_and_are_logged(admin_client, world):
    act(admin_client, "agents_task", "cancel", [world["task"].pk])
    assert Task.objects.get(pk=world["task"].pk).state == TaskState.CANCELLED
    act(admin_client, "agents_task", "retry", [world["task"].pk])
    assert Task.objects.get(pk=world["task"].pk).state == TaskState.QUEUED
    logged = [
        (m.envelope["payload"]["action"], m.envelope["payload"]["by"])
        for m in Message.objects.filter(session=world["session"], payload_type="task_event").order_by("seq")
    ]
    assert logged == [("created", "human:olga"), ("cancelled", "system:admin:root"), ("retried", "system:admin:root")]


def test_a_refused_task_action_is_a_warning_not_an_error_page(admin_client, world):
    act(admin_client, "agents_task", "cancel", [world["task"].pk])
    page = act(admin_client, "agents_task", "cancel", [world["task"].pk])
    assert page.status_code == 200 and "cannot be cancelled" in page.content.decode()


def test_a_sessions_admin_page_shows_its_retrospective_read_only(admin_client, world):
    session = world["session"]
    CriterionCheck.objects.create(session=session, index=0, criterion="Names five suppliers", met=True)
    Rating.objects.create(session=session, user=session.created_by, rating=4, comment="Quick and sourced")
    page = admin_client.get(reverse("admin:chap_sessions_worksession_change", args=[session.pk])).content.decode()
    assert "Names five suppliers" in page and "Quick and sourced" in page
    assert 'name="ratings-0-rating"' not in page  # shown, not editable
