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
