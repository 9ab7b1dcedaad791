"""The tasks that the log's messages call for, set off by the worker after the message's request.

- a task proposal → a planning task for each agent of the session that plans;
- an answer to an agent's clarification or question → that agent works again, with the answer;
- a correction, refinement or new direction of an agent's report → the agent that can act on it
  revises its work: for a report written from another agent's analysis, the analyst (the writer
  then writes again from the new figures); feedback on the task proposal → the session's planners;
- an agent's report that replaces its earlier one → the plan steps that built on the earlier one
  run again from the new one (the writer writes again, the review is re-run).

Humans set work off; an agent's report only carries a redo forward along the plan's dependencies,
which end, so agents never set each other off in a loop.

The request that posts a message only commits it (and its answer to the browser): the worker
(``agents.worker``, in ``run_agents`` or in the server's process) reacts before it takes a task,
reading each session's messages after ``WorkSession.handled_seq``. The accepted message's signal only
wakes a worker of the same process early.
"""

from __future__ import annotations

import logging
import threading
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import F, Q, QuerySet

from agents.models import Agent, AgentKind, Task, TaskState
from agents.scheduling.acts import task_create
from sessions.access import SYSTEM
from sessions.events import message_accepted
from sessions.graphs import graph_cache
from sessions.models import Message, WorkSession

logger = logging.getLogger(__name__)

PLANNING_ROLE = "planning"
REVISED_FEEDBACK = ("correction", "refinement", "new_direction")
WORKING_KINDS = (AgentKind.BUILTIN, AgentKind.LLM)
FINISHED = (TaskState.DONE, TaskState.FAILED)
# The messages that may set work off, by sender; ``react`` says what each one asks for.
SETS_OFF = Q(sender_type="human", payload_type__in=("task_proposal", "clarification_answer", "human_feedback")) | Q(
    sender_type="agent", payload_type="collaborative_response"
)
SESSIONS_PER_RUN = 20
news = threading.Event()  # set when this process commits a message: its worker reacts without waiting a poll


def connect() -> None:
    message_accepted.connect(_news, dispatch_uid="agents.reactions")


def _news(**_: Any) -> None:
    news.set()


def reactions_run() -> bool:
    """React to the messages nothing has reacted to yet, a session at a time; False when there were none."""
    reacted = False
    for _ in range(SESSIONS_PER_RUN):
        if not _react_in_one_session():
            break
        reacted = True
    return reacted


def _react_in_one_session() -> bool:
    with transaction.atomic():
        # The row lock keeps two workers off one session's messages (SQLite: its write transaction).
        pending = WorkSession.objects.select_for_update(skip_locked=True).filter(handled_seq__lt=F("head_seq"))
        session = pending.order_by("last_activity_at").only("pk", "handled_seq", "head_seq").first()
        if session is None:
            return False
        rows = Message.objects.filter(SETS_OFF, session=session, seq__gt=session.handled_seq, seq__lte=session.head_seq)
        for seq, envelope in rows.order_by("seq").values_list("seq", "envelope"):
            try:
                with transaction.atomic():
                    react(session_id=session.pk, seq=seq, envelope=envelope)
            except Exception:  # one failed reaction must not hold up the session's later messages
                logger.exception("reaction to message %s of session %s failed", seq, session.pk)
        WorkSession.objects.filter(pk=session.pk).update(handled_seq=session.head_seq)
    return True


def _agents_of(session_id: UUID) -> QuerySet[Agent]:
    return Agent.objects.filter(participations__session_id=session_id, enabled=True, kind__in=WORKING_KINDS)


def _message(session_id: UUID, message_id: str | None) -> Message | None:
    return Message.objects.filter(session_id=session_id, message_id=message_id).first() if message_id else None


def _author_of(session_id: UUID, message: Message | None) -> Agent | None:
    if message is None or message.sender_type != "agent":
        return None
    return _agents_of(session_id).filter(name=message.sender_id).first()


