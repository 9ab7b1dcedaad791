"""Bearer-token authentication for agents, on the WebSocket (ASGI middleware) and REST (DRF)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.db import database_sync_to_async
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from agents.tokens import agent_for_token, bearer_token, live_token, token_is_live

if TYPE_CHECKING:  # DRF imports this module while its own views load: importing them here would be a cycle
    from drf_spectacular.openapi import AutoSchema
    from rest_framework.request import Request

    from agents.models import Agent

# An ASGI application, or middleware around one (the scope a plain dict): what ASGI middleware wraps.
ASGIApp = Callable[[Mapping[str, Any], ASGIReceiveCallable, ASGISendCallable], Awaitable[Any]]


class AgentPrincipal:
    """Stands in for ``request.user`` when an agent calls the REST API."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def get_username(self) -> str:
        return f"agent:{self.agent.name}"

    def __str__(self) -> str:
        return self.get_username()


class BearerAgentAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AgentPrincipal, str] | None:
        token = bearer_token(request.headers.get("authorization"))
        if token is None:
            return None
        agent = agent_for_token(token)
        if agent is None:
            raise exceptions.AuthenticationFailed("invalid or revoked agent token")
        return AgentPrincipal(agent), token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="chap"'


class BearerAgentMiddleware:
    """Sets ``scope["agent"]`` from ``Authorization: Bearer``, and ``scope["credential_live"]``, which
    tells a socket whether that token still stands (it ends when the token is revoked);
    ``scope["bad_token"]`` when it fails."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: Mapping[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable) -> Any:
        headers = dict(scope.get("headers") or [])
        token = bearer_token(headers.get(b"authorization"))
        scope = dict(scope, agent=None, credential_live=None, bad_token=False)
        if token is not None:
            found = await database_sync_to_async(live_token)(token)
            scope["bad_token"] = found is None
            if found is not None:
                scope["agent"], scope["credential_live"] = found.agent, partial(token_is_live, found.pk)
        return await self.inner(scope, receive, send)


# drf-spectacular registers extensions in an unannotated __init_subclass__.
class BearerAgentScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Describes agent tokens in the OpenAPI schema."""

    target_class = "agents.auth.BearerAgentAuthentication"
    name = "agentToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "an agent token (python manage.py agent_token NAME)"}
