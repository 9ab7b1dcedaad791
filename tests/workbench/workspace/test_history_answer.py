"""The history's difference between two points says first what became of the answer: each question's
lead before and after, then what changed on the map."""

import re

import pytest
from django.urls import reverse

from sessions.access import caller_for_user
from sessions.log import checkpoint_create
from tests.factories import agent_in, post_message
from tests.people import session_of
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db
ASKED = "Which month has the most dengue cases?"
JUNE = "**June** has the highest mean cases: **59.96** (n = 120); the lowest is January at 3.1."
MAY = "**May** has the highest median cases: **60** (n = 120); the lowest is January at 2."


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def redone(client):
    """A session whose answer moved from June (the mean) to May (the median) after a correction, with
    the writer's deliverable written from each analysis; a checkpoint between the two rounds."""
    world = session_of(title="Dengue")
    session, owner = world["session"], world["owner"]
    me, analyst, scribe = caller_for_user(owner), agent_in(session, "analyst"), agent_in(session, "scribe")
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, analyst, envelopes.answered, ASKED, JUNE, message_id="a1", in_reply_to="t")
    post_message(
        session, scribe, envelopes.answered, ASKED, JUNE, from_analysis="a1", message_id="w1", in_reply_to="a1"
    )
    checkpoint_create(session_id=session.pk, caller=me, label="First answer")
    post_message(session, me, envelopes.feedback, target="w1", message_id="c1")
    post_message(session, analyst, envelopes.answered, ASKED, MAY, message_id="a2", in_reply_to="c1")
    post_message(session, scribe, envelopes.answered, ASKED, MAY, from_analysis="a2", message_id="w2", in_reply_to="a2")
    client.force_login(owner)
    session.refresh_from_db()
    return session


def compare(client, session, start, end):
    url = reverse("workspace:history-diff", args=[session.pk])
    return text_of(client.get(url, {"from": start, "to": end}).content.decode())


def test_the_difference_says_the_answer_moved_from_june_to_may_before_the_map_changes(client, redone):
    shown = compare(client, redone, 4, redone.head_seq)
    moved = f"The answer to “{ASKED}” is now: May has the highest median cases: 60; it was: June has the highest mean cases: 59.96."
    assert moved in shown
    assert f"At #4 At #{redone.head_seq} {ASKED} {JUNE.replace('**', '')} {MAY.replace('**', '')}" in shown
    assert shown.index(moved) < shown.index("What changed on the map") < shown.index("Overturned")


def test_an_answer_that_stands_says_so_and_before_any_answer_says_there_is_none(client, redone):
    assert f"The answer to “{ASKED}” stands: June has the highest mean cases: 59.96." in compare(client, redone, 3, 4)
    assert "No answer yet at #1." in compare(client, redone, 0, 1)
    first = compare(client, redone, 0, 3)
    assert f"A new question: “{ASKED}”. Its answer: June has the highest mean cases: 59.96." in first
    assert "no answer yet" in first
