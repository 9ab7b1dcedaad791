"""The session workspace: the decision map (layout, drawing, details, collapse) and the thread."""

import re

import pytest
from django.urls import reverse

from sessions.access import caller_for_agent, caller_for_user
from sessions.log import checkpoint_create, message_post
from sessions.membership import agent_join, member_add
from sessions.models import WorkSession
from tests.factories import agent_in, make_agent, make_user, post_message
from tests.people import session_of
from tests.sessions import envelopes
from workspace.fragments import live_update

pytestmark = pytest.mark.django_db


def post(session, user, factory, *args, **kwargs):
    return post_message(session, caller_for_user(user), factory, *args, **kwargs)


@pytest.fixture
def world(client):
    world = session_of(title="Battery market")
    session, owner = world["session"], world["owner"]
    post(session, owner, envelopes.proposal, message_id="t")
    post_message(session, agent_in(session, "writer"), envelopes.response, message_id="r1", in_reply_to="t")
    client.force_login(owner)
    return {**world, "client": client}


def page(world, name="workspace:detail", query=""):
    return world["client"].get(reverse(name, args=[world["session"].pk]) + query)


def test_the_workspace_draws_every_node_with_its_status_and_a_legend(world):
    html = page(world).content.decode()
    nodes = re.findall(r'<g id="map-node-(\d+)" class="node shape-(\w+) status-(\w+)[^"]*"', html)
    assert len(nodes) == 1 + 1 + 2 + 1 + 1  # the goal, the response, its sections, assumption and question
    assert ("0", "goal", "in_progress") in nodes
    assert 'aria-label="Legend"' in html and "needs review" in html
    assert html.count('<path class="edge') == len(nodes) - 1


def test_a_correction_turns_the_downstream_nodes_orange(world):
    post(
        world["session"],
        world["owner"],
        envelopes.feedback,
        "r1",
        part={"kind": "assumption", "index": 0},
        message_id="c1",
    )
    html = page(world, "workspace:map").content.decode()
    assert 'status-needs_review"' in html and 'status-overturned"' in html


def test_clicking_a_node_shows_its_details_and_edges(world):
    details = page(world, "workspace:map-node", "?node=0").content.decode()
    assert "Write a short report on battery suppliers" in details and "task · message t" in details  # the id stays here
    assert "Built on by" in details and "message t" in details
    assert page(world, "workspace:map-node", "?node=9999").status_code == 404
    assert page(world, "workspace:map-node", "?node=abc").status_code == 404


def test_a_checkpoint_collapses_what_lies_before_it_until_expanded(world):
    checkpoint_create(session_id=world["session"].pk, caller=caller_for_user(world["owner"]), label="Scope agreed")
    post(world["session"], world["owner"], envelopes.feedback, "r1", message_id="c1")
    collapsed = page(world, "workspace:map").content.decode()
    expanded = page(world, "workspace:map", "?expand=1").content.decode()
    assert "Show the" in collapsed and "before “" in collapsed
    assert collapsed.count('<g id="map-node-') < expanded.count('<g id="map-node-')


def test_the_thread_tints_sections_by_confidence_and_marks_ai_content(world):
    agent_response = envelopes.response(
        message_id="r2", in_reply_to="r1", sections=(("intro", 0.9), ("market", 0.3)), sender=("agent", "planner")
    )
    planner = make_agent("planner")
    agent_join(session=world["session"], agent=planner)
    agent_response["session_id"] = str(world["session"].pk)
    agent_response["context_checksum"] = WorkSession.objects.get(pk=world["session"].pk).head_checksum
    message_post(session_id=world["session"].pk, caller=caller_for_agent(planner), envelope=agent_response)
    html = page(world).content.decode()
    assert re.search(r'class="heat heat-3"\s+data-section-id="intro"\s+title="confidence 0.9"', html)
    assert re.search(r'class="heat heat-0"\s+data-section-id="market"\s+title="confidence 0.3"', html)
    assert html.count("AI-generated</span>") == 2  # r1 and r2, both by agents; the proposal is not


