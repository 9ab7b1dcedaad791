"""What an agent writes passes a safety filter before anyone sees it (settings.CHAP_SAFETY_FILTER).

A filter is ``filter(envelope, agent) -> envelope``; it must be deterministic, so that a retried
message filters to the same content. The default one redacts secrets (API keys, tokens, private
keys, passwords), flags personal data (e-mail addresses, phone numbers, card and IBAN numbers) without
changing it, and stamps a collaborative_response with who generated it and how.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.utils.module_loading import import_string

from sessions.agent_model import AgentContract

if TYPE_CHECKING:
    from sessions.access import KnownAgent

REDACTED = "[redacted]"
SECRETS = {
    "api_key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "workbench_token": re.compile(r"\bchap_[A-Za-z0-9_-]{20,}"),
    "aws_key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "github_token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"),
    "bearer": re.compile(r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/-]{16,}=*"),
    "private_key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
    "password": re.compile(r"(?i)(?<=password)\s*[:=]\s*\S+"),
}
PERSONAL = {
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
    "phone": re.compile(r"(?<![\w.])\+?\d[\d ()-]{8,}\d\b"),
    "card_number": re.compile(r"\b(?:\d[ -]?){13,16}\b"),
    "iban": re.compile(r"\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b"),
}


Envelope = dict[str, Any]
SafetyFilter = Callable[[Envelope, AgentContract], Envelope]


@dataclass
class _Found:
    redacted: dict[str, int] = field(default_factory=dict)  # secret kind -> how many were redacted
    flags: set[str] = field(default_factory=set)  # kinds of personal data seen


def _redact(text: str, found: _Found) -> str:
    for kind, pattern in SECRETS.items():
        text, count = pattern.subn(": " + REDACTED if kind == "password" else REDACTED, text)
        if count:
            found.redacted[kind] = found.redacted.get(kind, 0) + count
    for kind, pattern in PERSONAL.items():
        if pattern.search(text):
            found.flags.add(kind)
    return text


def _walk(value: Any, found: _Found) -> Any:
    if isinstance(value, str):
        return _redact(value, found)
    if isinstance(value, list):
        return [_walk(item, found) for item in value]
    if isinstance(value, dict):
        return {key: _walk(item, found) for key, item in value.items()}
    return value


def default_filter(envelope: Envelope, agent: AgentContract) -> Envelope:
    found = _Found()
    payload = _walk(envelope["payload"], found)
    if envelope["payload_type"] == "collaborative_response":
        stated = payload.get("provenance") or {}
        payload["provenance"] = {
            **stated,
            "ai_generated": True,
            "agent": agent.name,
            "kind": agent.kind,
            "model": agent.llm_model or stated.get("model") or agent.behaviour or "external",
            "version": settings.WORKBENCH_VERSION,
            "safety": {"redacted": found.redacted, "flags": sorted(found.flags)},
        }
    return {**envelope, "payload": payload}


@cache
def _configured() -> SafetyFilter:
    configured: SafetyFilter = import_string(settings.CHAP_SAFETY_FILTER)
    return configured


def filtered(envelope: Envelope, agent: KnownAgent | None) -> Envelope:
    """``agent`` is the caller's agent of an agent's post: an agents.models.Agent, which sessions, a floor
    below, know only as a KnownAgent."""
    return _configured()(envelope, cast(AgentContract, agent))
