"""Who is calling, and what they may do in a session.

Every edge (browser, REST, WebSocket, SAP, agent runtime) turns its caller into a ``Caller``
and asks ``session_access``; a ``None`` answer means "no such session" to the outside, so a
non-member cannot even learn that the session exists.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeAlias

from django.contrib.auth.models import User

from protocol.errors import ProtocolError, not_found
from sessions.models import GroupShare, MemberRole, Membership, SessionAgent, WorkSession

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

# A session's id as the edges hand it in: the UUID, or its text from a URL, a frame or a form.
SessionId: TypeAlias = uuid.UUID | str


class KnownAgent(Protocol):
    """An agent as sessions know it: its key and its name (agents.models.Agent is a floor above)."""

    @property
    def pk(self) -> int: ...

    @property
    def name(self) -> str: ...


class AgentStandIn(Protocol):
    """A principal that stands for an agent (agents.auth.AgentPrincipal, as ``request.user``)."""

    @property
    def agent(self) -> KnownAgent: ...


WRITER_ROLES = frozenset({MemberRole.OWNER, MemberRole.EDITOR, "agent"})
# The stronger of two roles wins: a member who is also in a group the session is shared with.
ROLE_RANK: dict[str, int] = {MemberRole.VIEWER: 0, MemberRole.COMMENTER: 1, MemberRole.EDITOR: 2, MemberRole.OWNER: 3}
# Who manages a session (its title, state, agents and tasks): its owners and editors, and the workbench.
MANAGERS = frozenset({MemberRole.OWNER, MemberRole.EDITOR, "system"})
# Who decides what waits for a person (approvals, plans, answers): the session's owners and editors.
DECIDERS = (MemberRole.OWNER.value, MemberRole.EDITOR.value)
COMMENT_FEEDBACK = frozenset({"refinement"})  # what a commenter may post: suggestions, never decisions


@dataclass(frozen=True)
class Caller:
    kind: str  # "human", "agent" or "system"
    sender_id: str
    user: User | None = None
    agent: KnownAgent | None = None

    @property
    def sender(self) -> dict[str, str]:
        return {"type": self.kind, "id": self.sender_id}


SYSTEM = Caller("system", "workbench")


def caller_for_user(user: User) -> Caller:
    return Caller("human", user.get_username(), user=user)


def caller_for_agent(agent: KnownAgent) -> Caller:
    return Caller("agent", agent.name, agent=agent)


def caller_for_principal(principal: AbstractBaseUser | AnonymousUser | AgentStandIn | None) -> Caller | None:
    """The caller behind ``request.user`` or a socket scope's user/agent; None when anonymous."""
    agent = getattr(principal, "agent", None)
    if agent is not None:
        return caller_for_agent(agent)
    if isinstance(principal, User) and principal.is_authenticated:
        return caller_for_user(principal)
    return None


@dataclass(frozen=True)
class Access:
    """A caller's role in a session. The session row is read only when something needs it: most SAP
    requests need only the id, and an ORM query per request is a large share of a short one."""

    session_id: uuid.UUID
    role: str  # owner, editor, commenter, viewer, agent or system

    @cached_property
    def session(self) -> WorkSession:
        return WorkSession.objects.get(pk=self.session_id)

    @property
    def can_write(self) -> bool:
        return self.role in WRITER_ROLES or self.role == "system"

    @property
    def can_comment(self) -> bool:
        """Writers, and commenters (who may post refinement feedback only, see ``may_post``)."""
        return self.can_write or self.role == MemberRole.COMMENTER

    def may_post(self, envelope: dict[str, Any]) -> bool:
        if self.can_write:
            return True
        return envelope["payload_type"] == "human_feedback" and self.may_give(envelope["payload"].get("feedback_type"))

    def may_give(self, feedback_type: object) -> bool:
        """Whether the caller may give feedback of ``feedback_type``: writers any, commenters refinements."""
        return self.can_write or (self.role == MemberRole.COMMENTER and feedback_type in COMMENT_FEEDBACK)


