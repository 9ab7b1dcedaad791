"""A team's access ends on open sockets too: unsharing the session, or taking someone out of the
group in the admin, closes their sockets of the session with 4403."""

import pytest
from django.contrib.auth.models import Group

from sessions.access import caller_for_user
from sessions.membership import session_share, session_unshare
from tests.factories import make_user
from tests.people import session_of
from tests.sockets import chap_socket, closed_by, cookie_headers

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
