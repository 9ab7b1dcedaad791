"""Agent credentials: bearer tokens (issued once, stored as a hash, checked in constant time by lookup
of the hash) and whether the agent may act at all. Revoking or deleting a token, or disabling or deleting
an agent, ends its open connections at once, on every server process (sessions.events.access_changed_on_commit)."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import datetime, timedelta
from functools import cache

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from agents.models import Agent, AgentToken
from sessions.events import access_changed_on_commit
from sessions.models import SessionAgent

TOKEN_PREFIX = "chap_"
# Writing last_used_at on every request would turn each read into a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def _well_formed(token: str) -> bool:
    """Whether ``token`` could be one of ours; anything else is refused without a query."""
    return bool(token) and token.startswith(TOKEN_PREFIX) and len(token) <= 200


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_issue(*, agent: Agent, label: str = "") -> str:
    """A new token for ``agent``; the caller must show it now: it cannot be recovered."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    AgentToken.objects.create(agent=agent, prefix=token[:12], digest=_digest(token), label=label)
    return token


def token_revoke(*, token: AgentToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        access_changed_on_commit("agent", token.agent_id)


def token_deleted(*, instance: AgentToken, **_: object) -> None:
    """``post_delete`` of a token (deleted in the admin, or with its agent): ends as a revoked one does."""
    access_changed_on_commit("agent", instance.agent_id)


def agent_set_enabled(*, agent: Agent, enabled: bool) -> None:
    """Enable or disable an agent; a disabled agent's tokens stop working and its sockets close."""
    Agent.objects.filter(pk=agent.pk).update(enabled=enabled)
    agent.enabled = enabled
    if not enabled:
        access_changed_on_commit("agent", agent.pk)


def live_tokens() -> QuerySet[AgentToken]:
    return AgentToken.objects.filter(revoked_at__isnull=True, agent__enabled=True)


def live_token(token: str) -> AgentToken | None:
    """The live token (of an enabled agent) this bearer value is, or None; records when it was last used."""
    if not _well_formed(token):
        return None
    found = live_tokens().select_related("agent").filter(digest=_digest(token)).first()
    if found is not None:
        _note_use(found.pk, found.last_used_at)
    return found


def session_agent_for_token(token: str, session_id: uuid.UUID) -> Agent | None:
    """The enabled agent whose live token this is, when it takes part in ``session_id``; else None.

    ``live_token`` and ``sessions.access.session_access`` in one query whose SQL is written once: the
    MCP edge asks on every request, and compiling the ORM's join cost more than running it (0.8 ms
    against a 10 ms dataset query, bench/mcp_call.py)."""
    if not _well_formed(token):
        return None
    session = SessionAgent._meta.get_field("session").target_field.get_db_prep_value(session_id, connection)
    stale = AgentToken._meta.get_field("last_used_at").get_db_prep_value(
        timezone.now() - LAST_USED_RESOLUTION, connection
    )
    found = list(Agent.objects.raw(_session_agent_sql(), [stale, _digest(token), session]))
    if not found:
        return None
    extra = found[0].__dict__  # the query's columns beyond the agent's
    if extra["token_unused"]:
        _touch(extra["token_id"])
    return found[0]


@cache
def _session_agent_sql() -> str:
    agents, tokens, taking_part = (model._meta.db_table for model in (Agent, AgentToken, SessionAgent))
    return (
        "SELECT a.*, t.id AS token_id, (t.last_used_at IS NULL OR t.last_used_at < %s) AS token_unused "
        f"FROM {agents} a JOIN {tokens} t ON t.agent_id = a.id JOIN {taking_part} p ON p.agent_id = a.id "
        "WHERE t.digest = %s AND t.revoked_at IS NULL AND a.enabled AND p.session_id = %s"
    )


def _note_use(token_id: int, last_used_at: datetime | None) -> None:
    if last_used_at is None or timezone.now() - last_used_at > LAST_USED_RESOLUTION:
        _touch(token_id)


def _touch(token_id: int) -> None:
    AgentToken.objects.filter(pk=token_id).update(last_used_at=timezone.now())


def agent_for_token(token: str) -> Agent | None:
    """The enabled agent a live token belongs to, or None."""
    found = live_token(token)
    return found.agent if found else None


def token_is_live(token_id: int) -> bool:
    """Whether the token a connection was opened with still works (not revoked, its agent enabled)."""
    return live_tokens().filter(pk=token_id).exists()


def bearer_token(authorization: str | bytes | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header value, if that is what it is."""
    if isinstance(authorization, bytes):
        authorization = authorization.decode("latin-1")
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
