"""Where a session stands, said the same on the sessions list, the review page and the state card:
what waits is "for you" only to those who decide it, nothing waits once the session is done, a gate
names the newest version of what it hands on, and a failed step or a session that ended without a report says
so everywhere."""

import re
from html import unescape

import pytest
from django.urls import reverse

from agents.gates import gate_decide, waiting_for_people
from agents.models import Task, TaskState
from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from sessions.log import message_post
from sessions.membership import session_update
from sessions.models import WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.pages import visible_text
from tests.sessions import envelopes
from workspace.fragments import live_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(client):
    owner, commenter = make_user("olga"), make_user("cora")
    session = make_session(owner=owner, title="Sales", members={commenter: "commenter"})
    post_message(session, caller_for_user(owner), envelopes.proposal, message_id="t")
    return {"session": session, "owner": owner, "commenter": commenter, "client": client}


def screens(world, user) -> dict[str, str]:
    """What ``user`` reads of the session: its row on the list and on the review page, its state
    card, the approvals panel and the answer card."""
    client, session = world["client"], world["session"]
    client.force_login(user)

    def row(name):
        html = client.get(reverse(name)).content.decode()
        return text(re.search(r"<tr>\s*<td><a [^>]*>Sales</a>.*?</tr>", html, re.S).group())

    detail = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    parts = {name: text(section(detail, name)) for name in ("session-state", "approvals", "answer-card")}
    return {"list": row("workspace:list"), "review": row("workspace:team"), **parts}


def section(html: str, name: str) -> str:
    return re.search(rf'<section id="{name}".*?</section>', html, re.S).group()


def text(html: str) -> str:
    return " ".join(unescape(visible_text(html)).split())


def test_what_waits_is_for_you_to_those_who_decide_and_for_an_owner_or_editor_to_a_commenter(world):
    post_message(world["session"], agent_in(world["session"], "planner"), envelopes.declaration, message_id="d")
    owner, commenter = screens(world, world["owner"]), screens(world, world["commenter"])
    assert owner["list"].startswith("Sales Waiting for you") and owner["list"].endswith("1 waiting for you")
    assert owner["review"].startswith("Sales Waiting for you")
    assert owner["session-state"].startswith("Waiting for you planner's plan in 3 steps")
    assert commenter["list"].startswith("Sales Waiting for an owner or editor") and commenter["list"].endswith(
        "nothing"
    )
    assert commenter["review"].startswith("Sales Waiting for an owner or editor")
    assert commenter["session-state"].startswith("Waiting for an owner or editor")
    assert "waiting for you" not in " ".join(commenter.values()).lower()
    assert "Nothing for you to decide." in commenter["answer-card"]


def test_once_the_session_is_done_nothing_waits_anywhere_and_reopened_it_waits_again(world):
    session = world["session"]
    post_message(session, agent_in(session, "planner"), envelopes.declaration, message_id="d")
    post_message(session, agent_in(session, "analyst"), envelopes.response, message_id="r1")  # it asks a question
    session_update(session_id=session.pk, caller=caller_for_user(world["owner"]), state="done")

    done = screens(world, world["owner"])
    assert done["list"].startswith("Sales Done") and done["list"].endswith("nothing")
    assert done["review"].startswith("Sales Done")
    assert done["session-state"] == "Done Reopen the session"
    assert done["approvals"] == "Approvals and questions Nothing waits for a decision."
    assert "waiting" not in " ".join(done.values()).lower()

    event = session.messages.filter(payload_type="session_event").latest("seq")
    live = text(
        live_update(
            session=WorkSession.objects.get(pk=session.pk),
            seq=event.seq,
            envelope=event.envelope,
            checksum=event.checksum,
            role="editor",
            caller=caller_for_user(world["commenter"]),
        )
    )  # what another member's open page gets
    assert "Done" in live and "Nothing waits for a decision." in live and "waiting" not in live.lower()

    session_update(session_id=session.pk, caller=caller_for_user(world["owner"]), state="working")
    assert screens(world, world["owner"])["list"].endswith("2 waiting for you")


def test_the_review_page_says_ready_for_your_review_as_the_list_does_not_the_rows_state(world):
    session = world["session"]
    post_message(session, agent_in(session, "analyst"), envelopes.response, questions=(), message_id="r1")
    Task.objects.create(session=session, title="Analyse", state=TaskState.DONE, result_message_id="r1")
    owner = screens(world, world["owner"])
    assert owner["list"].startswith("Sales Ready for your review")
    assert owner["review"].startswith("Sales Ready for your review")  # it was "Proposed", the row's own state
    assert owner["session-state"].startswith("Ready for your review every task is done")
    assert screens(world, world["commenter"])["list"].startswith("Sales Ready for review by an owner or editor")


