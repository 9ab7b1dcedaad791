"""Who works on a session: an agent invited into it, and a session started as the new-session form
describes it. Both span the apps (agents join a session; its files go to the agents' workspace)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import transaction

from agents.models import Agent
from agents.operations.uploads import StagedUpload
from agents.sap_service import workspace_upload
from agents.scheduling.acts import tasks_assign_waiting
from protocol.errors import not_found
from sessions.access import Caller, SessionId, caller_for_user, require_manager
from sessions.log import message_post_at_head
from sessions.membership import agent_join, session_create, session_event_post
from sessions.models import SessionAgent, WorkSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def agent_invite(*, session_id: SessionId, caller: Caller, agent: str) -> SessionAgent:
    """An owner or editor invites an enabled agent into the session; the tasks that waited for a role
    it takes are given to it (agents.scheduling), and the invitation is in the log."""
    access = require_manager(session_id, caller, to="invite agents", permission="session.agents")
    found = Agent.objects.filter(name=agent, enabled=True).first()
    if found is None:
        raise not_found(
            "AGENT", agent, f"no enabled agent {agent!r}", suggestion=["pick one of the agents the form lists"]
        )
    with transaction.atomic():
        participation = agent_join(session=access.session, agent=found)
        roles = ", ".join(found.roles or []) or "no stated role"
        session_event_post(
            access.session_id, caller, action="agent_invited", agent=found.name,
            label=f"{caller.sender_id} invited {found.name} ({roles})",
        )  # fmt: skip
        tasks_assign_waiting(session_id=access.session_id, caller=caller)
    return participation


def task_proposal(
    *,
    goal: str,
    template: str = "",
    constraints: dict[str, str] | None = None,
    background: Iterable[str] = (),
    success_criteria: Iterable[str] = (),
    roles: Iterable[str] = (),
) -> dict[str, Any]:
    """The task proposal a new session starts with, from what a person gave (the new-session form, the
    session_create command): everything given is in it, what is empty is left out."""
    fields = {
        "template": template,
        "constraints": {key: value for key, value in (constraints or {}).items() if value},
        "background_context": list(background),
        "success_criteria": list(success_criteria),
        "expected_agent_roles": list(roles),
    }
    return {"goal": goal.strip(), **{key: value for key, value in fields.items() if value}}


def session_start(
    *,
    owner: User,
    title: str,
    proposal: dict[str, Any],
    agents: Iterable[Agent] = (),
    files: Iterable[tuple[str, StagedUpload]] = (),
) -> WorkSession:
    """A new session as the new-session form describes it: its agents invited, its files (staged
    uploads, agents.operations.uploads) in the workspace, then the task proposal (which sets the
    agents to work, agents.reactions)."""
    session = session_create(owner=owner, title=title)
    caller = caller_for_user(owner)
    for agent in agents:
        agent_join(session=session, agent=agent)
    attached = []
    for name, upload in files:
        workspace_upload(session_id=session.pk, caller=caller, path=f"attachments/{name}", upload=upload)
        attached.append(f"attachments/{name}")
    if attached:
        proposal = {
            **proposal,
            "background_context": [*proposal.get("background_context", []), *(f"attached file {p}" for p in attached)],
        }
    message_post_at_head(session_id=session.pk, caller=caller, payload_type="task_proposal", payload=proposal)
    return session
