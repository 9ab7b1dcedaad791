"""Agent bearer tokens: issued once, stored as a hash, checked in constant time by lookup of the hash."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from agents.models import Agent, AgentToken

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


def agent_for_token(token: str) -> Agent | None:
    """The enabled agent a live token belongs to, or None; records when the token was last used."""
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    found = (
        AgentToken.objects.select_related("agent")
        .filter(digest=_digest(token), revoked_at__isnull=True, agent__enabled=True)
        .first()
    )
    if found is None:
        return None
    now = timezone.now()
    if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
        AgentToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found.agent


def bearer_token(authorization: str | bytes | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header value, if that is what it is."""
    if isinstance(authorization, bytes):
        authorization = authorization.decode("latin-1")
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
