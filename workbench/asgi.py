import gc
import os
from collections.abc import Mapping
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
# Django must be set up before anything imports models (consumers do).
django_asgi_app = get_asgi_application()

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from agents.auth import ASGIApp, BearerAgentMiddleware  # noqa: E402
from agents.mcp.endpoint import McpEndpoint, transport_security, with_mcp  # noqa: E402
from agents.mcp.identity import McpAgent  # noqa: E402
from agents.mcp.server import Context  # noqa: E402
from agents.routing import websocket_urlpatterns as agent_websockets  # noqa: E402
from sessions.routing import websocket_urlpatterns as session_websockets  # noqa: E402
from workbench import daphne_limits  # noqa: E402
from workbench.api_errors import http_status  # noqa: E402
from workbench.origins import SameOriginValidator  # noqa: E402
from workspace.routing import websocket_urlpatterns as workspace_websockets  # noqa: E402


def _origin_checked_unless_bearer(app: ASGIApp) -> ASGIApp:
    """Browsers are held to our own origin (cookies ride along cross-site, workbench/origins.py);
    bearer-token clients are not browsers, send no cookies and usually no Origin, so the token alone
    decides."""
    checked = SameOriginValidator(app)

    async def route(scope: Mapping[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable) -> Any:
        headers = dict(scope.get("headers") or [])
        target = app if b"authorization" in headers and b"cookie" not in headers else checked
        return await target(scope, receive, send)

    return route


daphne_limits.install(api_body_limit=settings.MAX_UPLOAD_BYTES, page_body_limit=settings.MAX_REQUEST_BODY_BYTES)


def _gate_link(ctx: Context, who: McpAgent) -> str:
    """The workspace's approvals panel, where a member decides what an MCP call waits for."""
    path = reverse("workspace:detail", args=[who.session_id]) + "#approvals"
    return str(ctx.request.base_url).rstrip("/") + path if ctx.request is not None else path


mcp_endpoint = McpEndpoint(
    security=transport_security(settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS),
    gate_link=_gate_link,
    status_of=http_status,
)

application = ProtocolTypeRouter(
    {
        "http": with_mcp(django_asgi_app, mcp_endpoint),
        "websocket": _origin_checked_unless_bearer(
            BearerAgentMiddleware(
                AuthMiddlewareStack(
                    # types-channels wants its own URLPattern subclass, which django.urls.path() never returns.
                    URLRouter(session_websockets + agent_websockets + workspace_websockets)  # type: ignore[arg-type]
                )
            )
        ),
    }
)

if settings.CHAP_AGENTS_IN_PROCESS:
    from agents.worker import start_in_background

    start_in_background()

# What startup made lives as long as the process: frozen out of the collector's way, its full
# collections stay short and stop showing in the sockets' delivery times (bench/ws_fanout.py p99).
gc.freeze()