def effective_role(session_id: uuid.UUID, user: User) -> str | None:
    """A person's role in a session: from their membership or from a group the session is shared
    with, the stronger one; None when neither. Every page, socket and API asks this one function."""
    roles = [
        *Membership.objects.filter(session_id=session_id, user=user).values_list("role", flat=True),
        *GroupShare.objects.filter(session_id=session_id, group__user=user).values_list("role", flat=True),
    ]
    return max(roles, key=lambda role: ROLE_RANK.get(role, -1), default=None)


def session_access(session_id: SessionId, caller: Caller) -> Access | None:
    try:
        session_id = uuid.UUID(str(session_id))
    except ValueError:
        return None
    if caller.kind == "system":
        return Access(session_id, "system") if WorkSession.objects.filter(pk=session_id).exists() else None
    if caller.kind == "human":
        if caller.user is None or not caller.user.is_authenticated:
            return None
        role = effective_role(session_id, caller.user)
        return Access(session_id, role) if role else None
    if caller.agent is None:
        return None
    taking_part = SessionAgent.objects.filter(session_id=session_id, agent=caller.agent.pk, agent__enabled=True)
    return Access(session_id, "agent") if taking_part.exists() else None


def require_access(session_id: SessionId, caller: Caller, *, write: bool = False) -> Access:
    access = session_access(session_id, caller)
    if access is None:
        raise not_found("SESSION", str(session_id), "no such session")
    if write and not access.can_write:
        _refuse_post(access)
    return access


def require_manager(
    session_id: SessionId, caller: Caller, *, to: str, permission: str, access: Access | None = None
) -> Access:
    """The caller's access, when it may manage the session; PERMISSION_DENIED saying who may ``to``.
    ``access``: the caller's, read already by the edge (checked here, not read again)."""
    access = _read_once(session_id, caller, access)
    if not access.can_write:
        _refuse_post(access)
    if access.role not in MANAGERS:
        raise managers_only(access, to=to, permission=permission)
    return access


def managers_only(access: Access, *, to: str, permission: str) -> ProtocolError:
    """The refusal of what only owners and editors may do, ``to`` saying what; one wording for every such act."""
    return ProtocolError(
        "PERMISSION_DENIED",
        f"only the session's owners and editors {to}",
        details={"role": access.role, "permission": permission},
        suggestion=["ask one of the session's owners or editors"],
    )


def require_post(
    session_id: SessionId, caller: Caller, envelope: dict[str, Any], *, access: Access | None = None
) -> Access:
    """``require_access`` for posting ``envelope``: writers post anything, commenters refinements.
    ``access``: the caller's, read already by the edge (checked here, not read again)."""
    access = _read_once(session_id, caller, access)
    if not access.may_post(envelope):
        _refuse_post(access)
    return access


def require_decider(access: Access, *, to: str) -> None:
    """PERMISSION_DENIED unless the caller decides what waits for people (owners and editors)."""
    if access.role not in DECIDERS:
        raise ProtocolError(
            "PERMISSION_DENIED",
            f"owners and editors {to}; viewers cannot",
            details={"role": access.role, "permission": "gate.decide"},
            suggestion=["ask one of the session's owners or editors"],
        )


def _read_once(session_id: SessionId, caller: Caller, access: Access | None) -> Access:
    """``access`` when the edge read it already (for this session), else the caller's access now."""
    if access is None:
        return require_access(session_id, caller)
    if str(access.session_id) != str(session_id):
        raise ValueError(f"the access given is to session {access.session_id}, not {session_id}")
    return access


def _refuse_post(access: Access) -> NoReturn:
    commenter = access.role == MemberRole.COMMENTER
    raise ProtocolError(
        "PERMISSION_DENIED",
        "a commenter only suggests refinements in this session"
        if commenter
        else f"a {access.role} cannot post in this session",
        details={"role": access.role, "permission": "session.post"},
        suggestion=["ask the session's owner to make you an editor"],
    )
