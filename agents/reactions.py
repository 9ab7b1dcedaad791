"""What the agents' work queue does when a human writes: the tasks that a message calls for.

- a task proposal → a planning task for each agent of the session that plans;
- an answer to an agent's clarification or question → that agent works again, with the answer;
- a correction or refinement of an agent's message → that agent revises its work.

Only human messages cause tasks, so agents never set each other off in a loop.
"""

from __future__ import annotations

from agents.models import Agent, AgentKind
from agents.scheduling import task_create
from sessions.access import SYSTEM
from sessions.events import message_accepted
from sessions.models import Message

PLANNING_ROLE = "planning"
REVISED_FEEDBACK = ("correction", "refinement")
WORKING_KINDS = (AgentKind.BUILTIN, AgentKind.LLM)


def connect() -> None:
    message_accepted.connect(react, dispatch_uid="agents.reactions")


def _agents_of(session_id):
    return Agent.objects.filter(participations__session_id=session_id, enabled=True, kind__in=WORKING_KINDS)


def _author(session_id, message_id: str) -> Agent | None:
    sender = (
        Message.objects.filter(session_id=session_id, message_id=message_id, sender_type="agent")
        .values_list("sender_id", flat=True)
        .first()
    )
    return _agents_of(session_id).filter(name=sender).first() if sender else None


def _schedule(session_id, agent: Agent, title: str, message_id: str) -> None:
    task_create(
        session_id=session_id, caller=SYSTEM, title=title[:2000], agent=agent.name, source_message_id=message_id
    )


def react(*, session_id, seq, envelope, **_):
    if envelope["sender"]["type"] != "human":
        return
    payload, message_id = envelope["payload"], envelope["message_id"]
    kind = envelope["payload_type"]
    if kind == "task_proposal":
        for agent in _agents_of(session_id):
            if PLANNING_ROLE in (agent.roles or []):
                _schedule(session_id, agent, f"Plan: {payload['goal']}", message_id)
    elif kind == "clarification_answer":
        agent = _author(session_id, payload["clarification_message_id"])
        if agent is not None:
            _schedule(session_id, agent, "Work again with the answer", message_id)
    elif kind == "human_feedback" and payload["feedback_type"] in REVISED_FEEDBACK:
        agent = _author(session_id, payload["target_message_id"])
        if agent is not None:
            _schedule(session_id, agent, f"Revise after the {payload['feedback_type']}", message_id)
