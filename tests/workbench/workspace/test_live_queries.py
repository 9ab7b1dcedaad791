"""What a live message costs the open workspace pages (workspace.live): the fragment is rendered from
the event, once per message for every page of the process, so the queries do not grow with the number
of pages or the length of the session; an audit record costs next to nothing and is no news."""

import itertools
import threading
from contextlib import contextmanager

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db.backends.utils import CursorWrapper

from sessions import log
from sessions.access import SYSTEM, caller_for_user
from sessions.events import CHAP_MESSAGE, message_frame, session_group
from sessions.models import Message
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes
from tests.sockets import cookie_headers
from workbench.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
PAGES = 4
PER_PAGE = 6  # issue 29: a live message costs an open workspace page at most this many queries
PER_PROCESS = 12  # the one render of a correction, whoever watches


@contextmanager
def counted_queries():
    """Every query any thread of this process runs meanwhile (the sockets read in worker threads)."""
    counter, lock = itertools.count(), threading.Lock()
    ran = {"n": 0}
    execute, executemany = CursorWrapper._execute, CursorWrapper._executemany

    def counting(original):
        def run(self, *args, **kwargs):
            with lock:
                ran["n"] = next(counter) + 1
            return original(self, *args, **kwargs)

        return run

    CursorWrapper._execute, CursorWrapper._executemany = counting(execute), counting(executemany)
    try:
        yield ran
    finally:
        CursorWrapper._execute, CursorWrapper._executemany = execute, executemany


def a_session(length: int):
    """A session of about ``length`` messages, with a report to correct and people to watch it."""
    owner, editor, viewer = make_user(), make_user(), make_user()
    session = make_session(owner=owner, members={editor: "editor", viewer: "viewer"})
    planner, analyst = agent_in(session, "planner"), agent_in(session, "analyst")
    human = caller_for_user(owner)
    post_message(session, human, envelopes.proposal)
    post_message(session, planner, envelopes.declaration)
    for n in range(length - 3):
        post_message(session, analyst, envelopes.envelope, "summary", {"text": f"found {n}"})
    report = post_message(session, analyst, envelopes.response)
    return session, [owner, owner, editor, viewer][:PAGES], report


def stored_quietly(monkeypatch, post) -> dict:
    """Store a message without its broadcast (nor the agents' reactions to it); the group event
    message_post would have sent for it."""
    with monkeypatch.context() as patched:
        patched.setattr(log, "send_on_commit", lambda session_id, event: None)
        patched.setattr(log, "announce_on_commit", lambda session_id, seq, envelope: None)
        ack = post()
    row = Message.objects.get(message_id=ack.message_id)
    return {
        "type": CHAP_MESSAGE,
        "session_id": str(row.session_id),
        "seq": row.seq,
        "payload_type": row.payload_type,
        "frame": message_frame(row.seq, row.envelope),
        "checksum": row.checksum,
    }


def delivered(session, people, store) -> tuple[list[str], int, dict]:
    """Open a page for each of ``people``, then ``store()`` a message and broadcast its event: what
    each page got, the queries the pages ran for it, and the event."""

    headers = [cookie_headers(None, person) for person in people]

    async def scenario():
        pages = [WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/ui/", headers=h) for h in headers]
        for page in pages:
            assert (await page.connect())[0]
        event = await database_sync_to_async(store)()
        with counted_queries() as ran:
            await get_channel_layer().group_send(session_group(session.pk), event)
            # A wait, not a speed check: a busy machine is slow.
            got = [await page.receive_from(timeout=60) for page in pages]
            count = ran["n"]
        for page in pages:
            await page.disconnect()
        return got, count, event

    return async_to_sync(scenario)()


@pytest.mark.parametrize("length", [10, 400])
def test_a_correction_costs_each_open_page_a_few_queries_however_long_the_session(length, monkeypatch):
    session, people, report = a_session(length)
    owner = caller_for_user(people[0])

    def correct():
        return stored_quietly(monkeypatch, lambda: post_message(session, owner, envelopes.feedback, report.message_id))

    pages, queries, event = delivered(session, people, correct)

    assert queries <= PER_PROCESS and queries / len(people) <= PER_PAGE
    for html in pages:
        assert '<div id="thread" hx-swap-oob="beforeend">' in html and f'value="{event["checksum"]}"' in html
        assert 'id="agent-status"' in html and 'id="approvals"' in html and 'id="session-state"' in html


def test_an_audit_record_is_no_news_only_its_count_on_the_map(monkeypatch):
    session, people, _ = a_session(10)
    record = {"operation": "files.read", "outcome": "result", "duration_ms": 3}

    def audit():
        return log.message_post_at_head(
            session_id=session.pk, caller=SYSTEM, payload_type="operation_record", payload=record
        )

    delivered(session, people[:1], lambda: stored_quietly(monkeypatch, audit))  # the first this process sees

    pages, queries, event = delivered(session, people, lambda: stored_quietly(monkeypatch, audit))

    assert queries <= 2
    for html in pages:
        assert 'id="thread"' not in html and 'id="session-state"' not in html and 'id="approvals"' not in html
        assert f'value="{event["checksum"]}"' in html and 'id="map-patch"' in html
        assert "2 operations" in html
