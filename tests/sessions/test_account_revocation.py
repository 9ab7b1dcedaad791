"""Access that ends outside a session's own services ends on the open sockets too (sessions/revocation.py):
a deactivated, deleted or re-passworded account, a browser that signs out, a deleted group, a deleted
session. Each closes the sockets concerned with 4403 (or gives them the role that remains), and leaves
the others alone. (tests/e2e/test_revocation.py: the same across two servers.)"""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from sessions.access import caller_for_user
from sessions.membership import session_share
from sessions.models import Message, WorkSession
from tests.factories import make_user
from tests.sockets import (
    SAME_ORIGIN,
    agent_socket,
    bearer_headers,
    chap_socket,
    close_code,
    closed_by,
    frame_of,
    opened,
    run,
    ui_socket,
)

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)  # deleting drops datasets


def browser_of(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def headers_of(browser: Client):
    return [*SAME_ORIGIN, (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())]


def admin_browser() -> Client:
    return browser_of(make_user("root", superuser=True))


def deactivate_in_admin(user) -> None:
    """The admin's user change form, saved with Active unticked (an unticked box is not sent)."""
    form = {
        "username": user.username,
        "email": user.email,
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
    }
    response = admin_browser().post(reverse("admin:auth_user_change", args=[user.pk]), form)
    assert response.status_code == 302, response.content[:2000]
    assert not User.objects.get(pk=user.pk).is_active


def deactivate(user) -> None:
    user.is_active = False
    user.save()


def delete_in_admin(user) -> None:
    response = admin_browser().post(reverse("admin:auth_user_delete", args=[user.pk]), {"post": "yes"})
    assert response.status_code == 302


def change_password(user) -> None:
    user.set_password("a new one, 2025!")
    user.save()


@pytest.mark.parametrize(
    "end", [deactivate_in_admin, deactivate, delete_in_admin, change_password], ids=lambda end: end.__name__
)
@pytest.mark.parametrize("socket_of", [chap_socket, ui_socket], ids=["CHAP socket", "workspace socket"])
def test_an_account_whose_access_ends_has_its_open_sockets_closed(world, socket_of, end):
    socket = socket_of(world, headers_of(browser_of(world["editor"])))
    assert closed_by(socket, lambda: end(world["editor"])) == 4403


def test_signing_in_again_elsewhere_leaves_the_open_socket_alone(world):
    """A login saves the account too (its last_login), and ends nothing."""
    headers = headers_of(browser_of(world["editor"]))

    async def scenario():
        socket = await opened(chap_socket(world, headers))
        await frame_of(socket, "hello")
        await database_sync_to_async(browser_of)(world["editor"])
        await socket.send_json_to({"type": "ping"})
        pong = await frame_of(socket, "pong")
        await socket.disconnect()
        return pong

    assert run(scenario)["type"] == "pong"


def test_signing_out_closes_that_browsers_sockets_and_no_others(world):
    leaving, staying = browser_of(world["editor"]), browser_of(world["editor"])
    leaving_headers, staying_headers = headers_of(leaving), headers_of(staying)

    async def scenario():
        chap, ui = await opened(chap_socket(world, leaving_headers)), await opened(ui_socket(world, leaving_headers))
        other = await opened(chap_socket(world, staying_headers))
        await frame_of(chap, "hello")
        await frame_of(other, "hello")
        response = await database_sync_to_async(leaving.post)(reverse("logout"))
        codes = await close_code(chap), await close_code(ui)
        await other.send_json_to({"type": "ping"})
        pong = await frame_of(other, "pong")
        await other.disconnect()
        return response.status_code, codes, pong["type"]

    assert run(scenario) == (302, (4403, 4403), "pong")


# -- teams ----------------------------------------------------------------------------------------------


@pytest.fixture
def team(world):
    """Fin reads the session only through the finance group; Ed, its editor, is in the group too."""
    finance = Group.objects.create(name="finance")
    reader = make_user("fin")
    finance.user_set.add(reader, world["editor"])
    session_share(
        session_id=world["session"].pk, caller=caller_for_user(world["owner"]), group="finance", role="viewer"
    )
    return {"group": finance, "reader": reader}


def delete_group_in_admin(group) -> None:
    response = admin_browser().post(reverse("admin:auth_group_delete", args=[group.pk]), {"post": "yes"})
    assert response.status_code == 302


def test_deleting_a_group_closes_the_sockets_of_those_it_gave_access(world, team):
    headers = headers_of(browser_of(team["reader"]))

    async def scenario():
        chap, ui = await opened(chap_socket(world, headers)), await opened(ui_socket(world, headers))
        await frame_of(chap, "hello")
        await database_sync_to_async(delete_group_in_admin)(team["group"])
        return await close_code(chap), await close_code(ui)

    assert run(scenario) == (4403, 4403)
    unshared = Message.objects.filter(session=world["session"], payload_type="session_event").last()
    assert unshared.envelope["payload"]["action"] == "unshared" and unshared.envelope["payload"]["group"] == "finance"


def test_deleting_a_group_lowers_a_member_to_the_role_left_to_them(world, team):
    """A viewer member whose group made them an editor goes on as a viewer."""
    session = world["session"]
    reader = team["reader"]
    session.memberships.create(user=reader, role="viewer")
    session_share(session_id=session.pk, caller=caller_for_user(world["owner"]), group="finance", role="editor")
    headers = headers_of(browser_of(reader))

    async def scenario():
        socket = await opened(chap_socket(world, headers))
        assert (await frame_of(socket, "hello"))["role"] == "editor"
        await database_sync_to_async(delete_group_in_admin)(team["group"])
        told = await frame_of(socket, "role")
        await socket.disconnect()
        return told

    assert run(scenario) == {"type": "role", "role": "viewer"}


# -- the session itself ---------------------------------------------------------------------------------


def delete_session_in_admin(session) -> None:
    url = reverse("admin:chap_sessions_worksession_delete", args=[session.pk])
    response = admin_browser().post(url, {"post": "yes"})
    assert response.status_code == 302, response.content[:2000]
    assert not WorkSession.objects.filter(pk=session.pk).exists()


def test_deleting_a_session_closes_every_socket_of_it(world):
    session = world["session"]
    headers = headers_of(browser_of(world["editor"]))

    async def scenario():
        chap, ui = await opened(chap_socket(world, headers)), await opened(ui_socket(world, headers))
        agent = await opened(agent_socket(world["token"]))
        await frame_of(chap, "hello")
        await frame_of(agent, "hello")
        await database_sync_to_async(delete_session_in_admin)(session)
        left = await frame_of(agent, "session.left")
        await agent.disconnect()
        return await close_code(chap), await close_code(ui), left

    assert run(scenario) == (4403, 4403, {"type": "session.left", "session_id": str(session.pk)})


# -- agents ---------------------------------------------------------------------------------------------


def delete_token_in_admin(world) -> None:
    token = world["agent"].tokens.get()
    response = admin_browser().post(reverse("admin:agents_agenttoken_delete", args=[token.pk]), {"post": "yes"})
    assert response.status_code == 302


def delete_agent_in_admin(world) -> None:
    response = admin_browser().post(reverse("admin:agents_agent_delete", args=[world["agent"].pk]), {"post": "yes"})
    assert response.status_code == 302, response.content[:2000]


@pytest.mark.parametrize("end", [delete_token_in_admin, delete_agent_in_admin], ids=["token deleted", "agent deleted"])
@pytest.mark.parametrize("socket_of", ["agent socket", "CHAP socket"])
def test_an_agent_whose_token_or_self_is_deleted_has_its_sockets_closed(world, socket_of, end):
    bearer = bearer_headers(world["token"])
    socket = agent_socket(world["token"]) if socket_of == "agent socket" else chap_socket(world, bearer)
    assert closed_by(socket, lambda: end(world), greeted=True) == 4403
