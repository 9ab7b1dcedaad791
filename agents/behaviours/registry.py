"""The built-in behaviours by name, and the agents a new workbench starts with.

The worker (agents/worker.py) asks ``behaviour_for`` which function runs an agent's task; the
behaviours themselves know only the contract in agents/runtime.py, so nothing imports back.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

from agents.behaviours import analyst, planner, reviewer, writer
from agents.behaviours.llm import llm_behaviour
from agents.models import Agent, AgentKind
from agents.runtime import TaskRun

Behaviour = Callable[[TaskRun], str | None]  # the id of its result message
BEHAVIOURS: dict[str, Behaviour] = {
    "scribe": writer.writer,
    "writer": writer.writer,
    "planner": planner.planner,
    "analyst": analyst.analyst,
    "reviewer": reviewer.reviewer,
}
# The built-in agents a new workbench starts with: what each is, and what it declares about itself.
BUILTIN_AGENTS = {
    "planner": {
        "behaviour": "planner",
        "roles": ["planning"],
        "description": "Turns a task proposal into a plan from the closest task template, or asks when unsure.",
        "can_do": planner.CAN_DO,
        "cannot_do": planner.CANNOT_DO,
        "allowed_operations": [],
    },
    "analyst": {
        "behaviour": "analyst",
        "roles": ["analysis"],
        "description": "Profiles, describes and compares the session's data through SAP, with its confidence.",
        "can_do": analyst.CAN_DO,
        "cannot_do": analyst.CANNOT_DO,
        "allowed_operations": ["dataset.*", "stats.*", "file.list", "file.read"],
    },
    "reviewer": {
        "behaviour": "reviewer",
        "roles": ["review"],
        "description": "Checks a deliverable against its template's sections and the task's success criteria.",
        "can_do": reviewer.CAN_DO,
        "cannot_do": reviewer.CANNOT_DO,
        "allowed_operations": [],
    },
    "scribe": {
        "behaviour": "scribe",
        "roles": ["writing", "summary"],
        "description": "Writes the deliverable its task template names, in prose, from the analysis it follows.",
        "can_do": writer.CAN_DO,
        "cannot_do": writer.CANNOT_DO,
        "allowed_operations": ["file.write", "file.read", "file.list"],
    },
}


def builtin_agents_ensure() -> list[Agent]:
    """Create the built-in agents that are missing; an admin's later edits are kept."""
    return [
        Agent.objects.get_or_create(name=name, defaults={"kind": AgentKind.BUILTIN, **fields})[0]
        for name, fields in BUILTIN_AGENTS.items()
    ]


def behaviour_for(agent: Agent) -> Behaviour | None:
    """LLM agents run the LLM loop; built-in ones the behaviour they name (or their name), from
    ``BEHAVIOURS`` or settings.CHAP_BEHAVIOURS."""
    if agent.kind == AgentKind.LLM:
        return llm_behaviour
    name = agent.behaviour or agent.name
    if name in BEHAVIOURS:
        return BEHAVIOURS[name]
    if name in settings.CHAP_BEHAVIOURS:
        configured: Behaviour = import_string(settings.CHAP_BEHAVIOURS[name])
        return configured
    return None
