"""One decision, one path: a proposed plan approved by any channel (the thread's Approve button, the REST
accept route, the waiting list, a human_feedback approval over REST, the CHAP socket or the feedback
panel) has its steps made tasks once, and every channel then refuses a second decision; a correction or
a new direction of the plan, by any channel, rejects it and sets its author planning again."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from agents.models import Task
from agents.reactions import reactions_run
from sessions.access import caller_for_agent
from sessions.log import message_post
from sessions.models import Message, WorkSession
from tests.people import api_as, session_of, with_builtin
from tests.sessions import envelopes
from tests.sockets import Socket, cookie_headers, run

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "datasets"])
PLAN = "d1"
SECOND = "olga approved this already"


@pytest.fixture
def team():
    people = session_of("editor", title="Sales")
    agents = with_builtin(people["session"], planner=["planning"], analyst=["analysis"])
    session = people["session"]
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    declared = envelopes.declaration(steps=2, message_id=PLAN, session_id=session.pk, context_checksum=head)
    message_post(session_id=session.pk, caller=caller_for_agent(agents["planner"]), envelope=declared)
    return {"session": session, "owner": people["owner"], "editor": people["editor"]}


def human_feedback(team, feedback_type, user="owner"):
    """A CHAP human_feedback on the plan, as a client writes it: against the head it has read."""
    session = team["session"]
    payload = {"target_message_id": PLAN, "feedback_type": feedback_type}
    if feedback_type != "approval":
        payload["specific_instructions"] = {"request": "Start from the regional totals"}
    return envelopes.envelope(
        "human_feedback",
        payload,
        sender=("human", team[user].username),
        session_id=session.pk,
        context_checksum=WorkSession.objects.get(pk=session.pk).head_checksum,
        in_reply_to=PLAN,
    )


def refusal(response):
    """None for a decision taken; else the refusal, which must be ALREADY_DECIDED's."""
    if response.status_code in (200, 201):
        return None
    error = response.json()["error"]
    assert (response.status_code, error["code"]) == (409, "ALREADY_DECIDED"), error
    return error["message"]


def html_refusal(response):
    """None for a decision taken; else the refusal the page shows."""
    assert response.status_code == 200
    shown = re.search(r'<p class="error"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    return html.unescape(shown.group(1)) if shown else None


def browser(user):
    client = Client()
    client.force_login(user)
    return client


def approve_button(team, feedback_type, user="owner"):
    url = reverse("workspace:plan-approve", args=[team["session"].pk, PLAN])
    return html_refusal(browser(team[user]).post(url))


def accept_route(team, feedback_type, user="owner"):
    return refusal(api_as(team[user]).post(f"/api/sessions/{team['session'].pk}/plans/{PLAN}/accept/"))


def waiting_list(team, feedback_type, user="owner"):
    decision = {"key": f"plan:{PLAN}", "decision": "approve" if feedback_type == "approval" else "reject"}
    if feedback_type != "approval":
        decision["reason"] = "Start from the regional totals"
    return refusal(
        api_as(team[user]).post(f"/api/sessions/{team['session'].pk}/waiting/decide/", decision, format="json")
    )


def rest_message(team, feedback_type, user="owner"):
    envelope = human_feedback(team, feedback_type, user)
    return refusal(api_as(team[user]).post(f"/api/sessions/{team['session'].pk}/messages/", envelope, format="json"))


def chap_socket(team, feedback_type, user="owner"):
    envelope = human_feedback(team, feedback_type, user)
    socket = Socket(team["session"], cookie_headers(None, team[user]))

    async def scenario():
        await socket.open()
        await socket.receive_until("hello", timeout=30)
        await socket.send(envelope)
        answer = await socket.receive_until(lambda frame: frame["type"] in ("ack", "error"), timeout=30)
        await socket.close()
        return answer

    answer = run(scenario)
    if answer["type"] == "ack":
        return None
    assert answer["error"]["code"] == "ALREADY_DECIDED", answer
    return answer["error"]["message"]


def feedback_panel(team, feedback_type, user="owner"):
    form = {"target_message_id": PLAN, "feedback_type": feedback_type}
    if feedback_type != "approval":
        form["instruction"] = "Start from the regional totals"
    response = browser(team[user]).post(reverse("workspace:feedback", args=[team["session"].pk]), form)
    return html_refusal(response)


APPROVING = {
    "approve button": approve_button,
    "REST accept route": accept_route,
    "waiting list": waiting_list,
    "REST human_feedback": rest_message,
    "CHAP socket human_feedback": chap_socket,
    "feedback panel": feedback_panel,
}
REJECTING = {
    "waiting list": (waiting_list, "correction"),
    "REST human_feedback": (rest_message, "correction"),
    "CHAP socket human_feedback": (chap_socket, "new_direction"),
    "feedback panel": (feedback_panel, "correction"),
}


def steps(team):
    tasks = Task.objects.filter(session=team["session"], source_message_id=PLAN).order_by("pk")
    return [(task.plan_step, task.title, [d.plan_step for d in task.depends_on.all()]) for task in tasks]


def created_events(team):
    events = Message.objects.filter(session=team["session"], payload_type="task_event")
    return sum(event.envelope["payload"]["action"] == "created" for event in events)


def decisions(team):
    return Message.objects.filter(session=team["session"], payload_type="human_feedback").count()


@pytest.mark.parametrize("channel", APPROVING)
def test_a_plan_approved_by_any_channel_has_its_steps_made_once_and_is_not_decided_again(team, channel):
    assert APPROVING[channel](team, "approval") is None
    made = [(1, "step 1", []), (2, "step 2", [1])]
    assert steps(team) == made and created_events(team) == 2
    assert decisions(team) == 1

    for again in APPROVING.values():
        assert again(team, "approval", user="editor") == SECOND
    for again, rejection in REJECTING.values():
        assert again(team, rejection, user="editor") == SECOND
    reactions_run()
    assert steps(team) == made and created_events(team) == 2 and decisions(team) == 1


@pytest.mark.parametrize("channel", REJECTING)
def test_a_plan_rejected_by_any_channel_starts_nothing_and_its_author_plans_again(team, channel):
    rejecting, rejection = REJECTING[channel]
    assert rejecting(team, rejection) is None
    reactions_run()
    assert steps(team) == []
    replanning = Task.objects.get(session=team["session"])
    assert replanning.agent.name == "planner" and replanning.title.startswith("Revise after the")

    for again in APPROVING.values():
        assert again(team, "approval", user="editor").startswith("olga rejected this already: “")
    for again, rejection in REJECTING.values():
        assert again(team, rejection, user="editor").startswith("olga rejected this already: “")
    assert steps(team) == [] and decisions(team) == 1
