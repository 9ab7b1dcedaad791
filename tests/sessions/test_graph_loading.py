"""A graph a process builds from the log (its first look at a session, or the history's replay) is the
graph the write path built as the messages arrived: the same nodes, statuses, flags and edges, at the
same checksum, though it reads the milestone checkpoints without their summaries."""

import pytest

from sessions import graph_snapshots, graphs
from sessions.access import caller_for_user
from sessions.chap.layout import MapLayout
from sessions.graphs import graph_at, graph_cache
from sessions.log import checkpoint_create
from sessions.models import GraphSnapshot, WorkSession
from tests.factories import make_session, make_user, post_message
from tests.sessions import envelopes
from tests.sessions.rounds import rounds

pytestmark = pytest.mark.django_db


def seen(graph) -> tuple:
    return (
        dict(graph.graph.nodes(data=True)),
        sorted(graph.graph.edges(data="type")),
        graph.graph.graph.copy(),
        set(graph.open_asks),
        set(graph.proposed_plans),
    )


def test_a_graph_built_from_the_log_is_the_one_built_as_the_messages_arrived():
    owner = make_user()
    session = make_session(owner=owner)
    rounds(session, owner, 6)
    person = caller_for_user(owner)
    post_message(session, person, envelopes.feedback, "r5", feedback_type="approval", message_id="ok")
    checkpoint_create(session_id=session.pk, caller=person, label="Agreed")
    session = WorkSession.objects.get(pk=session.pk)
    assert session.messages.filter(payload_type="checkpoint").count() > 10

    entry = graph_cache.entry(session)
    as_written = seen(entry.graph)
    graph_cache.drop(session.pk)
    loaded = graph_cache.entry(session)

    assert seen(loaded.graph) == as_written
    assert loaded.checksum == session.head_checksum
    assert seen(graph_at(session, session.head_seq)) == as_written


@pytest.fixture
def snapshot_often(monkeypatch):
    """A snapshot after 10 messages applied at once, and the first message each cold build reads."""
    monkeypatch.setattr(graph_snapshots, "SNAPSHOT_EVERY", 10)
    reads: list[int] = []
    real = graphs.log_rows

    def log_rows(session, *, after, upto):
        reads.append(after)
        return real(session, after=after, upto=upto)

    monkeypatch.setattr(graphs, "log_rows", log_rows)
    return reads


def cold(session):
    graph_cache.drop(session.pk)
    return graph_cache.entry(WorkSession.objects.get(pk=session.pk))


def test_a_long_session_opened_cold_starts_from_its_snapshot_and_reads_only_the_log_after_it(snapshot_often):
    owner = make_user()
    session = make_session(owner=owner)
    rounds(session, owner, 4)
    as_written = seen(graph_cache.entry(WorkSession.objects.get(pk=session.pk)).graph)

    first = cold(session)
    taken = GraphSnapshot.objects.get(session=session)
    assert taken.seq == first.graph.seq and seen(first.graph) == as_written
    rounds(session, owner, 2)
    session = WorkSession.objects.get(pk=session.pk)
    as_written = seen(graph_cache.entry(session).graph)
    snapshot_often.clear()

    again = cold(session)

    assert snapshot_often == [taken.seq]
    assert seen(again.graph) == as_written
    assert again.checksum == session.head_checksum
    drawn_afresh = MapLayout()
    drawn_afresh.update(again.graph)
    again.layout.update(again.graph)
    assert again.layout.placed == drawn_afresh.placed


def test_a_snapshot_of_other_graph_rules_or_of_another_log_is_not_used(snapshot_often):
    owner = make_user()
    session = make_session(owner=owner)
    rounds(session, owner, 4)
    as_written = seen(cold(session).graph)
    GraphSnapshot.objects.filter(session=session).update(rules="an older release")
    snapshot_often.clear()

    assert seen(cold(session).graph) == as_written
    assert snapshot_often == [0]
    GraphSnapshot.objects.filter(session=session).update(checksum="0" * 16)
    snapshot_often.clear()

    assert seen(cold(session).graph) == as_written
    assert snapshot_often == [0]


def test_the_write_path_keeps_a_snapshot_every_so_many_messages(snapshot_often, django_capture_on_commit_callbacks):
    owner = make_user()
    session = make_session(owner=owner)
    with django_capture_on_commit_callbacks(execute=True):
        rounds(session, owner, 3)
    kept = GraphSnapshot.objects.get(session=session)
    assert kept.seq >= 10  # taken after the tenth message commits (here: as the block ends)
    post_message(session, caller_for_user(owner), envelopes.feedback, "r2", feedback_type="approval", message_id="ok")
    session = WorkSession.objects.get(pk=session.pk)
    as_written = seen(graph_at(session, session.head_seq))
    snapshot_often.clear()

    assert seen(cold(session).graph) == as_written
    assert snapshot_often == [kept.seq]
