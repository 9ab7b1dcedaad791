"""Revoked or removed access ends on the open sockets too, not only on the next connection: a revoked
token, a disabled agent, a member or agent taken out of the session is closed with 4403; a member
given a lower role goes on with it. (tests/e2e/test_revocation.py: the same across two servers.)"""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from rest_framework.test import APIClient

from agents.tokens import agent_set_enabled, token_issue, token_revoke
from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_leave, member_invite, member_remove
from sessions.models import WorkSession
from tests.factories import make_session, make_user, post_message
from tests.sessions import envelopes
from tests.sockets import (
    agent_socket,
    bearer_headers,
    chap_socket,
    close_code,
    closed_by,
    cookie_headers,
    frame_of,
    opened,
    run,
    ui_socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


def remove_editor(world):
    member_remove(session_id=world["session"].pk, caller=caller_for_user(world["owner"]), username="ed")


# -- the CHAP session socket ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "revoke",
    [
        lambda world: token_revoke(token=world["agent"].tokens.get()),
        lambda world: agent_set_enabled(agent=world["agent"], enabled=False),
        lambda world: agent_leave(session=world["session"], agent=world["agent"]),
    ],
    ids=["token revoked", "agent disabled", "agent taken out of the session"],
)
def test_an_agents_open_chap_socket_closes_when_its_access_ends(world, revoke):
    assert closed_by(chap_socket(world, bearer_headers(world["token"])), lambda: revoke(world)) == 4403


def test_a_removed_members_open_chap_socket_closes(client, world):
    socket = chap_socket(world, cookie_headers(client, world["editor"]))
    assert closed_by(socket, lambda: remove_editor(world)) == 4403


def test_a_member_given_a_lower_role_is_told_and_can_no_longer_post(client, world):
    headers = cookie_headers(client, world["editor"])
    session = world["session"]

    async def scenario():
        socket = await opened(chap_socket(world, headers))
        assert (await frame_of(socket, "hello"))["role"] == "editor"
        await database_sync_to_async(member_invite)(
            session_id=session.pk, caller=caller_for_user(world["owner"]), username="ed", role="viewer"
        )
        told = await frame_of(socket, "role")
        proposal = await database_sync_to_async(proposal_from)(session, ("human", "ed"))
        await socket.send_json_to(proposal)
        refused = await frame_of(socket, "error")
        await socket.disconnect()
        return told, refused

    told, refused = run(scenario)
    assert told == {"type": "role", "role": "viewer"}
    assert refused["error"]["code"] == "PERMISSION_DENIED"


def proposal_from(session, sender):
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    return envelopes.proposal(session_id=session.pk, sender=sender, context_checksum=head)


def test_another_sessions_change_leaves_the_socket_alone(client, world):
    other = make_session(owner=world["owner"], members={world["editor"]: "editor"})
    headers = cookie_headers(client, world["editor"])

    async def scenario():
        socket = await opened(chap_socket(world, headers))
        await frame_of(socket, "hello")
        await database_sync_to_async(member_remove)(
            session_id=other.pk, caller=caller_for_user(world["owner"]), username="ed"
        )
        await socket.send_json_to({"type": "ping"})
        pong = await frame_of(socket, "pong")
        await socket.disconnect()
        return pong

    assert run(scenario)["type"] == "pong"


# -- the agent socket ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "revoke",
    [
        lambda world: token_revoke(token=world["agent"].tokens.get()),
        lambda world: agent_set_enabled(agent=world["agent"], enabled=False),
    ],
    ids=["token revoked", "agent disabled"],
)
def test_the_agent_socket_closes_when_the_token_or_agent_is_revoked(world, revoke):
    assert closed_by(agent_socket(world["token"]), lambda: revoke(world), greeted=True) == 4403


def test_revoking_one_token_leaves_the_agents_other_tokens_connected(world):
    spare = token_issue(agent=world["agent"], label="spare")
    first = world["agent"].tokens.get(label="")

    async def scenario():
        revoked, kept = await opened(agent_socket(world["token"])), await opened(agent_socket(spare))
        await frame_of(revoked, "hello")
        await frame_of(kept, "hello")
        await database_sync_to_async(token_revoke)(token=first)
        code = await close_code(revoked)
        await kept.send_json_to({"type": "ping", "ref": "still"})
        pong = await frame_of(kept, "pong")
        await kept.disconnect()
        return code, pong

    code, pong = run(scenario)
    assert code == 4403 and pong["ref"] == "still"


