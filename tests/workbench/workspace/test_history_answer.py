"""The history's difference between two points says first what became of the answer: each question's
lead before and after, then what changed on the map."""

import re

import pytest
from django.urls import reverse

from sessions.access import caller_for_user
from tests.factories import agent_in, make_session, make_user, post_message
from tests.rounds import ASKED, CHECKPOINT, JUNE, MAY, session_with_a_moved_answer
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def redone(client):
    owner = make_user("olga")
    client.force_login(owner)
    return session_with_a_moved_answer(owner)


def compare(client, session, start, end):
    url = reverse("workspace:history-diff", args=[session.pk])
    return text_of(client.get(url, {"from": start, "to": end}).content.decode())


def test_the_difference_says_the_answer_moved_from_june_to_may_before_the_map_changes(client, redone):
    head = redone.head_seq
    shown = compare(client, redone, CHECKPOINT, head)
    moved = (
        f"The answer to “{ASKED}” is now: May has the highest median cases: 60; "
        "it was: June has the highest mean cases: 59.96."
    )
    assert moved in shown
    assert f"At #{CHECKPOINT} At #{head} {ASKED} {JUNE.replace('**', '')} {MAY.replace('**', '')}" in shown
    assert shown.index(moved) < shown.index("What changed on the map") < shown.index("Overturned")


def test_an_answer_that_stands_says_so_and_before_any_answer_says_there_is_none(client, redone):
    stands = compare(client, redone, CHECKPOINT - 1, CHECKPOINT)
    assert f"The answer to “{ASKED}” stands: June has the highest mean cases: 59.96." in stands
    assert "No answer yet at #1." in compare(client, redone, 0, 1)
    first = compare(client, redone, 0, CHECKPOINT - 1)
    assert f"A new question: “{ASKED}”. Its answer: June has the highest mean cases: 59.96." in first
    assert "no answer yet" in first


def test_an_answer_without_a_lead_is_named_as_a_newer_report(client):
    owner = make_user("olga")
    client.force_login(owner)
    session = make_session(owner=owner)
    post_message(session, caller_for_user(owner), envelopes.proposal, message_id="t")
    post_message(session, agent_in(session), envelopes.response, message_id="r1", in_reply_to="t")
    assert "The answer at #2 is a newer report than at #1; it names no lead sentence to compare." in compare(
        client, session, 1, 2
    )
    assert "The answer at #2 names no lead sentence to compare." in compare(client, session, 2, 2)
