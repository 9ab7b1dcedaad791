import io

import pytest
from django.core.management import CommandError, call_command

from agents.models import Agent
from agents.tokens import agent_for_token, token_revoke
from sessions.models import WorkSession
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip().splitlines()[-1]


def test_agent_token_creates_the_agent_and_prints_a_working_token():
    token = run("agent_token", "planner", "--kind", "builtin", "--allow", "file.read", "--approve", "file.delete")
    agent = Agent.objects.get(name="planner")
    assert (agent.kind, agent.allowed_operations, agent.approval_operations) == (
        "builtin",
        ["file.read"],
        ["file.delete"],
    )
    assert agent_for_token(token) == agent
    stored = agent.tokens.get()
    assert token not in (stored.digest, stored.prefix) and stored.last_used_at is not None
    second = run("agent_token", "planner")
    assert second != token and agent.tokens.count() == 2
    token_revoke(token=stored)
    assert agent_for_token(token) is None and agent_for_token(second) == agent


def test_session_create_prints_the_id_and_joins_the_agents():
    make_user("olga")
    run("agent_token", "planner")
    session_id = run("session_create", "--owner", "olga", "--title", "Study", "--agent", "planner")
    session = WorkSession.objects.get(pk=session_id)
    assert session.title == "Study" and list(session.participants.values_list("agent__name", flat=True)) == ["planner"]
    with pytest.raises(CommandError, match="no agent ghost"):
        run("session_create", "--owner", "olga", "--title", "x", "--agent", "ghost")
    with pytest.raises(CommandError, match="no user"):
        run("session_create", "--owner", "nobody", "--title", "x")


def test_session_create_with_a_goal_starts_with_a_task_proposal_of_every_field_given():
    make_user("olga")
    run("agent_token", "planner")
    session_id = run(
        "session_create", "--owner", "olga", "--title", "Dengue", "--agent", "planner",
        "--goal", "Find the worst month", "--audience", "district officers", "--deadline", "2027-01-15",
        "--background", "Cases rose after the rains", "--criterion", "The month named", "--role", "analysis",
    )  # fmt: skip
    proposal = WorkSession.objects.get(pk=session_id).messages.get(payload_type="task_proposal").envelope["payload"]
    assert proposal == {
        "goal": "Find the worst month",
        "constraints": {"deadline": "2027-01-15", "audience": "district officers"},
        "background_context": ["Cases rose after the rains"],
        "success_criteria": ["The month named"],
        "expected_agent_roles": ["analysis"],
    }
    with pytest.raises(CommandError, match="--deadline 'soon' is not a date"):
        run("session_create", "--owner", "olga", "--title", "x", "--goal", "Find it", "--deadline", "soon")
    assert not WorkSession.objects.filter(title="x").exists()


def test_agent_profiles_stores_measured_figures_and_refuses_bad_input(db, tmp_path, capsys):
    make_agent("analyst")
    profiles = tmp_path / "profiles.json"
    profiles.write_text('{"analyst": {"exact_figures_share": 1.0}, "ghost": {"x": 1}}')
    call_command("agent_profiles", str(profiles))
    assert Agent.objects.get(name="analyst").measured_profile == {"exact_figures_share": 1.0}
    assert "ghost: no such agent, skipped" in capsys.readouterr().out
    profiles.write_text("[1, 2]")
    with pytest.raises(CommandError, match="JSON object of objects"):
        call_command("agent_profiles", str(profiles))
