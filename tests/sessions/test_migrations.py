"""Migrations on a workbench that already holds sessions: what was written before still works after."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sessions.models import WorkSession
from sessions.search import search_messages
from tests.sessions import envelopes

BEFORE_SEARCH = [("chap_sessions", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_messages_written_before_full_text_search_are_found_after_the_migration():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_SEARCH)
    old = executor.loader.project_state(BEFORE_SEARCH).apps
    owner = old.get_model("auth", "User").objects.create(username="olga")
    session = old.get_model("chap_sessions", "WorkSession").objects.create(title="Old", created_by=owner)
    envelope = envelopes.proposal(goal="Plan the zeppelin logistics", session_id=session.pk, message_id="t")
    old.get_model("chap_sessions", "Message").objects.create(
        session=session, seq=1, message_id="t", payload_type="task_proposal", sender_type="human",
        sender_id="olga", envelope=envelope, content_hash="0" * 64, checksum="0" * 16,
    )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    [hit] = search_messages(session=WorkSession.objects.get(pk=session.pk), text="zeppelin")
    assert hit.message_id == "t" and ("zeppelin", True) in hit.parts


BEFORE_WAITING = [("chap_sessions", "0006_message_latest_by_sender")]


@pytest.mark.django_db(transaction=True)
def test_sessions_written_before_their_row_kept_what_waits_get_it_from_their_log():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_WAITING)
    old = executor.loader.project_state(BEFORE_WAITING).apps
    owner = old.get_model("auth", "User").objects.create(username="olga")
    session = old.get_model("chap_sessions", "WorkSession").objects.create(title="Old", created_by=owner, head_seq=3)
    log = [
        envelopes.declaration(session_id=session.pk, message_id="d"),
        envelopes.response(session_id=session.pk, message_id="r", questions=("Net or gross?", "Which year?")),
        envelopes.envelope(
            "clarification_answer", {"clarification_message_id": "r", "question_index": 0, "free_answer": "Net"},
            session_id=session.pk, message_id="a",
        ),
    ]  # fmt: skip
    for seq, envelope in enumerate(log, start=1):
        old.get_model("chap_sessions", "Message").objects.create(
            session=session, seq=seq, message_id=envelope["message_id"], payload_type=envelope["payload_type"],
            sender_type=envelope["sender"]["type"], sender_id=envelope["sender"]["id"], envelope=envelope,
            content_hash="0" * 64, checksum="0" * 16,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    migrated = WorkSession.objects.get(pk=session.pk)
    assert migrated.open_questions == 1 and migrated.proposed_plans == ["d"]
