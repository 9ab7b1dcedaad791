"""The words a person reads on a session's page: names, not ids; times as a person says them, the
exact moment in a title; no boilerplate or counts that mean nothing to an analyst. Ids stay in the
folded technical details of each message (and in the exports)."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from agents.behaviours.registry import builtin_agents_ensure
from agents.demo import demo_seed
from sessions.chap.labels import message_label, time_words
from tests.factories import make_user
from tests.pages import leaked_ids, visible_text

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)


@pytest.fixture
def demo_page(client, settings, tmp_path):
    """The demo session's page: a plan, an analysis, a correction and its redo, a report and a review."""
    settings.DATA_DIR = tmp_path
    owner = make_user("olga")
    session = demo_seed(owner=owner, agents=builtin_agents_ensure())
    client.force_login(owner)
    return client.get(reverse("workspace:detail", args=[session.pk])).content.decode()


def test_no_id_raw_sender_or_iso_time_outside_technical_details(demo_page):
    assert not leaked_ids(demo_page), leaked_ids(demo_page)
    # The ids are there for whoever opens the technical details of a message.
    assert re.search(
        r"<summary>Technical details</summary>\s*<p class=\"muted ids\">\s*message task\d+-report", demo_page
    )


def test_times_are_said_in_words_with_the_exact_moment_in_the_title(demo_page):
    times = re.findall(r'<time class="when" datetime="([^"]+)" title="([^"]+)">([^<]+)</time>', demo_page)
    assert times and all(words.startswith("today ") for _, _, words in times)
    assert all(datetime.fromisoformat(moment) and exact for moment, exact, _ in times)


def test_counts_and_boilerplate_an_analyst_does_not_need_are_gone_or_folded(demo_page):
    text = visible_text(demo_page)
    assert "entries of the context" not in text and "SAP operations" not in text and "0 tokens" not in text
    assert "operations on the data" in text
    assert "Can do" not in text and "Cannot do" not in text  # folded under "What the planner can and cannot do"
    assert "What the planner can and cannot do" in demo_page
    assert "Review of the reviewer" not in text and "Review of the written report by scribe" in text


def test_time_words_say_today_yesterday_or_the_date():
    now = datetime(2026, 12, 4, 15, 0, tzinfo=UTC)
    assert time_words(datetime(2026, 12, 4, 14, 5, tzinfo=UTC), now) == "today 14:05"
    assert time_words(datetime(2026, 12, 3, 9, 10, tzinfo=UTC), now) == "yesterday 09:10"
    assert time_words(datetime(2026, 11, 2, 8, 0, tzinfo=UTC), now) == "Nov 2, 08:00"
    assert time_words(datetime(2025, 11, 2, 8, 0, tzinfo=UTC), now) == "Nov 2, 2025, 08:00"


def test_a_message_is_named_by_its_kind_and_sender_not_its_number():
    assert message_label({"kind": "agent_capability_declaration", "sender": "agent:planner", "seq": 3}) == (
        "the plan from planner"
    )
