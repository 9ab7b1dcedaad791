"""The MCP endpoint's HTTP edge: who is let through to the SDK, and what the rest are told."""

import json
from datetime import timedelta

import httpx2
import pytest
from django.utils import timezone
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from agents.mcp.endpoint import McpEndpoint, transport_security
from agents.models import AgentToken
from tests.agents.mcp.world import run_on_one_db_thread
from tests.factories import make_session
from workbench.api_errors import http_status

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def post(path, *, token=None, host="127.0.0.1:8000", origin=None):
    endpoint = McpEndpoint(
        security=transport_security(["127.0.0.1", "localhost"], ["https://workbench.example"]),
        gate_link=lambda ctx, who: "",
        status_of=http_status,
    )
    headers = {"Host": host, "Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    headers |= {"Authorization": f"Bearer {token}"} if token else {}
    headers |= {"Origin": origin} if origin else {}

    async def send():
        transport = httpx2.ASGITransport(app=endpoint)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
            return await client.post(path, content=json.dumps(INITIALIZE), headers=headers)

    return run_on_one_db_thread(send)


def refusal(response) -> str:
    return response.json()["error"]["data"]["code"]


def test_without_a_token_the_client_is_told_how_to_authenticate(mcp_world):
    response = post(f"/mcp/sessions/{mcp_world['session'].pk}/")
    assert response.status_code == 401 and refusal(response) == "UNAUTHENTICATED"
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "agent_token" in response.json()["error"]["data"]["suggestion"][0]


def test_a_session_the_agent_takes_no_part_in_is_not_found(mcp_world):
    response = post(f"/mcp/sessions/{make_session().pk}/", token=mcp_world["token"])
    assert response.status_code == 404 and refusal(response) == "RESOURCE_NOT_FOUND"


def test_a_path_that_names_no_session_is_not_found(mcp_world):
    response = post("/mcp/sessions/", token=mcp_world["token"])
    assert response.status_code == 404 and "/mcp/sessions/<session id>/" in response.json()["error"]["message"]


def test_a_malformed_session_id_is_not_found(mcp_world):
    response = post("/mcp/sessions/" + "-" * 32 + "/", token=mcp_world["token"])
    assert response.status_code == 404 and refusal(response) == "RESOURCE_NOT_FOUND"


def test_the_admin_sees_when_a_token_was_last_used(mcp_world):
    stored = AgentToken.objects.get(agent=mcp_world["agent"])
    assert stored.last_used_at is None
    assert post(f"/mcp/sessions/{mcp_world['session'].pk}/", token=mcp_world["token"]).status_code == 200
    stored.refresh_from_db()
    assert stored.last_used_at is not None and timezone.now() - stored.last_used_at < timedelta(minutes=1)


def test_hosts_and_origins_come_from_the_settings(mcp_world):
    path = f"/mcp/sessions/{mcp_world['session'].pk}/"
    assert post(path, token=mcp_world["token"]).status_code == 200
    assert post(path, token=mcp_world["token"], origin="https://workbench.example").status_code == 200
    assert post(path, token=mcp_world["token"], host="evil.example").status_code == 421
    assert post(path, token=mcp_world["token"], origin="https://evil.example").status_code == 403


def test_any_host_allowed_turns_the_host_check_off():
    assert not transport_security(["*"], []).enable_dns_rebinding_protection


def test_a_client_of_the_2025_handshake_is_served_with_progress_too(mcp_world):
    """Desktop clients still open with ``initialize``; each request is answered on its own all the same."""
    endpoint = McpEndpoint(security=transport_security(["*"], []), gate_link=lambda ctx, who: "", status_of=http_status)
    progress = []

    async def report(done, total, message):
        progress.append((done, total, message))

    async def session():
        http = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=endpoint), headers={"Authorization": f"Bearer {mcp_world['token']}"}
        )
        url = f"http://127.0.0.1/mcp/sessions/{mcp_world['session'].pk}/"
        async with http, Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            steps = [{"id": "a", "operation": "system.ping", "body": {}}, {"id": "b", "operation": "system.ping"}]
            result = await client.call_tool("workflow.execute", {"steps": steps}, progress_callback=report)
            return client.protocol_version, result

    version, result = run_on_one_db_thread(session)
    assert version.startswith("2025") and result.structured_content["completed"] == ["a", "b"]
    assert progress == [(0, 2, "step a"), (1, 2, "step b")]
