"""The MCP tests' world: olga's session and the clerk agent in it, made by the fixture or off the
browser's thread."""

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
