"""``/mcp/sessions/<id>/``: the MCP endpoint's ASGI edge. Each HTTP request is authenticated here (the
agent's bearer token, its part in the session) and refused with the error model's status before the
SDK sees it; the SDK's Streamable HTTP session manager, stateless, answers the rest, so any server
process answers any request.

Daphne sends no ASGI lifespan events, so the session manager cannot be started by one: it starts on
the first MCP request, under a lock, in a task of the process's event loop that holds its ``run()``
open for the life of the process.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from agents.mcp.identity import McpAgent, mcp_agent
from agents.mcp.server import Context, GateLink, mcp_server
from agents.tokens import bearer_token
from protocol.errors import ProtocolError, not_found
from sessions.delivery import db

PREFIX = "/mcp/"
PATH = re.compile(r"^/mcp/sessions/(?P<session_id>[0-9a-fA-F-]{32,36})/?$")
SCOPE_KEY = "chap.mcp_agent"
INVALID_REQUEST = -32600


def transport_security(allowed_hosts: list[str], trusted_origins: list[str]) -> TransportSecuritySettings:
    """Django's ALLOWED_HOSTS as the hosts (on any port) and the origins a browser may call from; with
    ``*`` allowed, the token alone decides, as Django's own host check would not refuse either."""
    if "*" in allowed_hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    hosts = [f"{host}:*" for host in allowed_hosts] + list(allowed_hosts)
    origins = [
        f"{scheme}://{host}{port}" for host in allowed_hosts for scheme in ("http", "https") for port in ("", ":*")
    ]
    return TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins + list(trusted_origins))


class McpEndpoint:
    """The ASGI application for ``/mcp/``; ``status_of`` gives an error's HTTP status, as REST's does."""

    def __init__(
        self, *, security: TransportSecuritySettings, gate_link: GateLink, status_of: Callable[[ProtocolError], int]
    ) -> None:
        self.server = mcp_server(_identified, gate_link)
        self.manager = StreamableHTTPSessionManager(app=self.server, stateless=True, security_settings=security)
        self.status_of = status_of
        self._lock: asyncio.Lock | None = None  # made on the first request, in the loop that serves
        self._holder: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        matched = PATH.match(scope["path"])
        try:
            if matched is None:
                raise not_found("PATH", scope["path"], "MCP is served at /mcp/sessions/<session id>/")
            headers = dict(scope.get("headers") or [])
            who = await db(mcp_agent)(bearer_token(headers.get(b"authorization")), matched["session_id"])
        except ProtocolError as error:
            await self._refuse(error, send)
            return
        await self._started()
        await self.manager.handle_request({**scope, SCOPE_KEY: who}, receive, send)  # type: ignore[arg-type]

    async def _started(self) -> None:
        """The session manager runs from the first request on (what a lifespan startup would do)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._holder is None:
                running = asyncio.Event()
                self._holder = asyncio.get_running_loop().create_task(self._hold(running))
                await running.wait()

    async def _hold(self, running: asyncio.Event) -> None:
        async with self.manager.run():
            running.set()
            await asyncio.Event().wait()  # for the life of the process

    async def _refuse(self, error: ProtocolError, send: ASGISendCallable) -> None:
        status = self.status_of(error)
        headers = [(b"content-type", b"application/json")]
        if status == 401:
            headers.append((b"www-authenticate", b'Bearer realm="chap", error="invalid_token"'))
        await send({"type": "http.response.start", "status": status, "headers": headers, "trailers": False})
        # A JSON-RPC error (no id: the request was not read), so MCP clients show our message and details.
        refusal = {"code": INVALID_REQUEST, "message": str(error), "data": error.as_dict()}
        body = json.dumps({"jsonrpc": "2.0", "id": None, "error": refusal}).encode()
        await send({"type": "http.response.body", "body": body, "more_body": False})


async def _identified(ctx: Context) -> McpAgent:
    """The agent the edge authenticated for this very HTTP request."""
    assert ctx.request is not None  # the HTTP transport hands every request its starlette Request
    who = ctx.request.scope[SCOPE_KEY]
    assert isinstance(who, McpAgent)
    return who


def with_mcp(django_app: Callable[..., Awaitable[Any]], endpoint: McpEndpoint) -> Callable[..., Awaitable[Any]]:
    """HTTP under ``/mcp/`` to the MCP endpoint, everything else to Django."""

    async def route(scope: Any, receive: ASGIReceiveCallable, send: ASGISendCallable) -> Any:
        target = endpoint if scope["path"].startswith(PREFIX) else django_app
        return await target(scope, receive, send)

    return route
