"""A long session opens at what is now: the page shows the newest messages of the thread and loads
earlier ones on demand, each page of them at a bounded cost, and the milestone checkpoints the
workbench marks stay the same size however long the session grows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.log import CHECKPOINT_LISTED
from sessions.models import Message
from tests.factories import make_session, make_user
from tests.sessions.rounds import notes, rounds
from workspace.map_drawing import MAP_SHOWN
from workspace.selectors import THREAD_PAGE

pytestmark = pytest.mark.django_db

MAX_QUERIES = 6


def shown(html: str) -> list[int]:
    """The sequence numbers of the thread's messages on ``html``, in order."""
    return [int(n) for n in re.findall(r'<article id="msg-(\d+)"', html)]


def earlier_url(html: str) -> str | None:
    found = re.search(r'hx-get="([^"]+)"\s+hx-target="this"\s+hx-swap="outerHTML"\s+data-testid="earlier"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_long_sessions_page_shows_the_newest_messages_and_earlier_ones_load_on_demand(client):
    owner = make_user()
    session = make_session(owner=owner)
    client.force_login(owner)
    count = 2 * THREAD_PAGE + 7
    notes(session, count)
    logged = list(session.messages.order_by("seq").values_list("seq", flat=True))

    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert shown(page) == logged[-THREAD_PAGE:]  # the newest, oldest first
    url = earlier_url(page)
    assert url is not None

    seen = shown(page)
    while url is not None:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(url)
        assert answer.status_code == 200
        assert len(queries.captured_queries) <= MAX_QUERIES
        html = answer.content.decode()
        seen = shown(html) + seen
        url = earlier_url(html)
    assert seen == logged  # every message once, in order, and no link past the first


def test_a_short_sessions_page_shows_it_all_without_an_earlier_link(client):
    owner = make_user()
    session = make_session(owner=owner)
    client.force_login(owner)
    notes(session, 5)
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert shown(page) == list(session.messages.order_by("seq").values_list("seq", flat=True))
    assert 'data-testid="earlier"' not in page


def test_the_earlier_page_is_for_members_only_and_needs_a_message_number(client):
    owner = make_user()
    session = make_session(owner=owner)
    url = reverse("workspace:thread", args=[session.pk])
    client.force_login(make_user())
    assert client.get(url, {"before": 5}).status_code == 404
    client.force_login(owner)
    assert client.get(url, {"before": "soon"}).status_code == 404


def test_a_milestone_checkpoint_stays_the_same_size_as_the_session_grows(client):
    owner = make_user()
    session = make_session(owner=owner)
    rounds(session, owner, 12)
    early = Message.objects.filter(session=session, payload_type="checkpoint").order_by("seq").last()
    rounds(session, owner, 16)
    late = Message.objects.filter(session=session, payload_type="checkpoint").order_by("seq").last()
    summary = late.envelope["payload"]["summary"]
    assert [d["node"] for d in summary["decisions"]] == [f"c{n}" for n in range(28 - CHECKPOINT_LISTED, 28)]
    assert summary["counts"]["decisions"] == 28
    assert len(str(late.envelope)) < 1.2 * len(str(early.envelope))


def test_a_long_sessions_map_draws_its_newest_nodes_and_the_rest_on_demand(client):
    owner = make_user()
    session = make_session(owner=owner)
    client.force_login(owner)
    notes(session, MAP_SHOWN + 20)
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert page.count('<g id="map-node-') == MAP_SHOWN
    assert "Show the 20 earlier nodes" in page
    expanded = client.get(reverse("workspace:map", args=[session.pk]), {"expand": 1}).content.decode()
    assert expanded.count('<g id="map-node-') == MAP_SHOWN + 20
