"""Cross-site WebSocket hijacking: a socket that a cookie authenticates must come from our own origin
(scheme, host and port) or a CSRF-trusted one; a bearer token without cookies decides alone."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from agents.tokens import token_issue
from sessions.membership import agent_join
from tests.factories import make_agent
from tests.people import session_of
from workbench.asgi import application
from workbench.origins import origin_allowed


def scope(host, origin=None, *, scheme="ws", forwarded_proto=None):
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if forwarded_proto:
        headers.append((b"x-forwarded-proto", forwarded_proto.encode()))
    return {"type": "websocket", "path": "/ws/", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", "ws"),
        ("localhost", "http://localhost", "ws"),
        ("[::1]:8443", "https://[::1]:8443", "wss"),
    ],
)
def test_a_page_of_our_own_origin_may_open_a_socket(host, origin, scheme):
    assert origin_allowed(scope(host, origin, scheme=scheme))


@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:9999", "ws"),  # another port on the same host
        ("127.0.0.1:8000", "http://127.0.0.1", "ws"),  # the default port is another port
        ("127.0.0.1:8000", "https://127.0.0.1:8000", "ws"),  # another scheme
        ("localhost:8443", "http://localhost:8443", "wss"),  # an http page may not open our wss socket
        ("127.0.0.1:8000", "http://evil.example", "ws"),
        ("127.0.0.1:8000", "http://127.0.0.1:8000.evil.example", "ws"),
        ("127.0.0.1:8000", "null", "ws"),  # sandboxed frames, file:// pages
        ("127.0.0.1:8000", None, "ws"),  # no Origin at all
        ("evil.example:8000", "http://evil.example:8000", "ws"),  # DNS rebinding: a host we do not serve
    ],
)
def test_another_origin_is_refused(host, origin, scheme):
    assert not origin_allowed(scope(host, origin, scheme=scheme))


def test_trusted_origins_are_accepted_exactly_or_by_subdomain(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://workbench.example", "https://*.corp.example"]
    assert origin_allowed(scope("localhost", "https://workbench.example"))
    assert origin_allowed(scope("localhost", "https://eu.corp.example"))
    assert origin_allowed(scope("localhost", "https://corp.example"))
    assert not origin_allowed(scope("localhost", "http://workbench.example"))
    assert not origin_allowed(scope("localhost", "https://workbench.example:8443"))
    assert not origin_allowed(scope("localhost", "http://eu.corp.example"))
    assert not origin_allowed(scope("localhost", "https://corp.example.evil"))


def test_behind_a_tls_proxy_the_page_is_https(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert origin_allowed(scope("localhost", "https://localhost", forwarded_proto="https"))
    assert not origin_allowed(scope("localhost", "http://localhost", forwarded_proto="https"))


# -- through the ASGI stack, as the attack was made ---------------------------------------------------


def connects(path, *headers) -> tuple[bool, int | None]:
    async def attempt():
        socket = WebsocketCommunicator(application, path, headers=list(headers))
        connected, code = await socket.connect()
        await socket.disconnect()
        return connected, code

    return async_to_sync(attempt)()


@pytest.fixture
def member(transactional_db):
    world = session_of()
    client = Client()
    client.force_login(world["owner"])
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    return {"session": world["session"], "cookie": cookie}


@pytest.mark.parametrize("socket", ["chap", "ui"])
def test_a_cookie_socket_from_another_port_is_refused_before_accept(member, socket):
    path, host = f"/ws/sessions/{member['session'].pk}/{socket}/", (b"host", b"127.0.0.1:8000")
    assert connects(path, host, (b"origin", b"http://127.0.0.1:8000"), member["cookie"])[0] is True
    assert connects(path, host, (b"origin", b"http://127.0.0.1:9999"), member["cookie"])[0] is False


def test_a_bearer_token_without_cookies_needs_no_origin(member):
    agent = make_agent("clerk")
    agent_join(session=member["session"], agent=agent)
    bearer = (b"authorization", f"Bearer {token_issue(agent=agent)}".encode())
    foreign = (b"origin", b"http://127.0.0.1:9999")
    assert connects("/ws/agents/", (b"host", b"127.0.0.1:8000"), foreign, bearer)[0] is True
    assert connects(f"/ws/sessions/{member['session'].pk}/chap/", bearer)[0] is True
    # With the cookie along too, it is a browser's request and the origin counts.
    assert connects("/ws/agents/", (b"host", b"127.0.0.1:8000"), foreign, bearer, member["cookie"])[0] is False
