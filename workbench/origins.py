"""The Origin check of cookie-authenticated WebSockets, made as Django's CSRF check makes it for forms.

A browser sends the session cookie with a WebSocket opened from any page, so a socket that a cookie
authenticates must come from one of our own pages: its Origin must be the server's own origin (the
scheme and the Host header, which must be one of ALLOWED_HOSTS) or one of CSRF_TRUSTED_ORIGINS
(``https://*.example.com`` covers the subdomains). Another port or scheme on the same host is another
origin. Bearer-token clients send no cookie and are not held to it (workbench/asgi.py).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

from agents.auth import ASGIApp

# The page that opened a ws:// socket was served over http://, a wss:// one over https://.
PAGE_SCHEMES = {"ws": "http", "wss": "https"}


def own_origin(scope: Mapping[str, Any]) -> str | None:
    """The origin of this server's pages as the request names it, or None for a host we do not serve.
    Django reads it (Host, X-Forwarded-Host and -Proto as configured, ALLOWED_HOSTS) as for any request."""
    page_scope = dict(scope, method="GET", scheme=PAGE_SCHEMES.get(scope.get("scheme", ""), "http"))
    request = ASGIRequest(page_scope, io.BytesIO())
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return None


def trusted_origin(origin: str) -> bool:
    """Whether CSRF_TRUSTED_ORIGINS names ``origin``, exactly or by a ``*.`` subdomain pattern."""
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            pattern = urlsplit(trusted)
            if pattern.scheme == parts.scheme and is_same_domain(parts.netloc, pattern.netloc.lstrip("*")):
                return True
    return False


def origin_allowed(scope: Mapping[str, Any]) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1")
    if not origin:
        return False
    return origin == own_origin(scope) or trusted_origin(origin)


class SameOriginValidator:
    """Refuses (HTTP 403, before the handshake completes) a WebSocket from another origin."""

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: Mapping[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            # An ASGI scope is a plain dict; types-channels names it a TypedDict of its own.
            return await WebsocketDenier()(scope, receive, send)  # type: ignore[arg-type]
        return await self.application(scope, receive, send)
