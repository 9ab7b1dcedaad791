"""A team's access ends on open sockets too: unsharing the session, or taking someone out of the
group in the admin, closes their sockets of the session with 4403."""

import pytest
from django.contrib.auth.models import Group

from sessions.access import caller_for_user
from sessions.membership import session_share, session_unshare
from tests.factories import make_session, make_user
from tests.sessions.test_consumer import cookie_headers
from tests.sessions.test_revocation import chap_socket, closed_by

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def world():
    owner, reader = make_user("olga"), make_user("fin")
    session = make_session(owner=owner)
    group = Group.objects.create(name="finance")
    group.user_set.add(reader)
    session_share(session_id=session.pk, caller=caller_for_user(owner), group="finance", role="viewer")
    return {"session": session, "owner": owner, "reader": reader, "group": group}


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
