"""A team's access ends on open sockets too: unsharing the session, taking someone out of the group in
the admin, or deleting the group, closes their sockets of the session with 4403, the access-ended code
of every revocation path (never 1011, the internal-error close)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group
from django.test import Client

from sessions.access import caller_for_user
from sessions.membership import session_share, session_unshare
from tests.factories import make_session, make_user
from tests.people import session_of
from tests.sockets import chap_socket, close_code, closed_by, cookie_headers, frame_of, opened, ui_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def world():
    world, reader = session_of(), make_user("fin")
    group = Group.objects.create(name="finance")
    group.user_set.add(reader)
    session_share(
        session_id=world["session"].pk, caller=caller_for_user(world["owner"]), group="finance", role="viewer"
    )
    return {**world, "reader": reader, "group": group}


def test_unsharing_closes_the_teams_open_socket(client, world):
    socket = chap_socket(world, cookie_headers(client, world["reader"]))
    owner = caller_for_user(world["owner"])
    assert (
        closed_by(socket, lambda: session_unshare(session_id=world["session"].pk, caller=owner, group="finance"))
        == 4403
    )


def test_leaving_the_group_closes_the_open_socket(client, world):
    socket = chap_socket(world, cookie_headers(client, world["reader"]))
    assert closed_by(socket, lambda: world["group"].user_set.remove(world["reader"])) == 4403


def test_deleting_the_group_in_the_admin_closes_its_members_sockets_with_the_access_ended_code(client, world):
    operator = Client()
    operator.force_login(make_user("root", superuser=True))
    chap, page = (opener(world, cookie_headers(client, world["reader"])) for opener in (chap_socket, ui_socket))

    async def scenario():
        await opened(chap)
        await opened(page)
        await frame_of(chap, "hello")
        delete = f"/admin/auth/group/{world['group'].pk}/delete/"
        await database_sync_to_async(operator.post)(delete, {"post": "yes"})
        return await close_code(chap), await close_code(page)

    assert async_to_sync(scenario)() == (4403, 4403)
    assert not Group.objects.filter(name="finance").exists()


def test_deleting_a_group_shared_in_two_sessions_closes_the_sockets_of_both(client, world):
    other = make_session(owner=world["owner"])
    session_share(session_id=other.pk, caller=caller_for_user(world["owner"]), group="finance", role="editor")
    sockets = [chap_socket(shared, cookie_headers(client, world["reader"])) for shared in (world, {"session": other})]

    async def scenario():
        for socket in sockets:
            await opened(socket)
            await frame_of(socket, "hello")
        await database_sync_to_async(world["group"].delete)()
        return [await close_code(socket) for socket in sockets]

    assert async_to_sync(scenario)() == [4403, 4403]
