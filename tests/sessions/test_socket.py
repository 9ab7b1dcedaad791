from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from tests.factories import make_session, make_user
from tests.sockets import SAME_ORIGIN
from workbench.asgi import application


def cookie_for(client, user):
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def open_socket(session_id, *headers):
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/chap/", headers=[*SAME_ORIGIN, *headers]
    )
    connected, code = await communicator.connect()
    return communicator, connected, code


def test_member_connects_through_the_asgi_stack_and_gets_hello(client, transactional_db):
    owner = make_user()
    session = make_session(owner=owner)
    cookie = cookie_for(client, owner)

    async def scenario():
        communicator, connected, _ = await open_socket(session.id, cookie)
        assert connected
        hello = await communicator.receive_json_from(timeout=30)
        await communicator.disconnect()
        return hello

    hello = async_to_sync(scenario)()
    assert hello["type"] == "hello"
    assert hello["session_id"] == str(session.id)


def test_outsider_and_anonymous_are_refused_before_accept(client, transactional_db):
    session = make_session()
    outsider = make_user()

    async def scenario(*headers):
        communicator, connected, code = await open_socket(session.id, *headers)
        await communicator.disconnect()
        return connected, code

    outsider_cookie = cookie_for(client, outsider)
    assert async_to_sync(scenario)(outsider_cookie) == (False, 4403)
    assert async_to_sync(scenario)() == (False, 4403)


def test_foreign_origin_is_refused(client, transactional_db):
    owner = make_user()
    session = make_session(owner=owner)
    cookie = cookie_for(client, owner)

    async def scenario():
        communicator = WebsocketCommunicator(
            application,
            f"/ws/sessions/{session.id}/chap/",
            headers=[(b"host", b"localhost"), (b"origin", b"http://evil.example"), cookie],
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    assert async_to_sync(scenario)() is False
