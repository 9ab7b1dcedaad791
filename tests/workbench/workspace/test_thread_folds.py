"""The thread of a session with redone work, as the page renders it: each report a later version
replaced is one line that says what replaced it and opens without script (a <details>); a table the
session showed before is a line that links where it was first shown; and a report names
each of its sources once."""

import re
from html import unescape

import pytest
from django.urls import reverse

from agents.behaviours.registry import builtin_agents_ensure
from agents.demo import demo_seed
from sessions.models import Message
from tests.factories import make_user
from tests.pages import visible_text

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)

ARTICLE = re.compile(r'<article id="msg-(\d+)"\s+class="message kind-collaborative_response[^"]*".*?</article>', re.S)
PROFILE_TABLE = "<th>distinct</th>"  # the column profiles' table of iris


@pytest.fixture
def page(client):
    """The demo session (an analysis, its write-up and review, then all three redone after a correction)
    as its owner's page shows it, with the session."""
    alice = make_user("alice")
    session = demo_seed(owner=alice, agents=builtin_agents_ensure())
    client.force_login(alice)
    return client.get(reverse("workspace:detail", args=[session.pk])).content.decode(), session


def test_each_replaced_report_is_one_line_saying_what_replaced_it(page):
    html, session = page
    reports = {int(seq): body for seq, body in ((m.group(1), m.group(0)) for m in ARTICLE.finditer(html))}
    replaced = [seq for seq, body in reports.items() if "superseded" in body.split(">", 1)[0]]
    assert len(replaced) == 3  # the analysis, the written report and the review of the first round
    for seq in replaced:
        body = reports[seq]
        line = re.search(r'<details class="fold">\s*<summary[^>]*>(.*?)</summary>', body, re.S)
        assert line is not None, body[:300]
        words = " ".join(unescape(re.sub(r"<[^>]*>", " ", line.group(1))).split())
        assert "replaced by the redo after alice's correction — show" in words
        assert "Give feedback" not in visible_text(body)  # the rest opens with the line
    written_up = [seq for seq, body in reports.items() if 'data-testid="written-up"' in body]
    assert len(written_up) == 1  # the analysis the current written report repeats, which it links
    written = Message.objects.filter(session=session, sender_id="scribe", payload_type="collaborative_response")
    written = written.order_by("-seq").values_list("seq", flat=True)
    assert written[0] > written_up[0] and "written up in the report below" in unescape(reports[written_up[0]])
    for seq in set(reports) - set(replaced) - set(written_up):
        assert "Give feedback" in visible_text(reports[seq])


def test_a_table_the_session_showed_before_is_a_line_that_links_it(page):
    html, _ = page
    assert html.count(PROFILE_TABLE) == 1  # the analysis and the written report, both rounds: shown once
    first = re.findall(r'<section id="(msg-\d+-section-\d+)"', html[: html.index(PROFILE_TABLE)])[-1]
    links = re.findall(r'<p>The same table as in <a href="#([^"]+)"[^>]*>the report from analyst</a>\.</p>', html)
    assert links.count(first) == 3


def test_a_report_names_each_source_once(page):
    html, session = page
    for message in Message.objects.filter(session=session, payload_type="collaborative_response"):
        cited = [m["citation"] for m in message.envelope["payload"].get("supporting_materials") or []]
        assert len(cited) == len(set(cited)), cited
    for sources in re.findall(r"<h4>Sources</h4>\s*<ul>(.*?)</ul>", html, re.S):
        lines = re.findall(r"<li>(.*?)</li>", sources, re.S)
        assert len(lines) == len(set(lines)), lines
