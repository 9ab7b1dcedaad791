"""The agent model sessions point at, declared the way Django declares the user model.

``settings.CHAP_AGENT_MODEL`` names it ("agents.Agent" in this project), as ``AUTH_USER_MODEL`` names
the user model: ``SessionAgent.agent`` is a foreign key to the setting, its migration depends on it
through ``migrations.swappable_dependency``, and ``get_agent_model`` returns the class, as
``get_user_model`` does. So sessions stand below the app that provides agents and never import it.

What sessions read of an agent is ``AgentContract`` and nothing more. Their ORM lookups through a
relation to the agent model (``agent__enabled``, ``participants__agent__name``) name only
``AGENT_FIELDS`` (tests/workbench/test_layers.py holds that); the default safety filter also stamps
the agent's kind, model and behaviour on what it reports. A system check
(``sessions.checks``) makes sure at start-up that the configured model has these fields.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.apps import apps
from django.conf import settings
from django.db import models

# The agent's fields sessions filter on and read through relations.
AGENT_FIELDS = frozenset({"name", "kind", "roles", "enabled"})
# What the default safety filter stamps on an agent's report as its provenance (sessions.safety).
PROVENANCE_FIELDS = frozenset({"llm_model", "behaviour"})


class AgentContract(Protocol):
    """An agent as sessions read it."""

    pk: Any
    name: str  # unique: the sender id of everything it posts
    kind: str  # "builtin", "llm" or "external"
    roles: Any  # the roles it takes (a list of strings), shown on the session's agent board
    enabled: bool  # a disabled agent takes part in no session
    llm_model: str
    behaviour: str


def get_agent_model() -> type[models.Model]:
    """The model ``settings.CHAP_AGENT_MODEL`` names (ImproperlyConfigured when it names none)."""
    return apps.get_model(settings.CHAP_AGENT_MODEL, require_ready=False)
