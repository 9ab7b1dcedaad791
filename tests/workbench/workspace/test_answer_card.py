"""The answer card at the top of the session page: each question with the lead that answers it now,
its confidence, who reviewed the report, links to the report and its node, and what waits for the
reader; sent again live with the state card."""

import re
from html import unescape

import pytest
from django.urls import reverse

from sessions.access import caller_for_user
from sessions.models import WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.pages import visible_text
from tests.sessions import envelopes
from workspace.fragments import live_update

pytestmark = pytest.mark.django_db

NORTH = "**north** sells the most: **12** (n = 3), 4 more than south (8)."
WEEKEND = "**Saturday** has the highest mean basket: **31.50** (n = 4)."


def analysis(message_id, answers, **kwargs):
    """An analyst's report keeping its questions' answers, its Findings leading with the latest."""
    report = envelopes.response(message_id=message_id, questions=(), **kwargs)
    payload = report["payload"]
    payload["content"]["sections"].insert(0, {"id": "findings", "title": "Findings", "body": answers[-1][1]})
    payload["provenance"] = {
        "answers": [{"asked": a, "lead": lead, "confidence": 0.8, "report": message_id} for a, lead in answers]
    }
    return report


def with_provenance(provenance, **kwargs):
    """A report (``envelopes.response``) with ``provenance``: a review, a written deliverable."""
    report = envelopes.response(questions=(), **kwargs)
    report["payload"]["provenance"] = provenance
    return report


def card(html: str) -> str:
    return unescape(visible_text(re.search(r'<section id="answer-card".*?</section>', html, re.S).group()))


@pytest.fixture
def world(client):
    owner, commenter = make_user("olga"), make_user("cora")
    session = make_session(owner=owner, title="Sales", members={commenter: "commenter"})
    post_message(session, caller_for_user(owner), envelopes.proposal, goal="Which region sells most?")
    client.force_login(owner)
    return {"session": session, "owner": owner, "commenter": commenter, "client": client}


def page(world) -> str:
    return world["client"].get(reverse("workspace:detail", args=[world["session"].pk])).content.decode()


def test_before_a_report_the_card_says_the_question_and_that_no_answer_came_yet(world):
    said = "The answer Which region sells most? No answer yet: the agents' report will answer here. Nothing for you to decide."
    assert card(page(world)).split() == said.split()


def test_each_question_has_its_line_with_the_lead_that_answers_it_and_the_reviewer(world):
    session = world["session"]
    analyst = agent_in(session, "analyst")
    asked = [("Which region sells most?", NORTH), ("And which weekday?", WEEKEND)]
    post_message(session, analyst, analysis, "a1", asked)
    post_message(session, agent_in(session, "reviewer"), with_provenance, {"review_of": "a1"})

    html = page(world)
    shown = card(html)
    assert "The answers Which region sells most? north sells the most: 12 (n = 3), 4 more than south (8)." in shown
    assert "And which weekday? Saturday has the highest mean basket: 31.50 (n = 4). Confidence 0.8" in shown
    assert "Not yet approved, reviewed by reviewer · Read the full report · Show it on the map" in shown
    seq = session.messages.get(message_id="a1").seq
    assert f'href="#msg-{seq}"' in html and f'<article id="msg-{seq}"' in html
    node = re.search(r'href="#map-node-(\d+)"', html).group(1)
    assert re.search(rf'<g id="map-node-{node}" class="node shape-\w+ status-\w+ current"', html)


def test_each_answer_is_tinted_by_its_confidence_as_the_heatmap_is(world):
    session = world["session"]

    def unsure(**kwargs):
        report = analysis("a1", [("Which region sells most?", NORTH)], **kwargs)
        report["payload"]["provenance"]["answers"][0]["confidence"] = 0.2  # a question it could not answer
        return report

    post_message(session, agent_in(session, "analyst"), unsure)
    answers = re.findall(r'<li class="answer heat heat-(\w+)" data-testid="answer">', page(world))
    assert answers == ["0"]  # below 0.4: the heatmap's red, never the card's old fixed green


def test_a_written_report_answers_with_the_leads_of_the_analysis_it_was_written_from(world):
    session = world["session"]
    post_message(session, agent_in(session, "analyst"), analysis, "a1", [("Which region sells most?", NORTH)])
    written = {"deliverable": True, "from_message_id": "a1"}
    post_message(session, agent_in(session, "scribe"), with_provenance, written, message_id="w1")

    html = page(world)
    assert "north sells the most: 12" in card(html) and "not reviewed yet" in card(html)
    assert f'href="#msg-{session.messages.get(message_id="w1").seq}"' in html  # the report the reader reads


def test_a_new_report_comes_live_on_the_card(world):
    session = world["session"]
    post_message(session, agent_in(session, "analyst"), analysis, "a1", [("Which region sells most?", NORTH)])
    redo = post_message(session, agent_in(session, "analyst"), analysis, "a2", [("Which region sells most?", WEEKEND)])
    row = session.messages.get(message_id=redo.message_id)
    html = live_update(
        session=WorkSession.objects.get(pk=session.pk),
        seq=row.seq,
        envelope=row.envelope,
        checksum=row.checksum,
        role="commenter",
    )
    assert '<section id="answer-card"' in html and 'hx-swap-oob="true"' in html
    assert "Saturday has the highest mean basket" in card(html) and "north" not in card(html)


def test_the_card_tells_who_decides_what_waits_and_a_commenter_that_nothing_waits_for_them(world, client):
    session = world["session"]
    post_message(session, agent_in(session, "planner"), envelopes.declaration, message_id="d")
    assert "For you: planner's plan in 3 steps" in card(page(world))
    client.force_login(world["commenter"])
    html = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert "Nothing for you to decide." in card(html) and "For you" not in card(html)


SUGGESTED = [
    {"question": "How did the average sales change over time?", "kind": "trend", "columns": ["sales", "day"]},
    {"question": "Are there any outliers in sales?", "kind": "outliers", "columns": ["sales"]},
]


def test_the_suggested_questions_are_one_click_away_and_a_click_asks_one_of_the_analysis(world, client):
    session = world["session"]
    post_message(session, agent_in(session, "analyst"), analysis, "a1", [("Which region sells most?", NORTH)])
    report = session.messages.get(message_id="a1")
    report.envelope["payload"]["provenance"]["suggested_questions"] = SUGGESTED  # as the analyst offers them
    report.save(update_fields=["envelope"])
    assert "Ask next How did the average sales change over time? Are there any outliers in sales?" in card(page(world))

    url = reverse("workspace:feedback", args=[session.pk])
    form = {"view": "suggestion", "target_message_id": "a1", "feedback_type": "new_direction",
            "instruction": SUGGESTED[1]["question"]}  # fmt: skip
    said = visible_text(world["client"].post(url, form).content.decode())
    asked = session.messages.get(payload_type="human_feedback")
    assert said.strip() == f"Asked: your question is in the thread as #{asked.seq}; the analyst answers it next."
    assert asked.in_reply_to == "a1" and asked.envelope["payload"]["feedback_type"] == "new_direction"
    assert asked.envelope["payload"]["specific_instructions"] == {"request": "Are there any outliers in sales?"}

    shown = card(page(world))  # asked: no longer offered, and the card says the answer is on its way
    assert "Ask next How did the average sales change over time? Asked: “Are there any outliers in sales?”" in shown
    client.force_login(world["commenter"])
    html = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert "Ask next" not in card(html)  # a commenter suggests refinements; owners and editors ask
