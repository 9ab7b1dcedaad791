"""How behaviours read the thread a task came from: the proposal behind it, a person's correction."""

from __future__ import annotations

from typing import Any

from agents.runtime import TaskRun


def proposal_behind(run: TaskRun, envelope: dict[str, Any] | None) -> dict[str, Any] | None:
    """The task proposal a message answers, through answers, clarifications, plans and feedback."""
    for _ in range(10):
        if envelope is None or envelope["payload_type"] == "task_proposal":
            return envelope
        payload = envelope["payload"]
        earlier = (
            payload.get("clarification_message_id") or payload.get("target_message_id") or envelope.get("in_reply_to")
        )
        envelope = run.message(earlier)
    return None


def feedback_text(envelope: dict[str, Any] | None) -> str:
    if envelope is None or envelope["payload_type"] != "human_feedback":
        return ""
    payload = envelope["payload"]
    said = [str(v) for v in (payload.get("specific_instructions") or {}).values()]
    return " ".join([*said, payload.get("provided_context", "")]).strip()
