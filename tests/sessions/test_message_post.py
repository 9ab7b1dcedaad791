import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user
from sessions.chap.chain import genesis_checksum
from sessions.graphs import graph_at, graph_cache
from sessions.log import checkpoint_create, message_post
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent, make_session, make_user
from tests.factories import post_message as post
from tests.sessions import envelopes


@pytest.fixture
def owner(alice):
    return alice


def refused(code, *args, **kwargs) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        post(*args, **kwargs)
    assert caught.value.code == code, caught.value.as_dict()
    return caught.value


def test_messages_are_numbered_without_gaps_and_chained(session, owner):
    me = caller_for_user(owner)
    acks = [post(session, me, envelopes.proposal) for _ in range(3)]
    assert [ack.seq for ack in acks] == [1, 2, 3]
    session.refresh_from_db()
    assert (session.head_seq, session.head_checksum) == (3, acks[-1].context_checksum)
    assert session.head_checksum != genesis_checksum(str(session.pk))
    call_command("verify_session", str(session.pk))


def test_idempotent_retry_gets_the_original_ack(session, owner):
    me = caller_for_user(owner)
    message = envelopes.proposal(message_id="same", session_id=session.pk, context_checksum=session.head_checksum)
    first = message_post(session_id=session.pk, caller=me, envelope=message)
    post(session, me, envelopes.proposal)
    again = message_post(session_id=session.pk, caller=me, envelope=message)
    assert again == first
    assert Message.objects.filter(session=session).count() == 2


def test_reused_message_id_with_other_content_is_refused(session, owner):
    me = caller_for_user(owner)
    post(session, me, envelopes.proposal, message_id="same")
    error = refused(
        "DUPLICATE_MESSAGE_ID", session, me, envelopes.proposal, goal="Something else entirely", message_id="same"
    )
    assert error.details["seq"] == 1
    assert Message.objects.filter(session=session).count() == 1


def test_invalid_message_is_not_stored(session, owner):
    error = refused("INVALID_MESSAGE", session, caller_for_user(owner), envelopes.envelope, "task_proposal", {})
    assert error.details == {"missing": ["payload.goal"]}
    assert not Message.objects.exists()


def test_in_reply_to_must_name_a_message_of_the_session_or_be_empty(session, owner):
    me = caller_for_user(owner)
    post(session, me, envelopes.proposal, message_id="t")
    other = make_session(owner=owner)
    post(other, me, envelopes.proposal, message_id="elsewhere")
    for unknown in ("nothing", "elsewhere"):  # no message, or one of another session
        error = refused("RESOURCE_NOT_FOUND", session, me, envelopes.proposal, in_reply_to=unknown)
        assert error.details == {"resource_type": "MESSAGE", "resource_name": unknown, "field": "in_reply_to"}
    assert post(session, me, envelopes.proposal, in_reply_to="t").seq == 2
    assert post(session, me, envelopes.proposal, in_reply_to=None).seq == 3
    assert Message.objects.filter(session=session).count() == 3


def test_sender_must_be_the_caller(session, owner):
    error = refused("INVALID_MESSAGE", session, caller_for_user(owner), envelopes.proposal, sender=("agent", "planner"))
    assert "sender" in error.details["invalid"]


def test_server_only_payloads_are_refused_from_clients(session, owner):
    payload = {"operation": "file.read", "outcome": "result"}
    refused("SENDER_NOT_ALLOWED", session, caller_for_user(owner), envelopes.envelope, "operation_record", payload)


def test_viewer_cannot_post_and_outsider_learns_nothing(session):
    viewer, outsider = make_user(), make_user()
    session.memberships.create(user=viewer, role="viewer")
    error = refused("PERMISSION_DENIED", session, caller_for_user(viewer), envelopes.proposal)
    assert error.details["role"] == "viewer"
    error = refused("RESOURCE_NOT_FOUND", session, caller_for_user(outsider), envelopes.proposal)
    assert error.message == "no such session"


def test_agents_post_only_in_sessions_they_take_part_in(session):
    planner = make_agent("planner")
    refused("RESOURCE_NOT_FOUND", session, caller_for_agent(planner), envelopes.declaration)
    agent_join(session=session, agent=planner, role="planning")
    assert post(session, caller_for_agent(planner), envelopes.declaration).seq == 1
    planner.enabled = False
    planner.save()
    refused("RESOURCE_NOT_FOUND", session, caller_for_agent(planner), envelopes.declaration)


def test_unknown_checksum_is_refused(session, owner):
    error = refused("CONTEXT_UNKNOWN", session, caller_for_user(owner), envelopes.proposal, context_checksum="f" * 16)
    assert error.details["head_checksum"] == session.head_checksum


def conversation(session, owner):
    """proposal, declaration, response r1; returns the humans' and agents' callers."""
    me = caller_for_user(owner)
    agent = make_agent("analyst")
    agent_join(session=session, agent=agent)
    post(session, me, envelopes.proposal, message_id="t")
    post(session, me, envelopes.feedback, "t", feedback_type="refinement", message_id="f0")
    ack = post(session, caller_for_agent(agent), envelopes.response, message_id="r1", in_reply_to="t")
    return me, caller_for_agent(agent), ack


def test_stale_writer_is_accepted_when_nothing_it_builds_on_changed(session, owner):
    me, agent, ack = conversation(session, owner)
    post(session, me, envelopes.feedback, "r1", feedback_type="refinement")
    late = post(session, agent, envelopes.response, in_reply_to="r1", context_checksum=ack.context_checksum)
    assert late.seq > ack.seq


