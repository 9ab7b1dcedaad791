"""A graph a process builds from the log (its first look at a session, or the history's replay) is the
graph the write path built as the messages arrived: the same nodes, statuses, flags and edges, at the
same checksum, though it reads the milestone checkpoints without their summaries."""

import pytest

from sessions.access import caller_for_user
from sessions.graphs import graph_at, graph_cache
from sessions.log import checkpoint_create
from sessions.models import WorkSession
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
