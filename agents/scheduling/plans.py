"""Plans: an agent's proposed plan approved or rejected by a person (its steps become tasks, each
handing its output to the next, once), and what a task hands on."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction

from agents.models import Agent, Task
from agents.scheduling.acts import _require_planner, task_create
from protocol.errors import not_found
from sessions.access import Access, Caller, SessionId, managers_only, require_access, require_decider
from sessions.chap.graph import ContextGraph
from sessions.chap.labels import message_label
from sessions.log import message_post_at_head
from sessions.models import Message


@transaction.atomic
def plan_accept(*, session_id: SessionId, caller: Caller, message_id: str, access: Access | None = None) -> list[Task]:
    """The steps of an agent's proposed plan become tasks, each handing its output to the next: what a
    person's approval of the plan starts (``steps_on_approval``). ``access``: the caller's, when read.

    Accepting the same plan again returns the tasks it made the first time.
    """
    access = _require_planner(session_id, caller, access)
    made = _plan_tasks(access.session_id, message_id)
    if made:
        return made
    message, plan = _proposed(access.session_id, message_id)
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


def _proposed(session_id: UUID, message_id: str) -> tuple[Message, list[dict[str, Any]]]:
    """The message proposing a plan, and its steps; RESOURCE_NOT_FOUND when it proposes none."""
    message = Message.objects.filter(session_id=session_id, message_id=message_id).first()
    plan = (message.envelope["payload"].get("proposed_plan") if message else None) or []
    if message is None or message.payload_type != "agent_capability_declaration" or not plan:
        raise not_found(
            "PLAN",
            message_id,
            f"no proposed plan in message {message_id!r}",
            suggestion=["decide an agent_capability_declaration that has a proposed_plan"],
        )
    return message, plan


def _plan_tasks(session_id: UUID, message_id: str) -> list[Task]:
    steps = Task.objects.filter(session_id=session_id, source_message_id=message_id, plan_step__isnull=False)
    return list(steps.order_by("plan_step"))


def steps_on_approval(*, session_id: SessionId, caller: Caller, access: Access, plan_message_id: str, **_: Any) -> None:
    """``sessions.log.plan_approved``'s receiver: whatever channel a person's approval of a plan came by,
    its steps become tasks in the transaction that logs the approval."""
    plan_accept(session_id=session_id, caller=caller, message_id=plan_message_id, access=access)


def plan_decide(
    *,
    session_id: SessionId,
    caller: Caller,
    message_id: str,
    approve: bool,
    reason: str = "",
    access: Access | None = None,
) -> list[Task]:
    """A person approves or rejects an agent's proposed plan: the Accept button, the REST route and the
    list of what waits all come here. The decision goes in the log as the human_feedback any CHAP
    client would send (an approval; a correction giving the reason), so it takes the one path every
    decision takes: an approval's steps become tasks in its transaction (``steps_on_approval``), a
    rejection sets its author planning again (``agents.reactions``), and a second decision is refused
    with ALREADY_DECIDED. Returns the plan's tasks (none after a rejection). ``access``: the
    caller's, when the edge read it already."""
    if access is None:
        access = require_access(session_id, caller)
    if caller.kind != "human":  # an agent's approval is a suggestion, which decides nothing
        raise managers_only(access, to="approve or reject plans", permission="gate.decide")
    require_decider(access, to="approve or reject plans")
    _proposed(access.session_id, message_id)
    payload: dict[str, Any] = {"target_message_id": message_id, "feedback_type": "approval"}
    if not approve:
        payload.update(feedback_type="correction", specific_instructions={"reason": reason or "the plan was rejected"})
    with transaction.atomic():
        message_post_at_head(
            session_id=access.session_id,
            caller=caller,
            payload_type="human_feedback",
            payload=payload,
            in_reply_to=message_id,
            access=access,
        )
        return _plan_tasks(access.session_id, message_id) if approve else []


def task_artefact(context: ContextGraph, task: Task) -> str:
    """What a task hands on: its plan step's stated output (or its title), and the message that
    carries it once the task is done, named as a person names it ("the report from analyst"); a
    report written again since is the newest version, which is what the next step reads."""
    nodes = context.graph.nodes
    step = nodes.get(f"{task.source_message_id}#step:{task.plan_step}", {})
    named = step.get("output") or f"the output of “{task.title}”"
    if not task.result_message_id:
        return f"{named}, when ready"
    node, redone = nodes.get(task.result_message_id), False
    while node and node.get("superseded_by") in nodes:
        node, redone = nodes[node["superseded_by"]], True
    return f"{named}: {message_label(node)}" + (", as written again since" if redone else "")
