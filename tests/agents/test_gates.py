"""What waits for people: one list (operations, plan steps, plans, questions) and one way to decide it."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from agents.gates import gate_decide, waiting_counts, waiting_for_people
from agents.models import Approval, Task, TaskState
from agents.scheduling.acts import task_create, task_unassign
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user
from sessions.graphs import graph_cache
from sessions.log import message_post
from sessions.membership import agent_join
from sessions.models import Message, WorkSession
from tests.factories import make_agent, make_session, make_user
from tests.people import session_of, with_builtin
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def post(session, agent, factory, **kwargs):
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    envelope = factory(session_id=session.pk, context_checksum=head, sender=("agent", agent.name), **kwargs)
    return message_post(session_id=session.pk, caller=caller_for_agent(agent), envelope=envelope)


@pytest.fixture
def team():
    people = session_of("editor", "viewer", title="Sales")
    agents = with_builtin(people["session"], planner=["planning"], reviewer=["review"])
    return {
        "session": people["session"],
        **{role: caller_for_user(people[role]) for role in ("owner", "editor", "viewer")},
        "users": (people["owner"], people["editor"], people["viewer"]),
        **agents,
    }


def keys(session):
    return [gate.key for gate in waiting_for_people(session)]


def test_one_list_holds_operations_steps_plans_and_questions_in_plain_words(team):
    session = team["session"]
    approval = Approval.objects.create(
        session=session, requested_by="agent:reviewer", agent=team["reviewer"], operation="file.delete",
        block_type="action", request={"path": "old.csv"}, reason="file.delete is irreversible",
    )  # fmt: skip
    step = task_create(
        session_id=session.pk, caller=team["owner"], title="Review the report against the data",
        agent="reviewer", requires_approval=True,
    )  # fmt: skip
    post(session, team["planner"], envelopes.declaration, message_id="d1")
    asked = {"question": "Which regions?", "options": [{"id": "all", "label": "All of them"}]}
    post(session, team["planner"], lambda **k: envelopes.envelope("clarification", asked, **k), message_id="q1")
    post(session, team["reviewer"], envelopes.response, message_id="r1", questions=("Net or gross?",))

    gates = {gate.key: gate for gate in waiting_for_people(session)}
    assert list(gates) == [f"operation:{approval.pk}", f"step:{step.pk}", "plan:d1", "question:q1", "question:r1:0"]
    operation = gates[f"operation:{approval.pk}"]
    assert operation.label == "reviewer asks to run file.delete" and operation.status == "waiting for approval"
    assert operation.on_approval == 'file.delete runs with reviewer\'s rights, with path="old.csv"'
    assert gates[f"step:{step.pk}"].on_approval.startswith("reviewer runs “Review the report against the data”")
    assert "3 steps" in gates["plan:d1"].label and "step 3 will wait for approval again" in gates["plan:d1"].on_approval
    assert gates["question:q1"].label == "planner asks: Which regions?" and gates["question:q1"].options[0].id == "all"
    assert gates["question:r1:0"].label == "reviewer asks: Net or gross?"
    assert all(gate.deciders == ("owner", "editor") for gate in gates.values())
    assert not any("_" in gate.status for gate in gates.values())


def test_a_step_at_its_gate_is_approved_or_rejected_with_a_reason(team):
    session = team["session"]
    first = task_create(session_id=session.pk, caller=team["owner"], title="Analyse", agent="planner")
    gated = task_create(
        session_id=session.pk, caller=team["owner"], title="Review", agent="reviewer",
        requires_approval=True, depends_on=[first.pk],
    )  # fmt: skip
    (gate,) = waiting_for_people(session)
    assert gate.on_approval.endswith(f"once #{first.pk} is done") and f"#{first.pk}" in gate.on_approval
    gate_decide(session_id=session.pk, caller=team["editor"], key=gate.key, decision="approve")
    gated.refresh_from_db()
    assert gated.state == TaskState.QUEUED and gated.approved_by.username == "ed"
    assert keys(session) == []

    again = task_create(session_id=session.pk, caller=team["owner"], title="Publish", requires_approval=True)
    gate_decide(session_id=session.pk, caller=team["owner"], key=f"step:{again.pk}", decision="reject", reason="no")
    again.refresh_from_db()
    assert again.state == TaskState.CANCELLED
    cancelled = Message.objects.filter(session=session, payload_type="task_event").last().envelope["payload"]
    assert cancelled["action"] == "cancelled" and cancelled["note"] == "no"


def test_a_plan_is_approved_into_tasks_or_rejected_as_a_correction(team):
    session = team["session"]
    post(session, team["planner"], envelopes.declaration, message_id="d1", steps=2)
    gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d1", decision="approve")
    tasks = Task.objects.filter(session=session, source_message_id="d1").order_by("plan_step")
    assert [t.state for t in tasks] == [TaskState.QUEUED, TaskState.WAITING_APPROVAL]
    assert keys(session) == [f"step:{tasks[1].pk}"]
    approval = Message.objects.get(session=session, payload_type="human_feedback").envelope["payload"]
    assert approval["feedback_type"] == "approval" and approval["target_message_id"] == "d1"

    post(session, team["planner"], envelopes.declaration, message_id="d2", steps=1)
    gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d2", decision="reject", reason="too short")
    rejected = Message.objects.filter(session=session, payload_type="human_feedback").last().envelope["payload"]
    assert rejected["feedback_type"] == "correction" and rejected["specific_instructions"] == {"reason": "too short"}
    assert "plan:d2" not in keys(session)


def test_an_operation_runs_or_is_denied_through_the_approval_service(team):
    session = team["session"]
    approval = Approval.objects.create(
        session=session, requested_by="agent:reviewer", agent=team["reviewer"], operation="system.ping",
        block_type="query", request={}, reason="asked for",
    )  # fmt: skip
    gate_decide(session_id=session.pk, caller=team["owner"], key=f"operation:{approval.pk}", decision="reject")
    approval.refresh_from_db()
    assert approval.status == "rejected" and approval.response["body"]["code"] == "APPROVAL_DENIED"


def test_a_question_is_answered_with_words_or_an_option(team):
    session = team["session"]
    asked = {"question": "Which regions?", "options": [{"id": "all", "label": "All of them"}]}
    post(session, team["planner"], lambda **k: envelopes.envelope("clarification", asked, **k), message_id="q1")
    post(session, team["reviewer"], envelopes.response, message_id="r1", questions=("Net or gross?",))
    gate_decide(session_id=session.pk, caller=team["owner"], key="question:q1", decision="answer", option_id="all")
    gate_decide(session_id=session.pk, caller=team["editor"], key="question:r1:0", decision="answer", reason="Net")
    answers = [m.envelope["payload"] for m in Message.objects.filter(payload_type="clarification_answer")]
    assert answers == [
        {"clarification_message_id": "q1", "option_id": "all"},
        {"clarification_message_id": "r1", "question_index": 0, "free_answer": "Net"},
    ]
    assert keys(session) == []


@pytest.mark.parametrize(
    ("who", "key", "decision", "code"),
    [
        ("viewer", "step", "approve", "PERMISSION_DENIED"),
        ("owner", "step:999", "approve", "ALREADY_DECIDED"),
        ("owner", "step", "answer", "VALIDATION_FAILED"),
        ("owner", "step", "maybe", "VALIDATION_FAILED"),
    ],
)
def test_who_may_decide_and_what_a_bad_decision_gets(team, who, key, decision, code):
    session = team["session"]
    task = task_create(session_id=session.pk, caller=team["owner"], title="Review", requires_approval=True)
    with pytest.raises(ProtocolError) as refused:
        gate_decide(session_id=session.pk, caller=team[who], key=f"step:{task.pk}" if key == "step" else key,
                    decision=decision)  # fmt: skip
    assert refused.value.code == code
    agent = caller_for_agent(team["reviewer"])
    with pytest.raises(ProtocolError) as by_agent:
        gate_decide(session_id=session.pk, caller=agent, key=f"step:{task.pk}", decision="approve")
    assert by_agent.value.code == "PERMISSION_DENIED"
    task.refresh_from_db()
    assert task.state == TaskState.WAITING_APPROVAL


def test_a_viewer_is_told_who_decides_as_a_manager_is_told_elsewhere(team):
    task = task_create(session_id=team["session"].pk, caller=team["owner"], title="Review", requires_approval=True)
    with pytest.raises(ProtocolError) as refused:
        gate_decide(session_id=team["session"].pk, caller=team["viewer"], key=f"step:{task.pk}", decision="approve")
    assert refused.value.message == "only the session's owners and editors decide what waits for approval"
    assert refused.value.details == {"role": "viewer", "permission": "gate.decide"}
    assert refused.value.suggestion == ["ask one of the session's owners or editors"]


def test_a_task_returns_to_its_roles_queue(team):
    session = team["session"]
    task = task_create(session_id=session.pk, caller=team["owner"], title="Review", required_role="review")
    assert task.agent.name == "reviewer"
    task_unassign(session_id=session.pk, task_id=task.pk, caller=team["owner"])
    task.refresh_from_db()
    assert task.agent is None and task.required_role == "review"
    note = Message.objects.filter(session=session, payload_type="task_event").last().envelope["payload"]["note"]
    assert note == "back to the queue of review"


def test_the_panel_the_card_and_the_list_show_the_same_gate(team, client):
    session = team["session"]
    task = task_create(
        session_id=session.pk, caller=team["owner"], title="Review the report", agent="reviewer", requires_approval=True
    )
    owner, _, viewer = team["users"]
    client.force_login(owner)
    panel = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    board = client.get(reverse("workspace:schedule", args=[session.pk])).content.decode()
    listed = client.get(reverse("workspace:list")).content.decode()
    for html in (panel, board):
        assert f'data-gate-key="step:{task.pk}"' in html and "reviewer runs “Review the report”" in html
        assert "waiting for approval" in html and "waitingapproval" not in html and ">Approve</button>" in html
    assert "1 waiting for you" in listed
    done = client.post(
        reverse("workspace:gate", args=[session.pk]),
        {"key": f"step:{task.pk}", "decision": "approve", "view": "schedule"},
    ).content.decode()
    assert 'id="schedule-board"' in done and "data-gate-key" not in done and "queued" in done

    client.force_login(viewer)
    other = task_create(session_id=session.pk, caller=team["owner"], title="Publish", requires_approval=True)
    seen = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert f'data-gate-key="step:{other.pk}"' in seen and ">Approve</button>" not in seen
    assert "nothing" in client.get(reverse("workspace:list")).content.decode()


def test_the_agent_menus_unassigned_option_returns_the_task_to_its_queue(team, client):
    session = team["session"]
    task = task_create(session_id=session.pk, caller=team["owner"], title="Review", required_role="review")
    client.force_login(team["users"][0])
    act = {"task_id": task.pk, "action": "reassign", "agent": ""}
    board = client.post(reverse("workspace:schedule-act", args=[session.pk]), act).content.decode()
    task.refresh_from_db()
    assert task.agent is None and "Waiting for an agent that does review" in board


def test_the_rest_api_lists_and_decides_the_same_items(team, client):
    session = team["session"]
    task = task_create(session_id=session.pk, caller=team["owner"], title="Review", requires_approval=True)
    owner, _, viewer = team["users"]
    client.force_login(viewer)
    listed = client.get(f"/api/sessions/{session.pk}/waiting/").json()
    assert [(g["key"], g["status"], g["deciders"]) for g in listed] == [
        (f"step:{task.pk}", "waiting for approval", ["owner", "editor"])
    ]
    url = f"/api/sessions/{session.pk}/waiting/decide/"
    refused = client.post(url, {"key": f"step:{task.pk}", "decision": "approve"}, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "PERMISSION_DENIED"
    client.force_login(owner)
    bad = client.post(url, {"key": f"step:{task.pk}", "decision": "yes"}, content_type="application/json")
    assert bad.status_code == 400
    done = client.post(url, {"key": f"step:{task.pk}", "decision": "approve"}, content_type="application/json")
    assert done.status_code == 200 and done.json()["task_id"] == task.pk
    again = client.post(url, {"key": f"step:{task.pk}", "decision": "approve"}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "ALREADY_DECIDED"
    assert client.get(f"/api/sessions/{session.pk}/waiting/").json() == []
    schema = client.get("/api/schema/").content.decode()
    assert "/waiting/decide/" in schema and "on_approval" in schema


def test_a_session_with_more_questions_than_a_list_shows_lists_the_oldest(team, monkeypatch):
    session = team["session"]
    monkeypatch.setattr("agents.gates.SHOWN", 3)
    for n in range(5):
        asked = {"question": f"Question {n}?"}
        post(
            session,
            team["planner"],
            envelopes.envelope,
            payload_type="clarification",
            payload=asked,
            message_id=f"q{n}",
        )
    labels = [gate.label for gate in waiting_for_people(session) if gate.kind == "question"]
    assert labels == ["planner asks: Question 0?", "planner asks: Question 1?", "planner asks: Question 2?"]


def waiting_listed(client) -> str:
    """What the sessions list says waits for the signed-in user, in its own words."""
    html = client.get(reverse("workspace:list")).content.decode()
    found = re.search(r"(\d+) waiting for you", html)
    return found.group(1) if found else "nothing"


def test_the_sessions_list_counts_what_waits_as_questions_are_asked_answered_and_corrected(team, client):
    session, owner = team["session"], team["owner"]
    client.force_login(team["users"][0])
    asked = {"question": "Which regions?", "options": [{"id": "all", "label": "All of them"}]}
    assert waiting_listed(client) == "nothing"
    post(session, team["planner"], lambda **k: envelopes.envelope("clarification", asked, **k), message_id="q1")
    assert waiting_listed(client) == "1"
    post(session, team["reviewer"], envelopes.response, message_id="r1", questions=("Net or gross?", "Which year?"))
    assert waiting_listed(client) == "3"
    gate_decide(session_id=session.pk, caller=owner, key="question:r1:0", decision="answer", reason="Net")
    assert waiting_listed(client) == "2"
    gate_decide(session_id=session.pk, caller=owner, key="question:q1", decision="answer", option_id="all")
    assert waiting_listed(client) == "1"

    def say(factory, **kwargs):
        head = WorkSession.objects.get(pk=session.pk).head_checksum
        envelope = factory(session_id=session.pk, context_checksum=head, sender=("human", "olga"), **kwargs)
        message_post(session_id=session.pk, caller=owner, envelope=envelope)

    # A correction of the report puts what it said in doubt, not what it asks: the question still waits
    # (the redo will not ask it again), also once the correction itself is withdrawn.
    say(lambda **k: envelopes.feedback("r1", **k), message_id="c1")
    assert waiting_listed(client) == "1"
    say(lambda **k: envelopes.feedback("c1", **k), message_id="c2")
    assert waiting_listed(client) == "1"
    assert [gate.key for gate in waiting_for_people(session)] == ["question:r1:1"]


def test_the_list_counts_the_same_items_as_the_one_list_whatever_waits(team):
    session = team["session"]

    def counted():
        session.refresh_from_db()
        return waiting_counts([session])[session.pk]

    Approval.objects.create(
        session=session, requested_by="agent:reviewer", agent=team["reviewer"], operation="file.delete",
        block_type="action", request={"path": "old.csv"}, reason="file.delete is irreversible",
    )  # fmt: skip
    post(session, team["planner"], envelopes.declaration, message_id="d1")
    post(session, team["planner"], envelopes.declaration, message_id="d2")
    post(session, team["reviewer"], envelopes.response, message_id="r1", questions=("Net or gross?",))
    assert counted() == len(waiting_for_people(session)) == 4
    gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d1", decision="approve")
    gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d2", decision="reject", reason="too long")
    assert counted() == len(waiting_for_people(session)) == 3  # the operation, the question, d1's step 3 at its gate
    step = task_create(session_id=session.pk, caller=team["owner"], title="Publish", requires_approval=True)
    assert counted() == len(waiting_for_people(session)) == 4 and f"step:{step.pk}" in keys(session)


def test_listing_sessions_replays_no_log_and_its_queries_do_not_grow_with_sessions(client):
    owner = make_user("nora")
    planner = make_agent("planner", kind="builtin", roles=["planning"])
    asked = {"question": "Which regions?"}

    def sessions(n):
        for _ in range(n):
            session = make_session(owner=owner)
            agent_join(session=session, agent=planner)
            post(session, planner, lambda **k: envelopes.envelope("clarification", asked, **k))
            task_create(session_id=session.pk, caller=caller_for_user(owner), title="Sort", required_role="sorting")
            graph_cache.drop(session.pk)  # a list that needed the graphs would have to replay the logs

    def list_queries():
        with CaptureQueriesContext(connection) as seen:
            html = client.get(reverse("workspace:list")).content.decode()
        return html, [query["sql"] for query in seen.captured_queries]

    client.force_login(owner)
    sessions(3)
    html, few = list_queries()
    assert html.count("2 waiting for you") == 3  # the question, and the role no agent here takes
    sessions(6)
    html, many = list_queries()
    assert html.count("2 waiting for you") == 9
    assert len(many) == len(few)
    assert not [sql for sql in many if "chap_sessions_message" in sql]


def ask(team, message_id="q1"):
    asked = {
        "question": "Which regions?",
        "options": [{"id": "all", "label": "All of them"}],
        "allow_free_answer": True,
    }
    post(team["session"], team["planner"], lambda **k: envelopes.envelope("clarification", asked, **k),
         message_id=message_id)  # fmt: skip


def test_a_second_answer_is_refused_by_every_channel_saying_who_answered(team, client):
    session = team["session"]
    ask(team)
    gate_decide(session_id=session.pk, caller=team["owner"], key="question:q1", decision="answer", option_id="all")
    editor = team["users"][1]
    with pytest.raises(ProtocolError) as by_gate:
        gate_decide(session_id=session.pk, caller=team["editor"], key="question:q1", decision="answer", reason="North")
    assert (
        by_gate.value.code == "ALREADY_DECIDED" and by_gate.value.message == "olga answered this already: “All of them”"
    )
    assert by_gate.value.details["decided_by"] == "olga"

    client.force_login(editor)
    form = client.post(reverse("workspace:answer", args=[session.pk]),
                       {"clarification_message_id": "q1", "free_answer": "North"}).content.decode()  # fmt: skip
    assert 'class="error"' in form and "olga answered this already" in form
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    again = envelopes.envelope("clarification_answer", {"clarification_message_id": "q1", "free_answer": "North"},
                               sender=("human", "ed"), session_id=session.pk, context_checksum=head)  # fmt: skip
    rest = client.post(f"/api/sessions/{session.pk}/messages/", again, content_type="application/json")
    assert rest.status_code == 409 and rest.json()["error"]["code"] == "ALREADY_DECIDED"
    assert Message.objects.filter(session=session, payload_type="clarification_answer").count() == 1


def test_a_decided_plan_is_not_decided_again(team, client):
    session = team["session"]
    post(session, team["planner"], envelopes.declaration, message_id="d1", steps=2)
    gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d1", decision="approve")
    for decision in ("approve", "reject"):
        with pytest.raises(ProtocolError) as refused:
            gate_decide(session_id=session.pk, caller=team["editor"], key="plan:d1", decision=decision)
        assert refused.value.code == "ALREADY_DECIDED" and refused.value.message == "olga approved this already"
    client.force_login(team["users"][1])
    rest = client.post(f"/api/sessions/{session.pk}/plans/d1/accept/")
    assert rest.status_code == 409 and "olga approved this already" in rest.json()["error"]["message"]
    assert Task.objects.filter(session=session, source_message_id="d1").count() == 2

    post(session, team["planner"], envelopes.declaration, message_id="d2", steps=1)
    gate_decide(session_id=session.pk, caller=team["editor"], key="plan:d2", decision="reject", reason="too short")
    with pytest.raises(ProtocolError) as refused:
        gate_decide(session_id=session.pk, caller=team["owner"], key="plan:d2", decision="approve")
    assert refused.value.message == "ed rejected this already: “too short”"
    assert not Task.objects.filter(session=session, source_message_id="d2").exists()


def test_the_thread_shows_a_decided_question_and_plan_closed_with_who_decided(team, client):
    session = team["session"]
    ask(team)
    post(session, team["planner"], envelopes.declaration, message_id="d1", steps=2)
    client.force_login(team["users"][0])
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert 'name="option_id"' in page and "Approve the plan" in page
    gate_decide(session_id=session.pk, caller=team["owner"], key="question:q1", decision="answer", option_id="all")
    gate_decide(session_id=session.pk, caller=team["editor"], key="plan:d1", decision="approve")
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    decided = re.findall(r'<p class="decided[^"]*"[^>]*>\s*(.*?)\s*</p>', page, re.S)
    words = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", d)) for d in decided]
    when = r" (just now|\S+ \S+ ago|today \d\d:\d\d)"  # the time in words
    assert [re.sub(when, "", w).strip() for w in words] == ["Answered by olga: All of them", "Approved by ed"]
    assert 'name="option_id"' not in page and "Approve the plan" not in page and 'name="free_answer"' not in page


def test_reading_what_waits_leaves_the_callers_head_where_it_read_it(team, client):
    """A page's thread and the head its socket resumes from must be one: listing what waits reads the
    log as it is now without moving the page's head on (that lost the messages between them)."""
    page_row = WorkSession.objects.get(pk=team["session"].pk)
    head = page_row.head_seq
    post(team["session"], team["planner"], envelopes.declaration, message_id="d1")
    assert "plan:d1" in [gate.key for gate in waiting_for_people(page_row)]  # what waits now
    assert page_row.head_seq == head  # the page's own head, as its thread read it