def test_outsiders_get_404_on_every_workspace_part(client, world):
    client.force_login(make_user("out"))
    for name in ("workspace:detail", "workspace:map", "workspace:map-node"):
        assert client.get(reverse(name, args=[world["session"].pk]) + "?node=0").status_code == 404


def test_a_live_update_carries_the_new_message_and_only_the_nodes_it_touched(world):
    session = world["session"]
    page(world)  # the map as the browser has it
    post(session, world["owner"], envelopes.feedback, "r1", part={"kind": "assumption", "index": 0}, message_id="c1")
    row = session.messages.get(message_id="c1")
    html = live_update(
        session=WorkSession.objects.get(pk=session.pk),
        seq=row.seq,
        envelope=row.envelope,
        checksum=row.checksum,
        role="owner",
    )
    assert re.search(r'<div id="thread" hx-swap-oob="beforeend">\s*<article id="msg-', html)
    assert re.search(r'<div id="map-patch" hx-swap-oob="true" hidden>\s*<svg>', html)
    drawn = re.findall(r'<g id="map-node-(\d+)" class="node shape-\w+ status-(\w+)"', html)
    touched = [status for _, status in drawn[1:]]  # after the correction's own node
    assert touched and set(touched) <= {"needs_review", "overturned"}
    assert len(drawn) < 8  # the touched nodes, not the map


def send(world, **fields):
    data = {"context_checksum": WorkSession.objects.get(pk=world["session"].pk).head_checksum, **fields}
    return world["client"].post(reverse("workspace:feedback", args=[world["session"].pk]), data).content.decode()


def test_feedback_from_the_panel_becomes_a_targeted_human_feedback_message(world):
    html = send(
        world,
        target_message_id="r1",
        feedback_type="correction",
        part_kind="quote",
        part_id="market",
        part_quote="market text",
        part_start="0",
        part_end="11",
        instruction="What data supports this conclusion?",
        links="https://example.com/report",
        priority="high",
    )
    assert 'data-testid="feedback-sent"' in html
    sent = world["session"].messages.filter(payload_type="human_feedback").get().envelope
    assert sent["in_reply_to"] == "r1"
    assert sent["payload"]["target_part"] == {
        "kind": "quote",
        "id": "market",
        "quote": "market text",
        "start": 0,
        "end": 11,
    }
    assert sent["payload"]["attachments"] == ["https://example.com/report"] and sent["payload"]["priority"] == "high"


def test_the_panel_is_about_the_current_answer_until_the_person_picks_another_message(world):
    html = page(world).content.decode()
    assert '<input type="hidden" name="target_message_id" value="r1">' in html
    assert 'About: <span data-role="target-label">the current answer (the report from writer)' in html


def test_before_any_answer_the_panel_is_about_nothing_yet(client):
    world = session_of(title="Empty")
    client.force_login(world["owner"])
    html = client.get(reverse("workspace:detail", args=[world["session"].pk])).content.decode()
    assert '<input type="hidden" name="target_message_id" value="">' in html and "nothing yet" in html


@pytest.mark.parametrize(
    "fields",
    [
        {"instruction": "make it better"},
        {"target_message_id": "r1", "instruction": "Give more detail"},
        {"target_message_id": "r1", "feedback_type": "refinement", "instruction": "better"},
    ],
)
def test_vague_feedback_gets_a_gentle_prompt_and_is_not_sent(world, fields):
    html = send(world, **fields)
    assert 'data-testid="feedback-prompt"' in html
    assert not world["session"].messages.filter(payload_type="human_feedback").exists()


def test_a_stale_page_gets_the_conflict_and_keeps_the_feedback(world):
    stale = WorkSession.objects.get(pk=world["session"].pk).head_checksum
    post(world["session"], world["owner"], envelopes.feedback, "r1", message_id="c1")
    html = send(
        world, context_checksum=stale, target_message_id="r1", feedback_type="refinement", instruction="Shorter please"
    )
    assert 'data-testid="feedback-conflict"' in html and "c1" in html and "Shorter please" in html
    assert world["session"].messages.filter(payload_type="human_feedback").count() == 1


