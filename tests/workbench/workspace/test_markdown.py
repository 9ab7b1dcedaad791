"""Markdown in the workspace: rendered to HTML (tables are tables) and sanitised by an allow-list,
in the thread, node details, the history's node details, the deliverable and the retrospective."""

import re

import pytest
from django.urls import reverse

from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join, session_update
from sessions.models import WorkSession
from tests.factories import make_agent, make_session, make_user, post_message
from tests.sessions import envelopes
from workspace.markdown import render_markdown

pytestmark = pytest.mark.django_db

TABLE = "| group | mean |\n|---|---:|\n| north | 4.5 |\n| south | 5.5 |"
ATTACKS = (
    "<script>alert('s')</script>",
    '<img src="x" onerror="alert(\'i\')">',
    "[click](javascript:alert('j'))",
    "<a href=\"javascript:alert('a')\" onclick=\"alert('c')\">here</a>",
    '<div style="background:url(javascript:alert(1))" onmouseover="alert(1)">hover</div>',
    "<iframe src='https://evil.example'></iframe>",
)


def test_a_markdown_table_becomes_an_html_table():
    html = render_markdown(TABLE)
    assert "<table>" in html and "<th>group</th>" in html and "<td>north</td>" in html
    assert "|" not in html


def test_the_analysts_stated_reading_and_its_doubt_are_lines_of_their_own_under_the_answer():
    html = render_markdown(
        "**east** has the highest mean basket value: **35**.\n\nI read this as: the mean basket value compared "
        "across shop.\n\nNot sure of this reading: I read past “visit”.\n\nI read the rest as it says."
    )
    assert '<p class="reading">I read this as: the mean basket value compared across shop.</p>' in html
    assert '<p class="reading">Not sure of this reading: I read past “visit”.</p>' in html
    assert "<p><strong>east</strong>" in html and "<p>I read the rest as it says.</p>" in html


@pytest.mark.parametrize("attack", ATTACKS)
def test_scripts_event_handlers_and_javascript_urls_are_stripped(attack):
    html = render_markdown(f"Before.\n\n{attack}\n\nAfter.").lower()
    assert "<script" not in html and "onerror" not in html and "onclick" not in html
    assert not re.search(r"(href|src|style)\s*=\s*[\"']?[^>]*javascript", html)  # left as text, never a link
    assert "<iframe" not in html and "onmouseover" not in html
    assert "before." in html and "after." in html


def test_safe_links_keep_their_href_and_open_no_window_back():
    html = render_markdown("[the data](https://example.com/data.csv)")
    assert 'href="https://example.com/data.csv"' in html and 'rel="noopener noreferrer nofollow"' in html


@pytest.fixture
def story(client):
    owner = make_user("olga")
    session = make_session(owner=owner, title="Groups")
    caller = caller_for_user(owner)
    post_message(session, caller, envelopes.proposal, message_id="t")
    payload = envelopes.response(sections=())["payload"]
    payload["content"]["body"] = f"## Findings\n\n{TABLE}\n\n{ATTACKS[1]} {ATTACKS[2]}"
    payload["content"]["sections"] = [
        {"id": "groups", "title": "Groups", "body": f"{TABLE}\n\n{ATTACKS[0]}", "confidence": 0.8}
    ]
    analyst = make_agent("analyst")
    agent_join(session=session, agent=analyst)
    post_message(
        session, caller_for_agent(analyst), envelopes.envelope, "collaborative_response", payload, message_id="r1"
    )
    client.force_login(owner)
    return {"session": session, "owner": owner, "client": client}


def get(story, name, *args, query=""):
    response = story["client"].get(reverse(name, args=[story["session"].pk, *args]) + query)
    assert response.status_code == 200
    return response.content.decode()


def assert_safe_table(html):
    assert re.search(r"<table>\s*<thead>", html)
    assert "<script>alert" not in html and "onerror" not in html
    assert not re.search(r"(href|src)\s*=\s*[\"']?javascript", html)


def test_the_thread_shows_report_tables_as_tables_and_strips_scripts(story):
    html = get(story, "workspace:detail")
    assert_safe_table(html)
    assert "<td>north</td>" in html.split('data-section-id="groups"')[1]


def test_node_details_render_the_sections_markdown(story):
    html = get(story, "workspace:detail")
    section = re.search(r'id="map-node-(\d+)"[^>]*aria-label="Section', html)
    index = section.group(1) if section else "0"
    details = get(story, "workspace:map-node", query=f"?node={index}")
    history = get(story, "workspace:history-node", WorkSession.objects.get(pk=story["session"].pk).head_seq,
                  query=f"?node={index}")  # fmt: skip
    for html in (details, history):
        assert_safe_table(html)


def test_the_deliverable_and_retrospective_pages_render_markdown(story):
    html = get(story, "workspace:deliverable")
    assert_safe_table(html)
    assert 'data-testid="deliverable"' in html
    session_update(session_id=story["session"].pk, caller=caller_for_user(story["owner"]), state="done")
    from sessions.retrospectives import session_rate

    session_rate(session_id=story["session"].pk, caller=caller_for_user(story["owner"]), rating=4,
                 comment=f"Good.\n\n{TABLE}\n\n{ATTACKS[0]}")  # fmt: skip
    retro = get(story, "workspace:retrospective")
    assert_safe_table(retro)


def test_table_columns_are_aligned_by_class_not_by_a_style_the_csp_refuses():
    html = render_markdown("| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |")
    assert '<th class="align-left">a</th><th class="align-center">b</th><th class="align-right">c</th><th>d</th>' in (
        html.replace("\n", "")
    )
    assert '<td class="align-right">3</td>' in html and "style" not in html
    forged = render_markdown('<table><tr><td class="topbar" style="color:red">x</td></tr></table>')
    assert "topbar" not in forged and "style" not in forged