def test_a_session_whose_tasks_ended_without_a_report_is_not_ready_for_review(world):
    session = world["session"]
    Task.objects.create(session=session, title="Import the file", state=TaskState.CANCELLED)
    owner = screens(world, world["owner"])
    assert owner["list"].startswith("Sales Ended without an answer")
    assert owner["review"].startswith("Sales Ended without an answer")
    assert owner["session-state"].startswith("Ended without an answer every task ended and no report answers")


def test_a_failed_step_shows_failed_on_every_screen(world):
    Task.objects.create(session=world["session"], title="Import the file", state=TaskState.FAILED, last_error="x")
    for user in (world["owner"], world["commenter"]):
        shown = screens(world, user)
        assert shown["list"].startswith("Sales A step failed") and shown["review"].startswith("Sales A step failed")
        assert shown["session-state"].startswith("A step failed")


def test_a_gate_names_the_newest_version_of_a_redone_report(world):
    session = world["session"]
    scribe = agent_in(session, "scribe")
    post_message(session, scribe, envelopes.response, questions=(), message_id="w1")
    written = Task.objects.create(session=session, title="Write", state=TaskState.DONE, result_message_id="w1")
    review = Task.objects.create(session=session, title="Review", state=TaskState.WAITING_APPROVAL)
    review.depends_on.add(written)
    post_message(session, scribe, envelopes.response, questions=(), message_id="w2")  # written again

    world["client"].force_login(world["owner"])
    html = world["client"].get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert f"with #{written.pk} the output of “Write”: the report from scribe, as written again since" in text(html)


def test_the_retrospective_of_a_done_session_says_a_step_was_never_approved_not_no_consensus_yet(world):
    session = world["session"]
    post_message(session, agent_in(session, "planner"), envelopes.declaration, message_id="d")
    session_update(session_id=session.pk, caller=caller_for_user(world["owner"]), state="done")
    world["client"].force_login(world["owner"])
    html = world["client"].get(reverse("workspace:retrospective", args=[session.pk])).content.decode()
    assert "step 1: no report of this step was approved" in text(html) and "no consensus yet" not in text(html)


def test_what_a_redo_no_longer_asks_waits_nowhere_and_nothing_waits_once_done(world):
    """A redo asks again what its agent still needs to know: its earlier report's questions, and its
    clarifications before it, wait no more (on the list, the state card, the panel, the answer card);
    another agent's question still does, as does what a refusal left, and what a report that says its
    earlier questions stand left (the analyst asks each question once); none once the session is done."""
    session, owner = world["session"], world["owner"]
    reviewer, planner = agent_in(session, "reviewer"), agent_in(session, "planner")
    which = {"question": "Which report should I review?", "allow_free_answer": True}
    post_message(
        session, planner, envelopes.envelope, "clarification", {"question": "Which template?"}, message_id="q0"
    )
    post_message(session, reviewer, envelopes.envelope, "clarification", which, message_id="q1")
    assert screens(world, owner)["list"].endswith("2 waiting for you")

    def review(message_id, *questions, **provenance):
        made = envelopes.response(questions=questions, message_id=message_id, session_id=session.pk,
                                  sender=("agent", "reviewer"),
                                  context_checksum=WorkSession.objects.get(pk=session.pk).head_checksum)  # fmt: skip
        made["payload"]["provenance"] = {"behaviour": "reviewer", **provenance}
        message_post(session_id=session.pk, caller=reviewer, envelope=made)

    review("r1", "Net or gross?", "Which year?")
    assert screens(world, owner)["list"].endswith("3 waiting for you")  # the review went on without q1's answer
    review("r2", "Which year?")  # the redo
    assert [gate.key for gate in waiting_for_people(session)] == ["question:q0", "question:r2:0"]
    shown = screens(world, owner)
    assert shown["list"].endswith("2 waiting for you")
    assert "Net or gross?" not in " ".join(shown.values()) and "Which report" not in " ".join(shown.values())
    assert "For you: planner asks: Which template? and 1 more" in shown["answer-card"]
    with pytest.raises(ProtocolError) as gone:  # nothing waits under its name any more
        gate_decide(session_id=session.pk, caller=caller_for_user(owner), key="question:r1:0", decision="answer",
                    reason="Net")  # fmt: skip
    assert gone.value.code == "ALREADY_DECIDED"
    page = world["client"].get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert page.count('data-testid="no-longer-asked"') == 3  # r1's two questions and q1, without an answer box
    assert page.count('name="free_answer"') == 2  # q0 and r2's question

    review("r3", refused=True)
    review("r4", "Which region?", earlier_questions_stand=True)
    assert [gate.key for gate in waiting_for_people(session)] == ["question:q0", "question:r2:0", "question:r4:0"]

    session_update(session_id=session.pk, caller=caller_for_user(owner), state="done")
    done = screens(world, owner)
    assert "waiting" not in " ".join(done.values()).lower() and done["list"].endswith("nothing")
    assert "Nothing for you to decide." in done["answer-card"]
