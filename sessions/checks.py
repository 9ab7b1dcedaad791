"""System checks of the sessions app: what would otherwise fail late, on first use, fails at start-up."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.utils.module_loading import import_string
from rest_framework.settings import IMPORT_STRINGS

from sessions.agent_model import AGENT_FIELDS, PROVENANCE_FIELDS, get_agent_model


def dotted_path_errors(setting: str, paths: Iterable[str], *, check_id: str, hint: str) -> list[checks.CheckMessage]:
    """An Error for each path in a setting that does not import a callable: a typo in a deployment
    stops ``check`` (and with it ``migrate`` and the server's start) instead of the first use."""
    errors: list[checks.CheckMessage] = []
    for path in paths:
        try:
            target = import_string(path)
        except Exception as error:  # an ImportError, or whatever the module raises as it loads
            errors.append(checks.Error(f"{setting}: {path!r} does not import ({error}).", hint=hint, id=check_id))
            continue
        if not callable(target):
            errors.append(checks.Error(f"{setting}: {path!r} is not callable.", hint=hint, id=check_id))
    return errors


@checks.register()
def safety_filter_imports(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Everything agents post passes CHAP_SAFETY_FILTER (sessions/safety.py)."""
    return dotted_path_errors(
        "CHAP_SAFETY_FILTER",
        [settings.CHAP_SAFETY_FILTER],
        check_id="chap_sessions.E001",
        hint="Name a function filter(envelope, agent) -> envelope as module.function, "
        "or unset CHAP_SAFETY_FILTER for sessions.safety.default_filter.",
    )


@checks.register()
def rest_framework_paths_import(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Django REST framework imports the classes its settings name on the first API request."""
    paths = []
    for key, value in settings.REST_FRAMEWORK.items():
        if key in IMPORT_STRINGS and value:
            paths += [value] if isinstance(value, str) else list(value)
    return dotted_path_errors(
        "REST_FRAMEWORK",
        paths,
        check_id="chap_sessions.E002",
        hint="Each class or function in REST_FRAMEWORK is named as module.Name (workbench/settings.py).",
    )


@checks.register(checks.Tags.compatibility)
def in_memory_channel_layer_in_production(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
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


@checks.register(checks.Tags.models)
def agent_model_keeps_the_contract(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[checks.CheckMessage]:
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
            id="chap_sessions.E003",
        )
    ]
