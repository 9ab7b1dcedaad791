"""Who is calling, and what they may do in a session.

Every edge (browser, REST, WebSocket, SAP, agent runtime) turns its caller into a ``Caller``
and asks ``session_access``; a ``None`` answer means "no such session" to the outside, so a
non-member cannot even learn that the session exists.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cached_property

from agents.sap.errors import SapError
from sessions.models import MemberRole, Membership, SessionAgent, WorkSession

WRITER_ROLES = frozenset({MemberRole.OWNER, MemberRole.EDITOR, "agent"})


@dataclass(frozen=True)
class Caller:
    kind: str  # "human", "agent" or "system"
    sender_id: str
    user: object | None = None
    agent: object | None = None

    @property
    def sender(self) -> dict:
        return {"type": self.kind, "id": self.sender_id}


SYSTEM = Caller("system", "workbench")


def caller_for_user(user) -> Caller:
    return Caller("human", user.get_username(), user=user)


def caller_for_agent(agent) -> Caller:
    return Caller("agent", agent.name, agent=agent)


def caller_for_principal(principal) -> Caller | None:
    """The caller behind ``request.user`` or a socket scope's user/agent; None when anonymous."""
    agent = getattr(principal, "agent", None)
    if agent is not None:
        return caller_for_agent(agent)
    if principal is not None and principal.is_authenticated:
        return caller_for_user(principal)
    return None


@dataclass(frozen=True)
class Access:
    """A caller's role in a session. The session row is read only when something needs it: most SAP
    requests need only the id, and an ORM query per request is a large share of a short one."""

    session_id: uuid.UUID
    role: str  # owner, editor, viewer, agent or system

    @cached_property
    def session(self) -> WorkSession:
        return WorkSession.objects.get(pk=self.session_id)

    @property
    def can_write(self) -> bool:
        return self.role in WRITER_ROLES or self.role == "system"


def session_access(session_id, caller: Caller) -> Access | None:
    try:
        session_id = uuid.UUID(str(session_id))
    except ValueError:
        return None
    if caller.kind == "system":
        return Access(session_id, "system") if WorkSession.objects.filter(pk=session_id).exists() else None
    if caller.kind == "human":
        if caller.user is None or not caller.user.is_authenticated:
            return None
        roles = Membership.objects.filter(session_id=session_id, user=caller.user).values_list("role", flat=True)
        role = next(iter(roles[:1]), None)
        return Access(session_id, role) if role else None
    taking_part = SessionAgent.objects.filter(session_id=session_id, agent=caller.agent, agent__enabled=True)
    return Access(session_id, "agent") if taking_part.exists() else None


def require_access(session_id, caller: Caller, *, write: bool = False) -> Access:
    access = session_access(session_id, caller)
    if access is None:
        raise SapError(
            "RESOURCE_NOT_FOUND",
            "no such session",
            details={"resource_type": "SESSION", "resource_name": str(session_id)},
        )
    if write and not access.can_write:
        raise SapError(
            "PERMISSION_DENIED",
            f"a {access.role} cannot post in this session",
            details={"role": access.role, "permission": "session.post"},
            suggestion=["ask the session's owner to make you an editor"],
        )
    return access