def _author(session_id: UUID, message_id: str) -> Agent | None:
    return _author_of(session_id, _message(session_id, message_id))


def _acting_agent(session_id: UUID, message: Message | None) -> Agent | None:
    """Who can act on feedback about a message: for a report written from another agent's analysis,
    that analyst (only it can change the figures); else the message's author."""
    if message is None or message.sender_type != "agent":
        return None
    written_from = (message.envelope["payload"].get("provenance") or {}).get("from_message_id")
    return (_author(session_id, written_from) if written_from else None) or _author_of(session_id, message)


def _planners(session_id: UUID) -> list[Agent]:
    return [agent for agent in _agents_of(session_id) if PLANNING_ROLE in (agent.roles or [])]


def _schedule(session_id: UUID, agent: Agent, title: str, message_id: str) -> None:
    task_create(
        session_id=session_id, caller=SYSTEM, title=title[:2000], agent=agent.name, source_message_id=message_id
    )


def react(*, session_id: UUID, seq: int, envelope: dict[str, Any], **_: Any) -> None:
    if envelope["sender"]["type"] == "agent":
        if envelope["payload_type"] == "collaborative_response":
            carry_forward(session_id, envelope)
        return
    if envelope["sender"]["type"] != "human":
        return
    payload, message_id = envelope["payload"], envelope["message_id"]
    kind = envelope["payload_type"]
    if kind == "task_proposal":
        for planner in _planners(session_id):
            _schedule(session_id, planner, f"Plan: {payload['goal']}", message_id)
    elif kind == "clarification_answer":
        agent = _author(session_id, payload["clarification_message_id"])
        if agent is not None:
            _schedule(session_id, agent, "Work again with the answer", message_id)
    elif kind == "human_feedback" and payload["feedback_type"] in REVISED_FEEDBACK:
        _revise(session_id, payload, message_id)


def _clarification_answered(session_id: UUID, envelope: dict[str, Any]) -> str | None:
    """The clarification message whose answer the report replies to, if it does (not a report's
    question: a report answered again replaces it, or is a refusal that replaces nothing)."""
    answer = _message(session_id, envelope.get("in_reply_to"))
    if answer is None or answer.payload_type != "clarification_answer":
        return None
    payload = answer.envelope["payload"]
    return None if payload.get("question_index") is not None else str(payload["clarification_message_id"])


def _revise(session_id: UUID, payload: dict[str, Any], message_id: str) -> None:
    feedback = payload["feedback_type"]
    target = _message(session_id, payload["target_message_id"])
    agent = _acting_agent(session_id, target)
    if agent is not None:
        _schedule(session_id, agent, f"Revise after the {feedback.replace('_', ' ')}", message_id)
        return
    if target is not None and target.payload_type == "task_proposal":
        for planner in _planners(session_id):
            _schedule(session_id, planner, f"Plan again after the {feedback.replace('_', ' ')}", message_id)


def carry_forward(session_id: UUID, envelope: dict[str, Any]) -> None:
    """An agent's new report replaces its earlier one, or answers from a person's answer to the
    clarification its plan step ended in: the plan steps that ended in the earlier message now end in
    the new report, and the finished steps that built on them run again from it."""
    new_id = envelope["message_id"]
    entry = graph_cache.entry(WorkSession.objects.get(pk=session_id))
    with entry.lock:  # the graph says which report this one replaced (a refusal replaces nothing)
        replaced = (entry.graph.graph.nodes.get(new_id) or {}).get("supersedes")
    replaced = replaced or _clarification_answered(session_id, envelope)
    if replaced is None:
        return
    for step in Task.objects.filter(session_id=session_id, result_message_id=replaced, plan_step__isnull=False):
        Task.objects.filter(pk=step.pk).update(result_message_id=new_id)
        for later in step.dependents.filter(state__in=FINISHED, agent__isnull=False).select_related("agent"):
            assert later.agent is not None, "only the steps with an agent are run again"
            _schedule(session_id, later.agent, f"{later.title} (again, from the new version)", new_id)