def test_viewers_get_no_panel_and_cannot_post_feedback(client, world):
    viewer = make_user("vic")
    member_add(session=world["session"], user=viewer, role="viewer")
    client.force_login(viewer)
    assert (
        'data-testid="feedback-panel"'
        not in client.get(reverse("workspace:detail", args=[world["session"].pk])).content.decode()
    )
    refused = client.post(
        reverse("workspace:feedback", args=[world["session"].pk]),
        {"target_message_id": "r1", "feedback_type": "approval"},
    ).content.decode()
    assert "Viewers read the session" in refused
    assert not world["session"].messages.filter(payload_type="human_feedback").exists()


def test_the_new_session_form_invites_agents_attaches_files_and_posts_the_proposal(
    client, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from agents.behaviours.registry import builtin_agents_ensure
    from agents.models import Task
    from agents.reactions import reactions_run

    builtin_agents_ensure()
    user = make_user("nina")
    client.force_login(user)
    assert 'name="goal"' in client.get(reverse("workspace:new")).content.decode()
    csv_file = SimpleUploadedFile("sales.csv", b"region,amount\nnorth,3\n", content_type="text/csv")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("workspace:new"),
            {
                "goal": "Analyse the attached sales CSV by region",
                "deadline": "2027-01-15",
                "audience": "management",
                "success_criteria": "Totals per region\nA chart",
                "roles": ["analysis"],
                "agents": ["planner", "analyst"],
                "links": "https://example.com/context",
                "files": [csv_file],
            },
        )
    assert response.status_code == 302, re.findall(r"class=\"error\"[^>]*>([^<]+)", response.content.decode())
    session = WorkSession.objects.get(title="Analyse the attached sales CSV by region")
    assert response.status_code == 302 and response.url == reverse("workspace:detail", args=[session.pk])
    proposal = session.messages.get(payload_type="task_proposal").envelope["payload"]
    assert proposal["constraints"] == {"audience": "management", "deadline": "2027-01-15"}
    assert proposal["success_criteria"] == ["Totals per region", "A chart"]
    assert proposal["background_context"] == [
        "link: https://example.com/context",
        "attached file attachments/sales.csv",
    ]
    assert sorted(session.participants.values_list("agent__name", flat=True)) == ["analyst", "planner"]
    assert not Task.objects.filter(session=session).exists()  # the request only posted the proposal
    assert reactions_run()  # the worker reacts to it
    assert Task.objects.filter(session=session, agent__name="planner").exists()
    from agents.operations.files import workspace_root

    assert (workspace_root(session.pk) / "attachments/sales.csv").read_bytes() == b"region,amount\nnorth,3\n"


def test_a_new_session_without_a_goal_is_refused_with_the_field_named(client):
    client.force_login(make_user())
    response = client.post(reverse("workspace:new"), {"goal": ""})
    assert response.status_code == 400 and "This field is required" in response.content.decode()
    assert not WorkSession.objects.exists()


def test_a_long_goal_titles_the_session_whole_or_cut_at_a_word(client):
    client.force_login(make_user())
    question = "Do patients with a higher body mass index show faster disease progression (target)?"
    long_goal = "Compare " + " ".join(f"measure{n}" for n in range(30))
    for goal in (question, long_goal):
        client.post(reverse("workspace:new"), {"goal": goal})
    assert WorkSession.objects.filter(title=question).exists()  # 85 characters: whole, never "(targe"
    cut = WorkSession.objects.exclude(title=question).get().title
    assert cut.endswith("…") and len(cut) <= 120 and long_goal.startswith(cut[:-1]) and cut[-2].isdigit()


def test_the_sessions_list_counts_what_waits_for_you(world):
    html = world["client"].get(reverse("workspace:list")).content.decode()
    assert "1 waiting for you" in html and reverse("workspace:new") in html


