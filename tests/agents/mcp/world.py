"""The MCP tests' world: olga's session and the clerk agent in it, made by the fixture or off the
browser's thread."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from agents.tokens import token_issue
from sessions.membership import agent_join
from tests.factories import make_agent, make_session, make_user

SALES = "region,amount\n" + "".join(f"{region},{n}\n" for n, region in enumerate(["north", "south", "east"] * 10))
# What the clerk may run: files but not deleting them, datasets (dropping a table waits for a person), stats.
CLERK_OPERATIONS = ["file.list", "file.read", "file.write", "dataset.*", "stats.*"]


def make_mcp_world():
    """olga's session, and the clerk in it with a token."""
    owner = make_user("olga")
    session = make_session(owner=owner, title="Regional sales")
    agent = make_agent("clerk", kind="external", allowed_operations=CLERK_OPERATIONS)
    agent_join(session=session, agent=agent)
    return {"owner": owner, "session": session, "agent": agent, "token": token_issue(agent=agent)}


def run_on_one_db_thread(main):
    """``asyncio.run(main())`` with the database work of ``db()`` on one thread whose connection is closed
    at the end (on PostgreSQL an open one would keep the test database in use at teardown)."""

    async def run():
        loop, worker = asyncio.get_running_loop(), ThreadPoolExecutor(1)
        loop.set_default_executor(worker)
        try:
            return await main()
        finally:
            await loop.run_in_executor(worker, connections.close_all)

    return asyncio.run(run())
