"""Envelope factories: valid CHAP messages with sensible defaults, plain dicts."""

import itertools

from sessions.chap.chain import genesis_checksum
from sessions.chap.graph import ContextGraph
from sessions.chap.schemas import validate_envelope

_ids = itertools.count(1)
SESSION = "sess-test"
CHECKSUM = "0" * 16


def envelope(
    payload_type: str,
    payload: dict,
    *,
    message_id=None,
    in_reply_to=None,
    sender=("human", "alice"),
    session_id=SESSION,
    context_checksum=CHECKSUM,
) -> dict:
    return {
        "chap_version": "1.0",
        "session_id": str(session_id),
        "message_id": message_id or f"m{next(_ids)}",
        "in_reply_to": in_reply_to,
        "timestamp": "2024-01-15T10:30:00Z",
        "sender": {"type": sender[0], "id": sender[1]},
        "context_checksum": context_checksum,
        "payload_type": payload_type,
        "payload": payload,
    }


def proposal(goal="Write a short report on battery suppliers", **kwargs) -> dict:
    payload = {"goal": goal, "constraints": {"format": "markdown", "deadline": "2024-01-20"}}
    return envelope("task_proposal", payload, **kwargs)


def declaration(steps=3, **kwargs) -> dict:
    payload = {
        "can_do": [{"action": "summarise sources", "scope": "public data", "limitation": "no paywalled papers"}],
        "estimated_resources": {"time_to_first_draft": "PT1H30M"},
        "proposed_plan": [
            {"step": n, "action": f"step {n}", "output": f"output {n}", "requires_approval": n == steps}
            for n in range(1, steps + 1)
        ],
    }
    kwargs.setdefault("sender", ("agent", "planner"))
    return envelope("agent_capability_declaration", payload, **kwargs)


def response(
    step=None,
    assumptions=("Recent means since 2021",),
    questions=("Technical or business focus?",),
    sections=(("intro", 0.9), ("market", 0.4)),
    **kwargs,
) -> dict:
    payload = {
        "task_step_id": f"step_{step}" if step else None,
        "content": {
            "format": "markdown",
            "body": "## Intro\nText.\n## Market\nMore.",
            "sections": [
                {"id": sid, "title": sid.title(), "body": f"{sid} text", "confidence": c} for sid, c in sections
            ],
        },
        "supporting_materials": [{"type": "reference", "citation": "[1] Smith 2023", "confidence_in_source": "high"}],
        "assumptions_made": list(assumptions),
        "confidence_score": 0.75,
        "uncertainties": [{"aspect": "hardware error rates", "reason": "few data", "suggestion": "check reports"}],
        "open_questions_for_human": list(questions),
    }
    if step is None:
        del payload["task_step_id"]
    kwargs.setdefault("sender", ("agent", "analyst"))
    return envelope("collaborative_response", payload, **kwargs)


def answered(asked, lead, *, from_analysis=None, **kwargs) -> dict:
    """The analyst's report answering ``asked`` with ``lead`` (its Findings' first line, kept in its
    provenance's answers); with ``from_analysis``, the writer's deliverable written from that report."""
    made = response(questions=(), **kwargs)
    payload = made["payload"]
    payload["content"]["sections"].insert(0, {"id": "findings", "title": "Findings", "body": lead, "confidence": 0.8})
    if from_analysis:
        made["sender"] = {"type": "agent", "id": "scribe"}
        payload["provenance"] = {"behaviour": "writer", "deliverable": True, "from_message_id": from_analysis}
    else:
        answer = {"asked": asked, "lead": lead, "confidence": 0.8, "report": made["message_id"], "settings": ""}
        payload["provenance"] = {"behaviour": "analyst", "question": asked, "answers": [answer]}
    return made


def feedback(target, feedback_type="correction", part=None, **kwargs) -> dict:
    payload = {
        "target_message_id": target,
        "feedback_type": feedback_type,
        "specific_instructions": {"request": "Use 2022 onwards"},
    }
    if part:
        payload["target_part"] = part
    return envelope("human_feedback", payload, **kwargs)


def minimal(param) -> object:
    """The smallest value ``param`` (a schema Param) accepts: required fields only, read off the schema,
    so every payload type, a new one too, has a valid example."""
    if param.enum:
        return param.enum[0]
    if param.type == "object":
        return {name: minimal(field) for name, field in (param.properties or {}).items() if field.required}
    return {
        "string": "x" * max(param.min_length or 1, 1),
        "integer": int(param.minimum or 1),
        "number": param.minimum or 0,
        "boolean": False,
        "array": [],
        "date": "2024-01-15",
    }[param.type]


def minimal_payload(payload_type: str) -> dict:
    from protocol.params import Param
    from sessions.chap.schemas import PAYLOADS

    return minimal(Param("object", properties=PAYLOADS[payload_type]))


def note(session, sender, message_id):
    # Every writer states the genesis version: nothing a summary builds on is ever corrected.
    return envelope(
        "summary",
        {"text": f"note {message_id}"},
        message_id=message_id,
        sender=("agent", sender),
        session_id=session.pk,
        context_checksum=genesis_checksum(str(session.pk)),
    )


def build(*messages) -> ContextGraph:
    graph = ContextGraph("s")
    for seq, message in enumerate(messages, start=1):
        graph.apply(seq, validate_envelope(message))
    return graph
