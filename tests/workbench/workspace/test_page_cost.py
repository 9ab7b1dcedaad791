"""What the session page costs as its session grows: the same queries for a long session as for a short
one (nothing is read once per message, report or folded version), and the thread still shows a
person's own checkpoints while the workbench's milestone marks stay in History."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.access import caller_for_user
from sessions.log import checkpoint_create
from tests.factories import make_session, make_user
from tests.sessions.rounds import rounds

pytestmark = pytest.mark.django_db


def page_queries(client, session) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as seen:
        html = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    return html, len(seen.captured_queries)


def test_a_long_session_page_runs_the_queries_of_a_short_one(client):
    owner = make_user()
    session = make_session(owner=owner)
    client.force_login(owner)
    rounds(session, owner, 2)
    _, short = page_queries(client, session)
    rounds(session, owner, 6)
    html, long = page_queries(client, session)
    assert html.count('data-testid="superseded"') == 7  # each replaced report folded to its line
    assert long == short


def test_the_thread_shows_a_persons_checkpoint_but_not_the_milestones_marked_for_history(client):
    owner = make_user()
    session = make_session(owner=owner)
    client.force_login(owner)
    rounds(session, owner, 2)
    checkpoint_create(session_id=session.pk, caller=caller_for_user(owner), label="Before the regional split")
    html, _ = page_queries(client, session)
    thread = html[html.index('<div id="thread">') :]
    assert "Before the regional split" in thread
    assert session.messages.filter(payload_type="checkpoint", sender_type="system").exists()
    assert not re.search(r"Redo by analyst|Correction by", thread)
