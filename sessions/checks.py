from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.compatibility)
def in_memory_channel_layer_in_production(app_configs, **kwargs):
    """The in-memory layer cannot reach other processes: live updates would silently split."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if not settings.DEBUG and backend == "workbench.layers.EmbeddedChannelLayer":
        return [
            checks.Warning(
                "The in-memory channel layer is in use with DEBUG off.",
                hint="Set REDIS_URL so that several Daphne processes and workers share live events.",
                id="chap_sessions.W001",
            )
        ]
    return []
