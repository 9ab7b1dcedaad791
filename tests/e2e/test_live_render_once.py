"""A new message's page fragment is rendered once for the whole deployment (workspace.live,
workspace.rendered_once): on PostgreSQL + Redis, the first process that needs it renders it for every
role and stores it for a while; the others send what is stored. Each page still gets its own role's
fragment, and a session_event's "you did it" only on the page of the one who did it."""

import asyncio
import re
import secrets

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings

from sessions.access import caller_for_user
from sessions.log import message_post
from sessions.membership import member_invite
from sessions.models import WorkSession
from tests.factories import agent_in, make_session, make_user
from tests.live import open_socket, requires_scale, signed_in
from tests.sessions import envelopes
from workbench.layers import SharedChannelLayer
from workspace.live import ROLES
from workspace.rendered_once import DeploymentOnce

pytestmark = [requires_scale, pytest.mark.processes]


def process_store(**bounds) -> DeploymentOnce:
    """The store as one more server process sees it: a layer of its own, its own connections."""
    return DeploymentOnce(SharedChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"]), **bounds)


def test_among_processes_asking_at_once_one_makes_the_value_and_all_get_it(transactional_db):
    made = []

    async def make():
        made.append(1)
        await asyncio.sleep(0.2)  # the others ask meanwhile
        return {"html": "<p>fragment</p>"}

    async def scenario():
        stores = [process_store() for _ in range(4)]
        got = await asyncio.gather(*(store.get("test:once", make) for store in stores for _ in range(3)))
        expires_ms = await stores[0].layer.connection(0).pttl(stores[0].prefix + "test:once")
        await stores[0].layer.connection(0).delete(stores[0].prefix + "test:once")
        return got, expires_ms

    got, expires_ms = async_to_sync(scenario)()
    assert len(made) == 1 and got == [{"html": "<p>fragment</p>"}] * 12
    assert 0 < expires_ms <= 120_000


def test_a_value_too_large_to_share_is_not_stored_and_the_others_make_their_own(transactional_db):
    large = {"html": secrets.token_hex(5_000)}

    async def scenario():
        first, second = process_store(max_bytes=64), process_store(max_bytes=64)
        made_first = await first.get("test:large", lambda: asyncio.sleep(0, large))
        stored = await first.layer.connection(0).strlen(first.prefix + "test:large")
        shared = await second.get("test:large", lambda: asyncio.sleep(0, large))
        await first.layer.connection(0).delete(first.prefix + "test:large")
        return made_first, stored, shared

    made_first, stored, shared = async_to_sync(scenario)()
    assert made_first == large and stored < 64 and shared is None  # None: make it yourself


def test_pages_on_two_servers_send_the_one_stored_rendering_each_for_its_role(two_servers):
    server_a, server_b = two_servers
    owner, editor, viewer = make_user("olga"), make_user("ed"), make_user("vic")
    session = make_session(owner=owner, members={editor: "editor", viewer: "viewer"})
    make_user("zoe")
    planner = agent_in(session, "planner")
    stored = process_store()

    def ask() -> None:
        head = WorkSession.objects.get(pk=session.pk).head_checksum
        question = envelopes.envelope(
            "clarification",
            {"question": "Which one?", "options": [{"id": "a", "label": "A scan"}]},
            sender=("agent", "planner"), session_id=session.pk, context_checksum=head,
        )  # fmt: skip
        message_post(session_id=session.pk, caller=planner, envelope=question)

    cookies = [signed_in(person) for person in (owner, editor, viewer)]
    path = f"/ws/sessions/{session.pk}/ui/"

    async def scenario():
        pages = [
            await open_socket(server, path, Cookie=cookie, Origin=server.url)
            for server, cookie in zip((server_a, server_b, server_b), cookies, strict=True)
        ]
        head = (await asyncio.to_thread(lambda: WorkSession.objects.get(pk=session.pk))).head_seq
        await asyncio.to_thread(ask)
        asked = [await asyncio.wait_for(page.recv(), 30) for page in pages]
        # The next message's rendering is already stored, as another process would have stored it:
        # both servers send it as it is, rendering nothing of their own.
        planted = {"by": "", "html": {f"{role}:saw": f"<p>stored for {role}</p>" for role in ROLES}}
        key = f"live:{session.pk}:{head + 2}"
        await stored.get(key, lambda: asyncio.sleep(0, planted))
        await asyncio.to_thread(ask)
        sent = [await asyncio.wait_for(page.recv(), 30) for page in pages]
        await asyncio.to_thread(
            member_invite, session_id=session.pk, caller=caller_for_user(owner), username="zoe", role="viewer"
        )
        invited = [await asyncio.wait_for(page.recv(), 30) for page in pages[:2]]
        for page in pages:
            await page.close()
        await stored.layer.connection(0).delete(stored.prefix + key)
        return asked, sent, invited

    asked, sent, invited = asyncio.run(scenario())
    for_owner, for_editor, for_viewer = asked
    assert all('<div id="thread" hx-swap-oob="beforeend">' in html for html in asked)
    assert 'name="option_id" value="a"' in for_owner and 'name="option_id" value="a"' in for_editor
    assert 'name="option_id"' not in for_viewer
    assert sent == ["<p>stored for owner</p>", "<p>stored for editor</p>", "<p>stored for viewer</p>"]
    by_owner, seen_by_editor = invited
    assert re.search(r'id="members"', seen_by_editor) and not re.search(r'id="members"', by_owner)


def test_scheduling_views_on_two_servers_send_the_one_stored_board_each_for_its_role(two_servers):
    from agents.scheduling.acts import task_create

    server_a, server_b = two_servers
    owner, viewer = make_user("olga"), make_user("vic")
    session = make_session(owner=owner, members={viewer: "viewer"})
    agent_in(session, "planner")
    stored = process_store()

    def plan(title: str) -> int:
        task_create(session_id=session.pk, caller=caller_for_user(owner), title=title, agent="planner")
        return WorkSession.objects.get(pk=session.pk).head_seq

    path = f"/ws/sessions/{session.pk}/ui/?view=schedule"
    cookies = [signed_in(owner), signed_in(viewer)]

    async def scenario():
        boards = [
            await open_socket(server, path, Cookie=cookie, Origin=server.url)
            for server, cookie in zip((server_a, server_b), cookies, strict=True)
        ]
        head = await asyncio.to_thread(plan, "Plan it")
        first = [await asyncio.wait_for(board.recv(), 30) for board in boards]
        planted = {role: f"<p>board stored for {role}</p>" for role in ROLES}
        key = f"board:{session.pk}:{head + 1}"
        await stored.get(key, lambda: asyncio.sleep(0, planted))
        await asyncio.to_thread(plan, "Plan again")
        sent = [await asyncio.wait_for(board.recv(), 30) for board in boards]
        for board in boards:
            await board.close()
        await stored.layer.connection(0).delete(stored.prefix + key)
        return first, sent

    first, sent = asyncio.run(scenario())
    assert all('id="schedule-board"' in html and "Plan it" in html for html in first)
    assert sent == ["<p>board stored for owner</p>", "<p>board stored for viewer</p>"]
