"""/ws/sessions/<id>/ui/: each viewer receives the fragments of new messages rendered for its role."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test.html import parse_html

from agents.tokens import token_issue
from sessions.access import caller_for_agent
from sessions.log import message_post
from sessions.models import WorkSession
from tests.factories import make_user
from tests.people import session_of, with_agent
from tests.sessions import envelopes
from tests.sockets import bearer_headers, cookie_headers
from workbench.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def ui_socket(session, headers):
    return WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/ui/", headers=headers)


@pytest.fixture
def world():
    return with_agent(session_of("viewer"), "planner", token=False)


def ask(world):
    head = WorkSession.objects.get(pk=world["session"].pk).head_checksum
    question = envelopes.envelope(
        "clarification",
        {"question": "Which one?", "options": [{"id": "a", "label": "A scan"}]},
        sender=("agent", "planner"), session_id=world["session"].pk, context_checksum=head,
    )  # fmt: skip
    message_post(session_id=world["session"].pk, caller=caller_for_agent(world["agent"]), envelope=question)


def test_each_viewer_gets_the_new_message_rendered_for_its_role(client, world):
    owner_headers, viewer_headers = cookie_headers(client, world["owner"]), cookie_headers(client, world["viewer"])

    async def scenario():
        owner, viewer = ui_socket(world["session"], owner_headers), ui_socket(world["session"], viewer_headers)
        assert (await owner.connect())[0] and (await viewer.connect())[0]
        await database_sync_to_async(ask)(world)
        frames = [await owner.receive_from(timeout=30), await viewer.receive_from(timeout=30)]
        await owner.disconnect()
        await viewer.disconnect()
        return frames

    for_owner, for_viewer = async_to_sync(scenario)()
    for html in (for_owner, for_viewer):
        assert '<div id="thread" hx-swap-oob="beforeend">' in html and '<div id="map-patch" hx-swap-oob="true"' in html
        assert 'id="page-checksum"' in html
    assert 'name="option_id" value="a"' in for_owner and 'name="option_id"' not in for_viewer


def test_outsiders_and_agents_are_refused(client, world):
    outsider = cookie_headers(client, make_user("out"))
    agent = bearer_headers(token_issue(agent=world["agent"]))

    async def scenario(headers):
        return await ui_socket(world["session"], headers).connect()

    assert async_to_sync(scenario)(outsider) == (False, 4403)
    assert async_to_sync(scenario)(agent)[0] is False


def test_the_scheduling_view_gets_its_board_again_when_a_task_changes(client, world):
    from agents.scheduling.acts import task_create
    from sessions.access import caller_for_user

    headers = cookie_headers(client, world["owner"])

    async def scenario():
        socket = WebsocketCommunicator(
            application, f"/ws/sessions/{world['session'].pk}/ui/?view=schedule", headers=headers
        )
        assert (await socket.connect())[0]
        await database_sync_to_async(task_create)(
            session_id=world["session"].pk, caller=caller_for_user(world["owner"]), title="Plan it", agent="planner"
        )
        html = await socket.receive_from(timeout=30)
        await socket.disconnect()
        return html

    html = async_to_sync(scenario)()
    board = parse_html(html)
    board_attributes = {("id", "schedule-board"), ("class", "board"), ("hx-swap-oob", "true")}
    assert board.name == "div" and board_attributes <= set(board.attributes)
    assert "Plan it" in html
