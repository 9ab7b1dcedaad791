"""History review in the browser's views: timeline, the map at any point, differences, full-text search."""

import re
from urllib.parse import quote

import pytest
from django.urls import reverse
from pytest_django.asserts import assertInHTML

from sessions.access import caller_for_user
from sessions.chap.history import statuses
from sessions.graphs import graph_at, replay_cache
from sessions.log import checkpoint_create
from sessions.membership import member_add
from sessions.models import Message, WorkSession
from sessions.search import fts5_query, search_messages
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(client):
    owner = make_user("olga")
    session = make_session(owner=owner, title="Battery market")
    me = caller_for_user(owner)
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, agent_in(session), envelopes.response, message_id="r1", in_reply_to="t")
    checkpoint_create(session_id=session.pk, caller=me, label="First draft in")
    post_message(session, me, envelopes.feedback, "r1", part={"kind": "assumption", "index": 0}, message_id="c1")
    client.force_login(owner)
    return {"session": session, "owner": owner, "client": client}


def get(story, name, query=""):
    return story["client"].get(reverse(name, args=[story["session"].pk]) + query)


def node_count(html):
    return len(re.findall(r'<g id="map-node-\d+"', html))


def test_the_history_page_has_the_timeline_checkpoints_slider_and_map_at_the_head(story):
    html = get(story, "workspace:history").content.decode()
    assert html.count('<li class="kind-') == 5 and 'class="kind-checkpoint checkpoint"' in html
    assertInHTML(
        '<input type="range" id="history-seq" name="seq" min="0" max="5" value="5" list="checkpoint-marks"'
        ' data-testid="history-slider">',
        html,
    )
    assert "First draft in (#3)" in html  # a checkpoint to pick
    assert "Correction by olga of “Recent means since 2021” (#5)" in html  # and the one the correction marked
    assert 'data-seq="5"' in html and node_count(html) > 0


def test_the_map_grows_as_the_slider_moves_and_keeps_its_node_numbers(story):
    sizes = [node_count(get(story, "workspace:history-map", f"?seq={seq}").content.decode()) for seq in range(5)]
    assert sizes[0] == 0 and sizes == sorted(sizes) and sizes[1] < sizes[2] < sizes[4]
    at_one = get(story, "workspace:history-map", "?seq=1").content.decode()
    now = get(story, "workspace:map", "?expand=1").content.decode()
    place = r'<g id="map-node-0" class="[^"]*" transform="([^"]+)"'
    assert re.search(place, at_one).group(1) == re.search(place, now).group(1)  # same number, same place
    assert 'data-status="needs_review"' not in get(story, "workspace:history-map", "?seq=3").content.decode()
    assert 'data-status="needs_review"' in get(story, "workspace:history-map", "?seq=4").content.decode()


@pytest.mark.parametrize("seq", ["99", "-1", "abc", ""])
def test_a_point_outside_the_log_shows_the_nearest_sensible_map(story, seq):
    response = get(story, "workspace:history-map", f"?seq={seq}")
    assert response.status_code == 200 and 'data-seq="5"' in response.content.decode()


def test_the_difference_between_two_checkpoints_lists_what_was_added_decided_and_overturned(story):
    html = get(story, "workspace:history-diff", "?from=3&to=4").content.decode()
    assert "From #3 to #4" in html and "Correction by olga" in html
    assert "Assumption: Recent means since 2021" in html and "(by the correction from olga)" in html
    reversed_order = get(story, "workspace:history-diff", "?from=4&to=3").content.decode()
    assert "From #3 to #4" in reversed_order
    nothing = get(story, "workspace:history-diff", "?from=2&to=2").content.decode()
    assert "no decisions" in nothing and ">0 nodes" in nothing


def test_full_text_search_finds_words_stems_and_phrases_with_the_matches_marked(story):
    session = story["session"]
    assert [hit.message_id for hit in search_messages(session=session, text="battery suppliers")] == ["t"]
    assert [hit.message_id for hit in search_messages(session=session, text="supplier")] == ["t"]  # stemmed
    assert {hit.message_id for hit in search_messages(session=session, text="Smith")} == {"r1"}
    hit = search_messages(session=session, text="smith")[0]
    assert ("Smith", True) in hit.parts and hit.sender == "agent:analyst"
    assert search_messages(session=session, text="   ") == []
    assert search_messages(session=session, text="zeppelin") == []


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "AND OR NOT", "a* OR (b", "NEAR(x y", "col:value", "💥", "'; DROP", "nul\x00byte", "x" * 5000],
)
def test_no_query_is_a_syntax_error(story, query):
    assert isinstance(search_messages(session=story["session"], text=query), list)
    response = get(story, "workspace:history-search", "?q=" + quote(query))
    assert response.status_code == 200


def test_fts5_query_quotes_every_word():
    assert fts5_query('battery "AND" cells*') == '"battery" "AND" "cells"'
    assert fts5_query("  ") == ""


