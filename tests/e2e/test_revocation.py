"""Access revoked through one server ends the sockets open on another: two real Daphne processes on
PostgreSQL + Redis, the revocation an HTTP request to server A, the sockets on server B."""

import asyncio
import json
import secrets
import urllib.request
from urllib.parse import urlencode

import pytest
import websockets
from django.contrib.auth.models import Group

from agents.tokens import token_issue
from sessions.access import caller_for_user
from sessions.membership import agent_join, session_share
from tests.factories import make_agent, make_session, make_user
from tests.live import open_socket, requires_scale, signed_in

pytestmark = [requires_scale, pytest.mark.processes]


def post_as(server, cookie: str, path: str, *, method="POST", data: bytes = b"", content_type=None) -> int:
    """An HTTP request to ``server`` as a signed-in browser would send it, CSRF token included."""
    csrf = secrets.token_hex(16)  # a browser's csrftoken cookie: 32 characters, echoed in the header
    request = urllib.request.Request(f"{server.url}{path}", data=data or None, method=method)
    request.add_header("Cookie", f"{cookie}; csrftoken={csrf}")
    request.add_header("X-CSRFToken", csrf)
    request.add_header("Referer", f"{server.url}/")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


async def closed_with(socket, timeout=10) -> int:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            await asyncio.wait_for(socket.recv(), timeout)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code


def test_removing_a_member_on_one_server_closes_their_sockets_on_the_other(two_servers):
    server_a, server_b = two_servers
    owner, editor = make_user("olga"), make_user("ed")
    session = make_session(owner=owner, members={editor: "editor"})
    owner_cookie, editor_cookie = signed_in(owner), signed_in(editor)

    async def scenario():
        browser = {"Cookie": editor_cookie, "Origin": server_b.url}
        chap = await open_socket(server_b, f"/ws/sessions/{session.pk}/chap/", **browser)
        ui = await open_socket(server_b, f"/ws/sessions/{session.pk}/ui/", **browser)
        assert json.loads(await chap.recv())["type"] == "hello"
        status = await asyncio.to_thread(
            post_as, server_a, owner_cookie, f"/api/sessions/{session.pk}/members/ed/", method="DELETE"
        )
        return status, await closed_with(chap), await closed_with(ui)

    assert asyncio.run(scenario()) == (204, 4403, 4403)


@pytest.fixture
def agent_world(two_servers):
    session = make_session()
    agent = make_agent("clerk", kind="external")
    agent_join(session=session, agent=agent)
    token = token_issue(agent=agent)
    operator = signed_in(make_user("root", superuser=True))
    return {"session": session, "agent": agent, "bearer": {"Authorization": f"Bearer {token}"}, "operator": operator}


def admin_action(server, operator: str, model: str, action: str, pk: int) -> int:
    """An admin changelist action on ``server``, as the operator's browser posts it."""
    return post_as(
        server,
        operator,
        f"/admin/agents/{model}/",
        data=f"action={action}&_selected_action={pk}".encode(),
        content_type="application/x-www-form-urlencoded",
    )


# One socket per test: the agent socket is also in the session's group, and a CHAP socket's presence
# announcement must not be what the test depends on.


def test_revoking_a_token_on_one_server_closes_the_agent_socket_on_the_other(two_servers, agent_world):
    server_a, server_b = two_servers
    token_id = agent_world["agent"].tokens.get().pk

    async def scenario():
        socket = await open_socket(server_b, "/ws/agents/", **agent_world["bearer"])
        assert json.loads(await socket.recv())["type"] == "hello"
        status = await asyncio.to_thread(
            admin_action, server_a, agent_world["operator"], "agenttoken", "revoke", token_id
        )
        return status, await closed_with(socket)

    assert asyncio.run(scenario()) == (200, 4403)


