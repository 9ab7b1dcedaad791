"""The SDK's client over real HTTP, to a real Daphne, with the agent's token."""

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.chromium import off_the_browser_thread


def endpoint(server, session) -> str:
    return f"{server.url}/mcp/sessions/{session.pk}/"


def over_http(server, session, token, scenario):
    """``scenario(client)`` against ``server``, on a loop of its own, off the browser's thread."""

    async def run():
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
        async with http, Client(streamable_http_client(endpoint(server, session), http_client=http)) as client:
            return await scenario(client)

    return off_the_browser_thread(asyncio.run, main=run())
