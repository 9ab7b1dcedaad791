"""Layered summaries of a context graph: exact, because they are read off the graph, not written by an LLM."""

from __future__ import annotations

from typing import Any

from sessions.chap.dependencies import waits
from sessions.chap.graph import ContextGraph

DECISION_TYPES = ("approval", "correction", "new_direction")
FACT_KINDS = frozenset({"assumption", "section", "constraint", "source", "collaborative_response"})


def is_decision(attrs: dict[str, Any]) -> bool:
    """A human's approval, correction or new direction; an agent's feedback is only a suggestion."""
    return (
        attrs["kind"] == "human_feedback"
        and attrs.get("feedback_type") in DECISION_TYPES
        and not attrs.get("suggestion")
    )


LISTS = ("decisions", "facts_agreed", "assumptions_in_force", "open_questions", "needs_review")


def layered_summary(context: ContextGraph, *, listed: int | None = None) -> dict[str, Any]:
    """Goal, then decisions, agreed facts, assumptions in force, open questions and the plan. With
    ``listed``, each of those lists but the plan keeps only its newest ``listed`` entries and ``counts``
    says how many there are: a checkpoint's summary then stays the same size however long the session
    (whole, 4,000 milestone checkpoints of a 10,000-message session held gigabytes; bench/long_session.py)."""
    nodes = context.graph.nodes
    goal = nodes[context.goal] if context.goal else None

    def brief(node: str) -> dict[str, Any]:
        attrs = nodes[node]
        return {"node": node, "label": attrs.get("label", ""), "status": attrs["status"], "seq": attrs["seq"]}

    decisions, facts, assumptions, questions, review = [], [], [], [], []
    for node, attrs in nodes(data=True):
        kind, status = attrs["kind"], attrs["status"]
        if is_decision(attrs) and status != "overturned":
            decisions.append(
                {
                    **brief(node),
                    "type": attrs["feedback_type"],
                    "target": attrs["target"],
                    "by": attrs["sender"],
                    "instruction": attrs.get("text", ""),
                }
            )
            if attrs["feedback_type"] == "correction" and attrs.get("text"):
                facts.append({**brief(node), "label": attrs["text"], "from": "correction"})
        elif kind in FACT_KINDS and status == "done":
            facts.append(brief(node))
        if kind == "assumption" and status != "overturned":
            assumptions.append(brief(node))
        if waits(attrs):  # asked and still asked
            questions.append(brief(node))
        if status == "needs_review":
            review.append(brief(node))
    plan = [
        {**brief(node), "step": number, "requires_approval": nodes[node].get("requires_approval", False)}
        for number, node in sorted(context.steps.items())
    ]
    lists = dict(zip(LISTS, (decisions, facts, assumptions, questions, review), strict=True))
    summary: dict[str, Any] = {
        "seq": context.seq,
        "goal": {"label": goal.get("text", ""), "status": goal["status"]} if goal else None,
        **lists,
        "plan": plan,
    }
    if listed is not None:
        # The graph lists its nodes in the order of their messages: the last entries are the newest.
        summary.update({name: entries[max(0, len(entries) - listed) :] for name, entries in lists.items()})
        summary["counts"] = {name: len(entries) for name, entries in lists.items()}
    return summary
