"""Which agent of a session takes a role: the least busy enabled one that does it, and the roles
no agent of a session takes (a plan step of such a role would wait for ever)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection

from django.db.models import Count

from agents.models import OPEN_STATES, Agent, Task
from protocol.errors import ProtocolError
from sessions.models import SessionAgent


def _takes(participation: SessionAgent, role: str) -> bool:
    taken = [*(participation.agent.roles or []), *(participation.covers_roles or []), participation.role]
    return bool(role) and role in taken


def _match_agent(session_id: uuid.UUID, role: str) -> Agent | None:
    """The least busy enabled agent of the session that can take ``role``; one paused here last."""
    participations = SessionAgent.objects.filter(session_id=session_id, agent__enabled=True).select_related("agent")
    able = [p.agent for p in participations if _takes(p, role)]
    if not able:
        return None
    paused = {p.agent_id for p in participations if p.paused}
    load = dict(
        Task.objects.filter(agent__in=able, state__in=OPEN_STATES)
        .values_list("agent")
        .annotate(n=Count("pk"))
        .values_list("agent", "n")
    )
    return min(able, key=lambda agent: (agent.pk in paused, load.get(agent.pk, 0), agent.name))


def roles_missing(wanted: dict[uuid.UUID, set[str]]) -> dict[uuid.UUID, set[str]]:
    """For each session id of ``wanted``, the roles of its set that no enabled agent of that session
    takes: one query for any number of sessions."""
    taking: defaultdict[str, list[SessionAgent]] = defaultdict(list)
    enabled = SessionAgent.objects.filter(session_id__in=wanted, agent__enabled=True).select_related("agent")
    for participation in enabled:
        taking[str(participation.session_id)].append(participation)
    return {
        session_id: {role for role in roles if role and not any(_takes(p, role) for p in taking[str(session_id)])}
        for session_id, roles in wanted.items()
    }


def roles_uncovered(*, session_id: uuid.UUID, roles: Collection[str]) -> dict[str, list[str]]:
    """Of ``roles``, those no enabled agent of the session takes, each with the enabled agents that
    would (the ones a person can invite): a plan step of such a role would wait for ever."""
    missing = roles_missing({session_id: set(roles)})[session_id]
    if not missing:
        return {}
    outside = Agent.objects.filter(enabled=True).exclude(participations__session_id=session_id).order_by("name")
    candidates = list(outside.values_list("name", "roles"))
    return {role: [name for name, taken in candidates if role in (taken or [])] for role in sorted(missing)}


def _paused_here(session_id: uuid.UUID, agent: Agent | None) -> bool:
    return agent is not None and SessionAgent.objects.filter(session_id=session_id, agent=agent, paused=True).exists()


def _participant(session_id: uuid.UUID, name: str) -> Agent:
    participation = SessionAgent.objects.select_related("agent").filter(session_id=session_id, agent__name=name).first()
    if participation is None:
        raise _not_taking_part(name)
    return participation.agent


def _not_taking_part(name: str) -> ProtocolError:
    return ProtocolError(
        "RESOURCE_NOT_FOUND",
        f"agent {name!r} does not take part in this session",
        details={"resource_type": "AGENT", "resource_name": name},
        suggestion=["invite the agent to the session first"],
    )


def _role_mismatch(session_id: uuid.UUID, task: Task, name: str | None, *, confirm: bool) -> str:
    """ROLE_MISMATCH when agent ``name`` does not take ``task``'s role and the person did not
    confirm; the note the reassignment carries when they did ("" when the roles fit)."""
    needed = task.required_role
    here = list(SessionAgent.objects.filter(session_id=session_id).select_related("agent"))
    chosen = next((p for p in here if p.agent.name == name), None)
    if not needed or chosen is None or _takes(chosen, needed):
        return ""
    if confirm:
        return f"given to {name}, which does not do {needed}, on purpose"
    able = [p.agent.name for p in here if _takes(p, needed)]
    does = ", ".join(chosen.agent.roles or []) or "no role"
    raise ProtocolError(
        "ROLE_MISMATCH",
        f"{name} does not do {needed}, which “{task.title}” needs ({name} does {does})",
        details={"agent": name, "required_role": needed, "agent_roles": does, "agents_with_role": able},
        suggestion=[
            *([f"give it to {' or '.join(able)} instead"] if able else []),
            f"to give it to {name} anyway, send the reassignment again with confirm: true",
        ],
    )
