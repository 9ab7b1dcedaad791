"""Plans: an agent's proposed plan approved, rejected or accepted by a person (its steps become
tasks, each handing its output to the next), and what a task hands on."""

from __future__ import annotations

from django.db import transaction

from agents.models import Agent, Task
from agents.scheduling.acts import _require_planner, task_create
from protocol.errors import not_found
from sessions.access import Access, Caller, SessionId
from sessions.chap.graph import ContextGraph
from sessions.chap.labels import message_label
from sessions.log import message_post_at_head
from sessions.models import Message


@transaction.atomic
def plan_accept(*, session_id: SessionId, caller: Caller, message_id: str) -> list[Task]:
    """The steps of an agent's proposed plan become tasks, each handing its output to the next.

    Accepting the same plan again returns the tasks it made the first time.
    """
    access = _require_planner(session_id, caller)
    made = list(Task.objects.filter(session_id=access.session_id, source_message_id=message_id).order_by("plan_step"))
    if made:
        return made
    message = Message.objects.filter(session_id=access.session_id, message_id=message_id).first()
    plan = (message.envelope["payload"].get("proposed_plan") if message else None) or []
    if message is None or message.payload_type != "agent_capability_declaration" or not plan:
        raise not_found(
            "PLAN",
            message_id,
            f"no proposed plan in message {message_id!r}",
            suggestion=["accept an agent_capability_declaration that has a proposed_plan"],
        )
    author = Agent.objects.filter(name=message.sender_id).first() if message.sender_type == "agent" else None
    tasks: list[Task] = []
    for step in sorted(plan, key=lambda s: s["step"]):
        role = step.get("required_capability", "")
        task = task_create(
            session_id=access.session_id,
            caller=caller,
            title=step["action"],
            instructions=step.get("output", ""),
            agent=author.name if author and not role else None,
            required_role=role,
            priority=0,
            depends_on=[tasks[-1].pk] if tasks else [],
            requires_approval=step.get("requires_approval", False),
            source_message_id=message_id,
            plan_step=step["step"],
        )
        tasks.append(task)
    return tasks


def plan_approve(*, session_id: SessionId, caller: Caller, message_id: str, access: Access | None = None) -> list[Task]:
    """A person approves an agent's proposed plan: the approval goes in the log, then its steps
    become tasks (``plan_accept``). A plan a person approved or rejected already is not decided
    again: ``message_post`` refuses the second decision with ALREADY_DECIDED. ``access``: the
    caller's, when the edge read it already."""
    access = _require_planner(session_id, caller, access)
    with transaction.atomic():
        message_post_at_head(
            session_id=access.session_id,
            caller=caller,
            payload_type="human_feedback",
            payload={"target_message_id": message_id, "feedback_type": "approval"},
            in_reply_to=message_id,
            access=access,
        )
        return plan_accept(session_id=access.session_id, caller=caller, message_id=message_id)


def plan_reject(*, session_id: SessionId, caller: Caller, message_id: str, reason: str = "") -> None:
    """A person rejects a proposed plan: a correction of it in the log, so its author plans again."""
    access = _require_planner(session_id, caller)
    message_post_at_head(
        session_id=access.session_id,
        caller=caller,
        payload_type="human_feedback",
        payload={
            "target_message_id": message_id,
            "feedback_type": "correction",
            "specific_instructions": {"reason": reason or "the plan was rejected"},
        },
        in_reply_to=message_id,
    )


def task_artefact(context: ContextGraph, task: Task) -> str:
    """What a task hands on: its plan step's stated output (or its title), and the message that
    carries it once the task is done, named as a person names it ("the report from analyst")."""
    step = context.graph.nodes.get(f"{task.source_message_id}#step:{task.plan_step}", {})
    named = step.get("output") or f"the output of “{task.title}”"
    if not task.result_message_id:
        return f"{named}, when ready"
    return f"{named}: {message_label(context.graph.nodes.get(task.result_message_id))}"
