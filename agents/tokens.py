"""Agent credentials: bearer tokens (issued once, stored as a hash, checked in constant time by lookup
of the hash) and whether the agent may act at all. Revoking or deleting a token, or disabling or deleting
an agent, ends its open connections at once, on every server process (sessions.events.access_changed_on_commit)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from agents.models import Agent, AgentToken
from sessions.events import access_changed_on_commit

TOKEN_PREFIX = "chap_"
# Writing last_used_at on every request would turn each read into a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


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
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    found = live_tokens().select_related("agent").filter(digest=_digest(token)).first()
    if found is None:
        return None
    now = timezone.now()
    if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
        AgentToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found


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
