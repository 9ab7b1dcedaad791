"""One MCP tool call against the same operation through the in-process SAP service, on the same server.

    python bench/mcp_call.py [--rows 100000] [--repeat 15]

A real Daphne serves ``workbench.asgi:application``; the SDK's client (``mcp.Client`` over Streamable
HTTP, one connection kept open) calls ``dataset.query`` on a table of ``--rows`` rows as an agent. The
baseline is the same request through ``InProcessSap`` (the path the built-in agents take) in this
process, on the same database. Both include the permission check and the ``operation_record`` written
to the session log; the MCP call adds the HTTP request, the token and membership check, the SDK and
JSON. Each query is timed best-of ``--repeat``, the two interleaved. Target (issue 38): at most 1.5x.
Uses the configured DATABASE_URL (SQLite in a temporary data directory by default).
"""

import argparse
import asyncio
import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import setup_django, teardown_django
from bench.sap_operations import QUERIES, sales_table
from bench.ws_fanout import free_port, start_server

TARGET = 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    logging.getLogger("httpx2").setLevel(logging.WARNING)  # a line per request would bury the figures
    setup_django()
    try:
        return run(args.rows, args.repeat)
    finally:
        from django.db import connections

        connections["datasets"].close()
        teardown_django()


def run(rows: int, repeat: int) -> int:
    from django.db import connections

    from agents.models import Agent
    from agents.sap import Block
    from agents.sap_service import InProcessSap
    from agents.tokens import token_issue
    from sessions.access import caller_for_agent
    from sessions.membership import agent_join
    from tests.factories import make_session

    session = make_session(title="bench")
    agent = Agent.objects.create(name="bench-agent", allowed_operations=["dataset.*"])
    agent_join(session=session, agent=agent)
    token = token_issue(agent=agent)
    sales_table(session.pk, rows)
    connections.close_all()  # the server's process writes the records too: no connection held open here
    print(f"database: {connections['datasets'].vendor}; table of {rows:,} rows; best of {repeat}")

    def in_process(query: dict) -> float:
        started = time.perf_counter()
        (response,) = InProcessSap(session_id=session.pk, caller=caller_for_agent(agent)).run(
            [Block("query", "dataset.query", "b", query)]
        )
        elapsed = time.perf_counter() - started
        assert response.type == "result", response.body
        return elapsed

    port = free_port()
    server = start_server(port, "workbench.asgi:application")
    baseline_thread = ThreadPoolExecutor(1)  # one thread, one database connection, kept open as a server's
    try:
        url = f"http://127.0.0.1:{port}/mcp/sessions/{session.pk}/"
        timings = asyncio.run(timed(url, token, partial(baseline_thread.submit, in_process), repeat))
    finally:
        server.terminate()
        server.wait(timeout=10)
        baseline_thread.submit(connections.close_all).result()
        baseline_thread.shutdown()
    ok = True
    for label, (mcp, baseline) in timings.items():
        ratio = mcp / baseline
        ok &= ratio <= TARGET
        print(
            f"{label:>18}: MCP tool call {mcp * 1e3:7.2f} ms | in-process SAP {baseline * 1e3:7.2f} ms | "
            f"{ratio:.2f}x (target <= {TARGET}) {'OK' if ratio <= TARGET else 'MISSED'}"
        )
    return 0 if ok else 1


async def timed(url: str, token: str, in_process, repeat: int) -> dict[str, tuple[float, float]]:
    """Best of ``repeat`` for each query, the MCP call and the in-process one in turn."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    timings = {}
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        for label, query in QUERIES.items():
            mcp_times, baseline_times = [], []
            for _ in range(repeat + 1):  # the first round warms both up
                started = time.perf_counter()
                result = await client.call_tool("dataset.query", query)
                mcp_times.append(time.perf_counter() - started)
                assert not result.is_error, result.content
                baseline_times.append(await asyncio.wrap_future(in_process(query)))
            timings[label] = (min(mcp_times[1:]), min(baseline_times[1:]))
    return timings


if __name__ == "__main__":
    sys.exit(main())
