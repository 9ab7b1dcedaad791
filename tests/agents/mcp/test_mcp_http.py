"""MCP through real Daphne processes with the SDK's own client: a small analysis whose report a
person's open page shows live, a refused call, a gated call approved from the browser, a revoked token
refused on the next call. On SQLite with the in-memory layer, one server and a real browser; on
PostgreSQL + Redis, two servers, a request to each, the person's page socket on the other one."""

import asyncio
import json
import secrets
import urllib.request
from urllib.parse import urlencode

import pytest
from mcp.shared.exceptions import MCPError

from agents.tokens import live_token, token_revoke
from tests.agents.mcp.over_http import over_http
from tests.agents.mcp.scenario import refused_and_gated, refused_on_next_call, small_analysis, text_of
from tests.agents.mcp.world import make_mcp_world
from tests.chromium import off_the_browser_thread, open_page, screenshot, sign_in
from tests.live import DaphneServer, open_socket, requires_scale, signed_in, wait_for

WAIT = 60_000
REPORT = "mean amount is 14.5"


def approval_state(server, world, approval_id):
    async def follow(client):
        return await client.call_tool("chap.approval", {"approval_id": approval_id})

    return over_http(server, world["session"], world["token"], follow).structured_content


def leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


def refused_code(server, world) -> str:
    """The error code of the next call, which must be refused: the client cannot even connect."""
    with pytest.raises(BaseException) as refused:  # the SDK's client raises it inside its task group
        over_http(server, world["session"], world["token"], refused_on_next_call)
    mcp_errors = [error for error in leaves(refused.value) if isinstance(error, MCPError)]
    assert mcp_errors, repr(refused.value)
    return mcp_errors[0].error.data["code"]


def revoke(world):
    off_the_browser_thread(lambda: token_revoke(token=live_token(world["token"])))


@pytest.mark.browser
@pytest.mark.processes
def test_an_mcp_client_works_in_a_session_a_person_watches(chromium, transactional_db):
    mcp_world = off_the_browser_thread(make_mcp_world)
    session = mcp_world["session"]
    server = DaphneServer().start()
    try:
        page = open_page(chromium)
        sign_in(page, server, "olga")
        page.goto(f"{server.url}/sessions/{session.pk}/")

        seen = over_http(server, session, mcp_world["token"], small_analysis)
        assert {"describe", "dataset.import-csv", "stats.describe", "chap.respond"} <= set(seen["tools"])
        assert seen["imported"].structured_content["rows_loaded"] == 30, text_of(seen["imported"])
        assert not seen["posted"].is_error, text_of(seen["posted"])
        page.locator("#thread article.kind-collaborative_response", has_text=REPORT).wait_for(timeout=WAIT)
        screenshot(page, "mcp-1-report-live")

        calls = over_http(server, session, mcp_world["token"], refused_and_gated)
        assert calls["refused"].structured_content["code"] == "PERMISSION_DENIED"
        assert calls["progress"] == [(0, 2, "step ping"), (1, 2, "step tables")]
        pending = calls["gated"].structured_content
        assert pending["status"] == "pending" and pending["gate"].startswith(f"{server.url}/sessions/{session.pk}/")
        gate = page.locator(f'#approvals [data-gate-key="operation:{pending["approval_id"]}"]')
        gate.wait_for(timeout=WAIT)
        screenshot(page, "mcp-2-gate-waits")
        gate.get_by_role("button", name="Approve").click()
        gate.wait_for(state="detached", timeout=WAIT)
        decided = approval_state(server, mcp_world, pending["approval_id"])
        assert (decided["status"], decided["outcome"], decided["decided_by"]) == ("approved", "result", "olga")

        revoke(mcp_world)
        assert refused_code(server, mcp_world) == "UNAUTHENTICATED"
    finally:
        server.stop()


def approve_as_a_browser(server, cookie, session, approval_id) -> int:
    """The workspace's Approve button, as the browser posts it."""
    csrf = secrets.token_hex(16)
    form = urlencode({"key": f"operation:{approval_id}", "decision": "approve", "view": "workspace"}).encode()
    request = urllib.request.Request(f"{server.url}/sessions/{session.pk}/gates/", data=form, method="POST")
    for name, value in {
        "Cookie": f"{cookie}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Referer": f"{server.url}/",
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
    }.items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


async def frames_until(socket, text, timeout=60):
    """The page socket's frames until one holds ``text``."""
    async with asyncio.timeout(timeout):
        while text not in (frame := await socket.recv()):
            continue
        return frame


@requires_scale
@pytest.mark.processes
def test_two_servers_answer_one_mcp_client_each_and_the_page_on_the_other_sees_it(mcp_world):
    session, token = mcp_world["session"], mcp_world["token"]
    server_a, server_b = DaphneServer().start(), DaphneServer().start()
    cookie = signed_in(mcp_world["owner"])
    try:

        async def watched_analysis():
            page = await open_socket(server_a, f"/ws/sessions/{session.pk}/ui/", Cookie=cookie, Origin=server_a.url)
            seen = await asyncio.to_thread(over_http, server_b, session, token, small_analysis)
            frame = await frames_until(page, REPORT)
            await page.close()
            return seen, frame

        seen, frame = off_the_browser_thread(asyncio.run, main=watched_analysis())  # a browser test's loop may run here
        assert seen["stats"].structured_content["columns"][0]["mean"] == 14.5
        assert REPORT in json.dumps(frame)

        calls = over_http(server_a, session, token, refused_and_gated)
        assert calls["refused"].is_error and calls["gated"].structured_content["status"] == "pending"
        assert len(calls["progress"]) == 2
        approval_id = calls["gated"].structured_content["approval_id"]
        assert approve_as_a_browser(server_b, cookie, session, approval_id) == 200
        decided = wait_for(lambda: approval_state(server_a, mcp_world, approval_id)["status"] == "approved")
        assert decided

        revoke(mcp_world)
        assert refused_code(server_b, mcp_world) == refused_code(server_a, mcp_world) == "UNAUTHENTICATED"
    finally:
        server_a.stop()
        server_b.stop()
