from typing import Any

from django.conf import settings
from django.core import checks

from sessions.agent_model import AGENT_FIELDS, PROVENANCE_FIELDS, get_agent_model


@checks.register(checks.Tags.compatibility)
def in_memory_channel_layer_in_production(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """The in-memory layer cannot reach other processes: live updates would silently split."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if not settings.DEBUG and backend == "channels.layers.InMemoryChannelLayer":
        return [
            checks.Warning(
                "The in-memory channel layer is in use with DEBUG off.",
                hint="Set REDIS_URL so that several Daphne processes and workers share live events.",
                id="chap_sessions.W001",
            )
        ]
    return []


@checks.register(checks.Tags.models)
def agent_model_keeps_the_contract(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """A model put in the agents' place has every field sessions read of it, or the workbench does not start."""
    model = get_agent_model()
    missing = sorted((AGENT_FIELDS | PROVENANCE_FIELDS) - {field.name for field in model._meta.get_fields()})
    if not missing:
        return []
    return [
        checks.Error(
            f"{settings.CHAP_AGENT_MODEL} lacks {', '.join(missing)}, which sessions read of an agent.",
            hint="CHAP_AGENT_MODEL names a model with every field of sessions.agent_model.AgentContract.",
            obj=model,
            id="chap_sessions.E001",
        )
    ]
