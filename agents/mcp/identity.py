"""Who calls the MCP endpoint: an agent with a live token, in a session it takes part in. Read on every
HTTP request, so a revoked token, a disabled agent or an agent taken out of the session is refused on
the next one."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from agents.models import Agent
from agents.tokens import live_token, session_agent_for_token
from protocol.errors import ProtocolError
from sessions.access import Access, Caller, caller_for_agent, require_access


@dataclass(frozen=True)
class McpAgent:
    agent: Agent
    access: Access

    @property
    def session_id(self) -> uuid.UUID:
        return self.access.session_id

    @property
    def caller(self) -> Caller:
        return caller_for_agent(self.agent)


def mcp_agent(token: str | None, session_id: str) -> McpAgent:
    """The agent ``token`` stands for, in ``session_id``: as the agent socket and SAP let it in.

    Raises ProtocolError: UNAUTHENTICATED without a live token, RESOURCE_NOT_FOUND when the agent
    takes no part in the session (the same answer as for a session that does not exist)."""
    try:
        session: uuid.UUID | None = uuid.UUID(session_id)
    except ValueError:
        session = None
    if token and session:
        agent = session_agent_for_token(token, session)
        if agent is not None:
            return McpAgent(agent, Access(session, "agent"))
    found = live_token(token) if token else None
    if found is None:
        raise ProtocolError(
            "UNAUTHENTICATED",
            "this endpoint takes an agent's token: Authorization: Bearer chap_…",
            suggestion=["ask an admin for a token (python manage.py agent_token NAME)"],
        )
    return McpAgent(found.agent, require_access(session_id, caller_for_agent(found.agent)))