def test_clarification_options_are_buttons_that_answer(world, django_capture_on_commit_callbacks):
    session = world["session"]
    agent = make_agent("planner")
    agent_join(session=session, agent=agent)
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    asked = envelopes.envelope(
        "clarification",
        {"question": "Which one?", "options": [{"id": "a", "label": "A market scan"}, {"id": "b", "label": "A SWOT"}]},
        message_id="q1", sender=("agent", "planner"), session_id=session.pk, context_checksum=head,
    )  # fmt: skip
    message_post(session_id=session.pk, caller=caller_for_agent(agent), envelope=asked)
    html = page(world).content.decode()
    assert '<button type="submit" name="option_id" value="b" class="option">A SWOT</button>' in html
    answered = world["client"].post(
        reverse("workspace:answer", args=[session.pk]), {"clarification_message_id": "q1", "option_id": "b"}
    )
    assert "Answered: your answer is in the thread" in answered.content.decode()
    answer = session.messages.get(payload_type="clarification_answer").envelope["payload"]
    assert answer == {"clarification_message_id": "q1", "option_id": "b"}


def test_approving_a_plan_logs_the_approval_and_schedules_its_steps(world):
    session = world["session"]
    agent = make_agent("planner", roles=["planning"])
    agent_join(session=session, agent=agent)
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    plan = envelopes.declaration(steps=2, message_id="d1", session_id=session.pk, context_checksum=head)
    message_post(session_id=session.pk, caller=caller_for_agent(agent), envelope=plan)
    assert "Approve the plan" in page(world).content.decode()
    done = world["client"].post(reverse("workspace:plan-approve", args=[session.pk, "d1"])).content.decode()
    assert "2 tasks scheduled" in done
    approval = session.messages.get(payload_type="human_feedback").envelope
    assert approval["payload"] == {"target_message_id": "d1", "feedback_type": "approval", "priority": "medium"}
    from agents.models import Task

    assert Task.objects.filter(session=session, source_message_id="d1").count() == 2


def test_approval_cards_show_what_waits_and_decide_it(world):
    from agents.models import Approval

    session = world["session"]
    agent = make_agent("cleaner", allowed_operations=["file.*"])
    agent_join(session=session, agent=agent)
    waiting = Approval.objects.create(
        session=session, requested_by="agent:cleaner", agent=agent, operation="file.delete", block_type="action",
        request={"path": "old.txt", "confirm": True}, reason="file.delete is irreversible",
    )  # fmt: skip
    html = page(world).content.decode()
    assert f'data-gate-key="operation:{waiting.pk}"' in html and "file.delete is irreversible" in html
    assert "cleaner asks to run file.delete" in html and "waiting for approval" in html
    decided = {"key": f"operation:{waiting.pk}", "decision": "reject", "reason": "keep it"}
    cards = world["client"].post(reverse("workspace:gate", args=[session.pk]), decided).content.decode()
    waiting.refresh_from_db()
    assert waiting.status == "rejected" and waiting.decision_reason == "keep it"
    assert f"operation:{waiting.pk}" not in cards and "cleaner asks" not in cards


def test_the_status_bar_shows_each_agents_latest_activity(world):
    session = world["session"]
    agent = make_agent("analyst", kind="builtin")
    agent_join(session=session, agent=agent)
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    status = envelopes.envelope(
        "agent_status", {"activity": "Profiling sales.csv", "state": "working", "progress": {"done": 1, "total": 3}},
        sender=("agent", "analyst"), session_id=session.pk, context_checksum=head,
    )  # fmt: skip
    message_post(session_id=session.pk, caller=caller_for_agent(agent), envelope=status)
    html = page(world).content.decode()
    bar = html[html.index('id="agent-status"') : html.index("</section>", html.index('id="agent-status"'))]
    assert "analyst" in bar and "Profiling sales.csv" in bar and "1/3" in bar and "online" in bar


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("workspace:answer", (), {"clarification_message_id": "r1", "free_answer": "Business"}),
        ("workspace:plan-approve", ("r1",), {}),
    ],
)
def test_viewers_cannot_answer_or_approve(client, world, name, args, data):
    viewer = make_user("vic")
    member_add(session=world["session"], user=viewer, role="viewer")
    client.force_login(viewer)
    html = client.post(reverse(name, args=[world["session"].pk, *args]), data).content.decode()
    assert 'class="error"' in html and "viewers cannot" in html
    assert world["session"].messages.count() == 2