def test_disabling_an_agent_on_one_server_closes_its_chap_socket_on_the_other(two_servers, agent_world):
    server_a, server_b = two_servers
    session, agent = agent_world["session"], agent_world["agent"]

    async def scenario():
        socket = await open_socket(server_b, f"/ws/sessions/{session.pk}/chap/", **agent_world["bearer"])
        assert json.loads(await socket.recv())["type"] == "hello"
        status = await asyncio.to_thread(admin_action, server_a, agent_world["operator"], "agent", "disable", agent.pk)
        return status, await closed_with(socket)

    assert asyncio.run(scenario()) == (200, 4403)


def test_deactivating_an_account_or_deleting_its_group_on_one_server_closes_its_sockets_on_the_other(two_servers):
    """Neither goes through a session's services: the admin saves the account, or deletes the group."""
    server_a, server_b = two_servers
    owner, editor, reader = make_user("olga"), make_user("ed"), make_user("fin")
    session = make_session(owner=owner, members={editor: "editor"})
    finance = Group.objects.create(name="finance")
    finance.user_set.add(reader)
    session_share(session_id=session.pk, caller=caller_for_user(owner), group="finance", role="viewer")
    operator = signed_in(make_user("root", superuser=True))
    joined = editor.date_joined
    deactivated = urlencode(
        {
            "username": "ed",
            "email": editor.email,
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
        }
    ).encode()  # Active unticked: not sent
    form = "application/x-www-form-urlencoded"
    cookies = [signed_in(editor), signed_in(reader)]

    async def scenario():
        sockets = []
        for cookie in cookies:
            browser = {"Cookie": cookie, "Origin": server_b.url}
            sockets.append(await open_socket(server_b, f"/ws/sessions/{session.pk}/chap/", **browser))
            sockets.append(await open_socket(server_b, f"/ws/sessions/{session.pk}/ui/", **browser))
            assert json.loads(await sockets[-2].recv())["type"] == "hello"
        ends = [
            (f"/admin/auth/user/{editor.pk}/change/", deactivated),
            (f"/admin/auth/group/{finance.pk}/delete/", b"post=yes"),
        ]
        statuses = [
            await asyncio.to_thread(post_as, server_a, operator, path, data=data, content_type=form)
            for path, data in ends
        ]
        return statuses, [await closed_with(socket) for socket in sockets]

    assert asyncio.run(scenario()) == ([200, 200], [4403] * 4)


async def open_for(socket, seconds: float) -> bool:
    """Whether ``socket`` stays open, reading what comes, for ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                await socket.recv()
    except TimeoutError:
        return True
    except websockets.ConnectionClosed:
        return False


def test_idle_sockets_outlive_the_redis_read_timeout_and_still_end_with_4403(two_servers):
    """redis-py 8 reads with a 5 s timeout by default, the length of channels_redis's blocking pop: an
    idle socket's pop could time out and the socket close with 1011 (seen as deleting a session closed
    one of four sockets with 1011). Idle past several pops, the sockets stay open, and a revocation
    through the other server still ends each with the access-ended code."""
    server_a, server_b = two_servers
    owner, editor = make_user("olga"), make_user("ed")
    session = make_session(owner=owner, members={editor: "editor"})
    owner_cookie, editor_cookie = signed_in(owner), signed_in(editor)

    async def scenario():
        browser = {"Cookie": editor_cookie, "Origin": server_b.url}
        sockets = [
            await open_socket(server_b, f"/ws/sessions/{session.pk}/chap/", **browser),
            await open_socket(server_b, f"/ws/sessions/{session.pk}/ui/", **browser),
        ]
        stayed = await asyncio.gather(*(open_for(socket, 16) for socket in sockets))
        status = await asyncio.to_thread(
            post_as, server_a, owner_cookie, f"/api/sessions/{session.pk}/members/ed/", method="DELETE"
        )
        return stayed, status, [await closed_with(socket) for socket in sockets]

    assert asyncio.run(scenario()) == ([True, True], 204, [4403, 4403])