def test_stale_writer_is_refused_when_a_correction_touched_its_basis(session, owner):
    me, agent, ack = conversation(session, owner)
    correction = post(session, me, envelopes.feedback, "r1", part={"kind": "assumption", "index": 0}, message_id="c1")
    error = refused(
        "CONTEXT_CONFLICT", session, agent, envelopes.response, in_reply_to="r1", context_checksum=ack.context_checksum
    )
    assert error.details["conflicting"] == ["c1"]
    assert error.details["unseen"][0] == "c1"  # then the checkpoint the correction marks
    assert Message.objects.get(message_id=error.details["unseen"][1]).payload_type == "checkpoint"
    rebased = post(session, agent, envelopes.response, in_reply_to="r1")
    assert rebased.seq > correction.seq


def test_stale_writer_on_an_unrelated_branch_is_accepted(session, owner):
    me, agent, ack = conversation(session, owner)
    post(session, me, envelopes.feedback, "r1", message_id="c1")
    assert (
        post(session, agent, envelopes.response, in_reply_to="f0", context_checksum=ack.context_checksum).seq > ack.seq
    )


def test_broadcast_goes_out_only_after_commit(session, owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        post(session, caller_for_user(owner), envelopes.proposal)
    assert len(callbacks) == 2  # the broadcast, and the announcement the agents react to
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ProtocolError):
        post(session, caller_for_user(owner), envelopes.proposal, context_checksum="e" * 16)
    assert callbacks == []


def test_checkpoint_freezes_a_summary_and_an_approval_checkpoints_itself(session, owner):
    me = caller_for_user(owner)
    planner = make_agent("planner")
    agent_join(session=session, agent=planner)
    post(session, me, envelopes.proposal, message_id="t")
    post(session, caller_for_agent(planner), envelopes.declaration, message_id="d", in_reply_to="t")
    post(session, caller_for_agent(planner), envelopes.response, step=1, message_id="r1", in_reply_to="d")
    ack = checkpoint_create(session_id=session.pk, caller=me, label="Outline agreed")
    stored = Message.objects.get(session=session, seq=ack.seq)
    assert stored.payload_type == "checkpoint" and stored.envelope["payload"]["seq"] == ack.seq - 1
    assert stored.envelope["payload"]["summary"]["plan"][0]["status"] == "in_progress"

    post(session, me, envelopes.feedback, "r1", feedback_type="approval")
    auto = Message.objects.filter(session=session).order_by("-seq").first()
    assert auto.payload_type == "checkpoint" and auto.sender_type == "system"
    assert auto.envelope["payload"]["summary"]["plan"][0]["status"] == "done"
    call_command("verify_session", str(session.pk))


def test_graph_cache_catches_up_with_writes_from_elsewhere(session, owner):
    me = caller_for_user(owner)
    post(session, me, envelopes.proposal, message_id="t")
    graph_cache.drop(session.pk)
    post(session, me, envelopes.feedback, "t", message_id="c1")
    session.refresh_from_db()
    entry = graph_cache.entry(session)
    assert entry.graph.seq == session.head_seq == 3 and entry.graph.graph.nodes["t"]["status"] == "overturned"


def test_an_append_goes_on_when_a_reader_with_an_older_head_rolled_the_graph_back(session, owner, monkeypatch):
    """A page renders from the head it read while a writer holds the row: it rebuilds the shared graph
    to its older head between the writer's look-up and its lock. The writer catches up again."""
    me = caller_for_user(owner)
    post(session, me, envelopes.proposal)
    older = type(session).objects.get(pk=session.pk)
    post(session, me, envelopes.proposal)
    looked_up = graph_cache.entry

    def look_up_then_an_older_reader(current):
        entry = looked_up(current)
        with entry.lock:
            graph_cache.catch_up(entry, older)
        return entry

    monkeypatch.setattr(graph_cache, "entry", look_up_then_an_older_reader)
    ack = post(session, me, envelopes.proposal)
    assert ack.seq == older.head_seq + 2
    assert looked_up(type(session).objects.get(pk=session.pk)).graph.seq == ack.seq


def test_verify_session_names_the_tampered_message(session, owner):
    me = caller_for_user(owner)
    for _ in range(3):
        post(session, me, envelopes.proposal)
    tampered = Message.objects.get(session=session, seq=2)
    tampered.envelope["payload"]["goal"] = "rewritten history"
    tampered.save()
    with pytest.raises(CommandError, match=f"#2 {tampered.message_id}"):
        call_command("verify_session", str(session.pk))


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row-lock concurrency is a PostgreSQL property")
def test_concurrent_posters_on_postgresql_get_gap_free_unique_sequence_numbers():
    owner = make_user("racer")
    session = make_session(owner=owner)
    me = caller_for_user(owner)
    errors = []

    def worker(n):
        try:
            for i in range(10):
                # Each writer states the genesis version: nothing it builds on is ever corrected.
                message = envelopes.proposal(
                    message_id=f"w{n}-{i}",
                    session_id=session.pk,
                    sender=("human", "racer"),
                    context_checksum=genesis_checksum(str(session.pk)),
                )
                message_post(session_id=session.pk, caller=me, envelope=message)
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    seqs = sorted(Message.objects.filter(session=session).values_list("seq", flat=True))
    assert seqs == list(range(1, 81))
    call_command("verify_session", str(session.pk))


def test_graph_at_a_past_version_shows_that_moment(session, owner):
    me = caller_for_user(owner)
    post(session, me, envelopes.proposal, message_id="t")
    post(session, me, envelopes.feedback, "t", message_id="c1")
    session.refresh_from_db()
    before, after = graph_at(session, 1), graph_at(session, 2)
    assert before.graph.nodes["t"]["status"] == "in_progress" and "c1" not in before.graph
    assert after.graph.nodes["t"]["status"] == "overturned"
