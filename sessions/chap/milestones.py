"""The moments a person wants to compare before and after: the plan approved, a report delivered,
each piece of feedback a person gives (a correction above all) and the redo that answers it.

The workbench marks each with a checkpoint as its message arrives. Whether a message is a milestone is
read off that message and its neighbours in the graph it was just applied to, so marking costs what one
message holds, never a replay. A checkpoint is never a milestone, so marking one never marks another.
"""

from __future__ import annotations

from typing import Any

from sessions.chap.graph import ContextGraph
from sessions.chap.labels import feedback_label, report_title, sender_label

PLAN_KINDS = frozenset({"agent_capability_declaration", "step"})


def milestone(context: ContextGraph, message_id: str) -> str | None:
    """The milestone the message ``message_id`` marks, in words, or None. Precondition: the message
    was just applied to ``context``."""
    nodes = context.graph.nodes
    attrs = nodes.get(message_id)
    if attrs is None:
        return None
    who = sender_label(attrs.get("sender", ""))
    if attrs["kind"] == "human_feedback" and "target" in attrs and not attrs.get("suggestion"):
        feedback, target = attrs["feedback_type"], attrs["target"]
        if feedback == "approval" and nodes[target]["kind"] in PLAN_KINDS:
            return f"Plan approved by {who}"
        if feedback == "approval":
            return f"Approved by {who}: {_named(context, target)}"
        return f"{feedback_label(feedback).capitalize()} by {who} of {_named(context, target)}"
    if attrs["kind"] == "collaborative_response" and attrs.get("sender", "").startswith("agent:"):
        title = report_title(attrs.get("text", "")) or attrs.get("label", "")
        answered = _feedback_answered(context, message_id)
        if answered is not None:
            asker = sender_label(answered.get("sender", ""))
            return f"Redo by {who} after {asker}'s {feedback_label(answered['feedback_type'])}: {title}"
        if attrs.get("task_step") or _fulfils_a_step(context, message_id):
            return f"Report delivered by {who}: {title}"
    return None


def _named(context: ContextGraph, node: str) -> str:
    """What a piece of feedback was about, as a person names it."""
    attrs = context.graph.nodes[node]
    if attrs["kind"] == "collaborative_response":
        return f"“{report_title(attrs.get('text', '')) or attrs.get('label', '')}”"
    if attrs["kind"] in PLAN_KINDS:
        return "the plan"
    return f"“{attrs.get('label', '')}”"


def _feedback_answered(context: ContextGraph, message_id: str) -> dict[str, Any] | None:
    """The person's feedback (other than an approval) this report replies to, if any."""
    for _, target, data in context.graph.out_edges(message_id, data=True):
        attrs = context.graph.nodes[target]
        if (
            data["type"] == "responds_to"
            and attrs["kind"] == "human_feedback"
            and attrs.get("feedback_type", "approval") != "approval"
            and not attrs.get("suggestion")
        ):
            return dict(attrs)
    return None


def _fulfils_a_step(context: ContextGraph, message_id: str) -> bool:
    return any(data["type"] == "fulfils" for _, _, data in context.graph.out_edges(message_id, data=True))