def test_search_keeps_to_the_session_and_follows_later_messages(story):
    other = make_session(owner=story["owner"], title="Other")
    post_message(other, caller_for_user(story["owner"]), envelopes.proposal, goal="Zeppelin battery logistics")
    assert search_messages(session=story["session"], text="zeppelin") == []
    post_message(story["session"], caller_for_user(story["owner"]), envelopes.proposal, goal="Zeppelin ideas")
    assert len(search_messages(session=story["session"], text="zeppelin")) == 1
    html = get(story, "workspace:history-search", "?q=zeppelin").content.decode()
    assert "1 message matches" in html and "<mark>Zeppelin</mark>" in html


def test_search_results_escape_what_messages_say(story):
    post_message(
        story["session"], caller_for_user(story["owner"]), envelopes.proposal, goal="<script>alert(1)</script> quokka"
    )
    html = get(story, "workspace:history-search", "?q=quokka").content.decode()
    assert "<script>" not in html and "<mark>quokka</mark>" in html  # escaped (SQLite) or dropped (PostgreSQL)


def test_every_message_is_indexed_with_its_words(story):
    texts = dict(Message.objects.filter(session=story["session"]).values_list("seq", "search_text"))
    assert sorted(texts) == [1, 2, 3, 4, 5]
    assert texts[1] == "olga\ntask proposal\nWrite a short report on battery suppliers\n2024-01-20"
    assert texts[3] == "olga\ncheckpoint\nFirst draft in"
    assert texts[4] == "olga\nhuman feedback\nmedium\ncorrection\nUse 2022 onwards\nassumption"
    assert texts[5] == "workbench\ncheckpoint\nCorrection by olga of “Recent means since 2021”"
    report = texts[2].splitlines()
    assert report[:2] == ["analyst", "collaborative response"]
    assert {"Recent means since 2021", "Technical or business focus?", "[1] Smith 2023", "market text"} <= set(report)


def test_viewers_review_history_and_outsiders_get_404(client, story):
    viewer = make_user("vic")
    member_add(session=story["session"], user=viewer, role="viewer")
    client.force_login(viewer)
    for name in ("workspace:history", "workspace:history-map", "workspace:history-diff", "workspace:history-search"):
        assert client.get(reverse(name, args=[story["session"].pk])).status_code == 200
    client.force_login(make_user("out"))
    for name in ("workspace:history", "workspace:history-map", "workspace:history-diff", "workspace:history-search"):
        assert client.get(reverse(name, args=[story["session"].pk])).status_code == 404


def test_a_long_timeline_lists_the_newest_entries_and_every_landmark(story, monkeypatch):
    monkeypatch.setattr("workspace.views.history.TIMELINE_SHOWN", 2)
    short = get(story, "workspace:history").content.decode()
    assert short.count('<li class="kind-') == 4 and "1 older message not listed" in short  # landmarks kept
    assert 'id="at-1"' in short and 'id="at-2"' not in short and 'id="at-3"' in short
    assert get(story, "workspace:history", "?all=1").content.decode().count('<li class="kind-') == 5


def test_the_slider_stepping_forward_reads_only_the_messages_in_between(story, django_assert_num_queries):
    session = WorkSession.objects.get(pk=story["session"].pk)
    with replay_cache.at(session, 2) as context:
        assert context.seq == 2
    with django_assert_num_queries(2), replay_cache.at(session, 4) as context:  # message 2 unchanged? then 3 and 4
        forward = statuses(context)
    assert forward == statuses(graph_at(session, 4))
    with replay_cache.at(session, 1) as context:  # a step back replays from the start
        assert statuses(context) == statuses(graph_at(session, 1))


def test_a_replay_of_a_log_that_changed_under_it_is_built_again(story):
    session = WorkSession.objects.get(pk=story["session"].pk)
    with replay_cache.at(session, 3):
        pass
    first = Message.objects.get(session=session, seq=1)
    first.envelope["payload"]["goal"] = "Another story altogether"
    first.save()
    Message.objects.filter(session=session, seq=3).update(checksum="f" * 16)  # as a re-imported session would
    with replay_cache.at(session, 4) as context:
        assert context.graph.nodes["t#goal:0"]["text"] == "Another story altogether"


def test_a_node_of_a_past_map_shows_its_status_and_history_then(story):
    session_id = story["session"].pk
    index = re.search(
        r'id="map-node-(\d+)"[^>]*aria-label="Assumption: Recent',
        get(story, "workspace:map", "?expand=1").content.decode(),
    )
    url = reverse("workspace:history-node", args=[session_id, 3]) + f"?node={index.group(1)}"
    then = story["client"].get(url).content.decode()
    now = get(story, "workspace:map-node", f"?node={index.group(1)}").content.decode()
    assert "As it stood after message #3" in then and "status-proposed" in then and "overturned by" not in then
    assert "As it stood" not in now and "overturned by the correction from olga" in now
    node_url = reverse("workspace:history-node", args=[session_id, 1])
    assert story["client"].get(node_url + f"?node={index.group(1)}").status_code == 404  # not on the map yet
    assert story["client"].get(node_url + "?node=x").status_code == 404
    beyond = reverse("workspace:history-node", args=[session_id, 99])
    assert story["client"].get(beyond + "?node=1").status_code == 404
    map_html = get(story, "workspace:history-map", "?seq=2").content.decode()
    assert f'hx-get="/sessions/{session_id}/history/2/node/?node=0"' in map_html
