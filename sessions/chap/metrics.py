"""Process metrics read from the log: how the collaboration went, not just what it produced."""

from __future__ import annotations

from datetime import datetime
from statistics import mean
from typing import Any

from sessions.chap.graph import ContextGraph


def _time(envelope: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(envelope["timestamp"].replace("Z", "+00:00"))


def process_metrics(graph: ContextGraph, messages: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """Rounds to consensus per plan step, human corrections, agent questions per response,
    time to first draft and the wait for approvals (seconds)."""
    by_id = {envelope["message_id"]: envelope for _, envelope in messages}
    nodes = graph.graph.nodes
    rounds: dict[str, int] = {}
    consensus: dict[str, int | None] = {node: None for node in graph.steps.values()}
    corrections = redirections = responses = questions = 0
    first_proposal = first_draft = None
    approval_waits = []
    for _, envelope in messages:
        kind, payload = envelope["payload_type"], envelope["payload"]
        if kind == "task_proposal" and first_proposal is None:
            first_proposal = envelope
        elif kind == "collaborative_response":
            responses += 1
            questions += len(payload.get("open_questions_for_human") or [])
            first_draft = first_draft or envelope
            for _, step, data in graph.graph.out_edges(envelope["message_id"], data=True):
                if data["type"] == "fulfils":
                    rounds[step] = rounds.get(step, 0) + 1
        elif kind == "clarification" and envelope["sender"]["type"] == "agent":
            questions += 1
        elif kind == "human_feedback" and envelope["sender"]["type"] == "human":  # an agent's is a suggestion
            feedback_type = payload["feedback_type"]
            corrections += feedback_type == "correction"
            redirections += feedback_type == "new_direction"
            target = by_id.get(payload["target_message_id"])
            if feedback_type == "approval" and target is not None:
                approval_waits.append((_time(envelope) - _time(target)).total_seconds())
                for _, step, data in graph.graph.out_edges(target["message_id"], data=True):
                    if data["type"] == "fulfils" and consensus.get(step) is None:
                        consensus[step] = rounds.get(step, 0)
    return {
        "rounds_to_consensus": {nodes[step].get("label", step): value for step, value in consensus.items()},
        "human_corrections": corrections,
        "new_directions": redirections,
        "agent_questions_per_response": round(questions / responses, 3) if responses else None,
        "time_to_first_draft_s": (_time(first_draft) - _time(first_proposal)).total_seconds()
        if first_draft and first_proposal
        else None,
        "approval_wait_s": round(mean(approval_waits), 3) if approval_waits else None,
        "messages": len(messages),
    }