def test_an_agent_taken_out_of_a_session_stops_receiving_it(world):
    session = world["session"]

    async def scenario():
        socket = await opened(agent_socket(world["token"]))
        assert str(session.pk) in (await frame_of(socket, "hello"))["sessions"]
        await database_sync_to_async(agent_leave)(session=session, agent=world["agent"])
        left = await frame_of(socket, "session.left")
        await database_sync_to_async(post_message)(session, caller_for_user(world["owner"]), envelopes.proposal)
        await socket.send_json_to({"type": "resume", "session_id": str(session.pk), "since_seq": 0, "ref": "r"})
        refused = await frame_of(socket, "error")
        await socket.disconnect()
        return left, refused

    left, refused = run(scenario)
    assert left == {"type": "session.left", "session_id": str(session.pk)}
    assert refused["ref"] == "r" and refused["error"]["code"] == "RESOURCE_NOT_FOUND"


# -- the browser workspace socket ----------------------------------------------------------------------


def ask(world):
    question = {"question": "Which one?", "options": [{"id": "a", "label": "A scan"}]}
    post_message(world["session"], caller_for_agent(world["agent"]), envelopes.envelope, "clarification", question)


def test_a_removed_members_workspace_closes(client, world):
    socket = ui_socket(world, cookie_headers(client, world["editor"]))
    assert closed_by(socket, lambda: remove_editor(world)) == 4403


def test_a_lowered_members_workspace_renders_for_the_new_role(client, world):
    headers = cookie_headers(client, world["editor"])

    async def scenario():
        socket = await opened(ui_socket(world, headers))
        await database_sync_to_async(ask)(world)
        as_editor = await socket.receive_from(timeout=30)
        await database_sync_to_async(member_invite)(
            session_id=world["session"].pk, caller=caller_for_user(world["owner"]), username="ed", role="viewer"
        )
        await database_sync_to_async(ask)(world)
        as_viewer = await socket.receive_from(timeout=30)
        await socket.disconnect()
        return as_editor, as_viewer

    as_editor, as_viewer = run(scenario)
    assert 'name="option_id" value="a"' in as_editor and 'name="option_id"' not in as_viewer


def test_an_owner_removes_a_member_over_rest(world):
    api = APIClient()
    api.force_login(world["owner"])
    assert api.delete(f"/api/sessions/{world['session'].pk}/members/ed/").status_code == 204
    assert not world["session"].memberships.filter(user=world["editor"]).exists()
    missing = api.delete(f"/api/sessions/{world['session'].pk}/members/ed/")
    assert missing.status_code == 404 and missing.json()["error"]["details"]["resource_type"] == "MEMBER"
    creator = api.delete(f"/api/sessions/{world['session'].pk}/members/olga/")
    assert creator.status_code == 400


def test_only_the_owner_removes_members(world):
    api = APIClient()
    api.force_login(world["editor"])
    refused = api.delete(f"/api/sessions/{world['session'].pk}/members/olga/")
    assert refused.status_code == 403 and refused.json()["error"]["details"]["permission"] == "session.members"


def test_disabling_an_agent_in_the_admin_closes_its_socket(client, world):
    client.force_login(make_user("root", superuser=True))
    disable = {"action": "disable", "_selected_action": [str(world["agent"].pk)]}

    def disable_in_admin():
        client.post(reverse("admin:agents_agent_changelist"), disable)

    assert closed_by(agent_socket(world["token"]), disable_in_admin, greeted=True) == 4403


def test_the_client_library_forgets_a_session_the_agent_left():
    from agents.client import AgentClient

    client = AgentClient(["ws://127.0.0.1:1"], token="chap_x")
    client._on_frame({"type": "session.joined", "session_id": "s1", "head_seq": 4})
    client._on_frame({"type": "session.left", "session_id": "s1"})
    assert "s1" not in client.last_seq  # after a reconnect it resumes no session it is out of
    assert [client._inbox.get_nowait()[1]["type"] for _ in range(2)] == ["session.joined", "session.left"]
