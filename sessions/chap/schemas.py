"""CHAP message schemas: the envelope and every payload type, validated with the SAP core's rules.

A bad message is refused with ``INVALID_MESSAGE``, one class of problem at a time (missing
fields, then wrong types, then constraints), each named by its path (``payload.goal``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from protocol import strict_json
from protocol.errors import ProtocolError
from protocol.params import Param
from protocol.validation import validate_params
from sessions.chap.traits import TRAITS

CHAP_VERSION = "1.0"
ID_PATTERN = r"[A-Za-z0-9_.:-]{1,128}"
SESSION_STATES = ("proposed", "planning", "working", "reviewing", "done", "archived")  # models.SessionState
LEVELS = ("low", "medium", "high")

ONTOLOGY = Param(
    "array",
    "references into a shared ontology, kept and shown as given",
    items=Param(
        "object",
        properties={
            "system": Param("string", required=True, min_length=1, max_length=100),
            "code": Param("string", required=True, min_length=1, max_length=200),
            "label": Param("string", max_length=500),
            "concept": Param("string", max_length=500),
        },
    ),
    max_items=100,
)


def _text(required: bool = False, max_length: int = 100_000, **kwargs: Any) -> Param:
    return Param("string", required=required, max_length=max_length, **kwargs)


def _texts(max_items: int = 200) -> Param:
    return Param("array", items=_text(max_length=10_000), max_items=max_items)


def _confidence(required: bool = False) -> Param:
    return Param("number", required=required, minimum=0, maximum=1)


SECTION = Param(
    "object",
    properties={
        "id": _text(True, 128, pattern=ID_PATTERN),
        "title": _text(max_length=500),
        "body": _text(True),
        "confidence": _confidence(),
    },
)
PLAN_STEP = Param(
    "object",
    properties={
        "step": Param("integer", required=True, minimum=1, maximum=10_000),
        "action": _text(True, 2_000),
        "output": _text(max_length=2_000),
        "requires_approval": Param("boolean", default=False),
        "required_capability": _text(max_length=200),
    },
)

CONSTRAINTS = Param(
    "object",
    properties={
        "format": _text(max_length=100),
        "length": _text(max_length=100),
        "deadline": Param("date"),
        "audience": _text(max_length=500),
        "budget": _text(max_length=200),
        "other": _texts(),
    },
)

PAYLOADS: dict[str, dict[str, Param]] = {
    "task_proposal": {
        "goal": _text(True, 10_000, min_length=3),
        "constraints": CONSTRAINTS,
        "background_context": _texts(),
        "expected_agent_roles": _texts(50),
        "success_criteria": _texts(100),
        "template": _text(max_length=100),
        "ontology": ONTOLOGY,
    },
    "agent_capability_declaration": {
        "can_do": Param(
            "array",
            required=True,
            items=Param(
                "object",
                properties={
                    "action": _text(True, 500),
                    "scope": _text(max_length=2_000),
                    "limitation": _text(max_length=2_000),
                },
            ),
            max_items=100,
        ),
        "cannot_do": _texts(100),
        "estimated_resources": Param(
            "object",
            properties={
                "time_to_first_draft": Param(
                    "string", pattern=r"P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?"
                ),
                "data_processing_volume": _text(max_length=200),
                "llm_tokens": Param("integer", minimum=0),
            },
        ),
        "proposed_plan": Param("array", items=PLAN_STEP, max_items=200),
        "template": _text(max_length=100),
        "template_similarity": _confidence(),
        # What the agent understood the humans to require, proposal and answers together.
        "constraints": CONSTRAINTS,
    },
    "collaborative_response": {
        "task_step_id": _text(max_length=128),
        "content": Param(
            "object",
            required=True,
            properties={
                "format": Param("string", enum=("markdown", "text", "json")),
                "body": _text(True, 1_000_000),
                "sections": Param("array", items=SECTION, max_items=500),
            },
        ),
        "supporting_materials": Param(
            "array",
            items=Param(
                "object",
                properties={
                    "type": _text(True, 50),
                    "citation": _text(True, 2_000),
                    "url": _text(max_length=2_000),
                    "relevance": _text(max_length=2_000),
                    "confidence_in_source": Param("string", enum=LEVELS),
                    "query": Param("object"),
                },
            ),
            max_items=500,
        ),
        "assumptions_made": _texts(),
        "confidence_score": _confidence(required=True),
        "uncertainties": Param(
            "array",
            items=Param(
                "object",
                properties={
                    "aspect": _text(True, 2_000),
                    "reason": _text(max_length=2_000),
                    "suggestion": _text(max_length=2_000),
                },
            ),
            max_items=200,
        ),
        "next_step_recommendations": Param(
            "array",
            items=Param(
                "object",
                properties={
                    "description": _text(True, 2_000),
                    "required_capability": _text(max_length=200),
                    "potential_agent": _text(max_length=200),
                },
            ),
            max_items=100,
        ),
        "open_questions_for_human": _texts(),
        "ontology": ONTOLOGY,
        "provenance": Param("object"),
    },
    "human_feedback": {
        "target_message_id": _text(True, 128, pattern=ID_PATTERN),
        "target_part": Param(
            "object",
            properties={
                "kind": Param("string", required=True, enum=("section", "assumption", "step", "question", "quote")),
                "id": _text(max_length=128),
                "index": Param("integer", minimum=0),
                "quote": _text(max_length=10_000),
                "start": Param("integer", minimum=0),
                "end": Param("integer", minimum=0),
            },
        ),
        "feedback_type": Param("string", required=True, enum=("refinement", "correction", "approval", "new_direction")),
        "specific_instructions": Param("object"),
        "provided_context": _text(max_length=100_000),
        "attachments": _texts(50),
        "priority": Param("string", default="medium", enum=LEVELS),
    },
    "clarification": {
        "question": _text(True, 5_000, min_length=1),
        "options": Param(
            "array",
            items=Param(
                "object",
                properties={"id": _text(True, 128, pattern=ID_PATTERN), "label": _text(True, 2_000)},
            ),
            max_items=20,
        ),
        "allow_free_answer": Param("boolean", default=True),
    },
    "clarification_answer": {
        # Answers a clarification message, or (with question_index) one of a response's open questions.
        "clarification_message_id": _text(True, 128, pattern=ID_PATTERN),
        "question_index": Param("integer", minimum=0),
        "option_id": _text(max_length=128),
        "free_answer": _text(max_length=10_000),
    },
    "agent_status": {
        "activity": _text(True, 2_000),
        "state": Param("string", enum=("idle", "working", "waiting_human", "offline", "failed")),
        "progress": Param(
            "object",
            properties={"done": Param("integer", required=True, minimum=0), "total": Param("integer", minimum=0)},
        ),
        "resources_used": Param("object"),
        "task_id": _text(max_length=128),
    },
    "checkpoint": {
        "label": _text(True, 500, min_length=1),
        "seq": Param("integer", minimum=0),
        "summary": Param("object"),
    },
    "summary": {
        "text": _text(True),
        "covers_until_seq": Param("integer", minimum=0),
    },
    "error": {
        "code": _text(True, 100),
        "message": _text(True, 5_000),
        "details": Param("object"),
        "regarding_message_id": _text(max_length=128),
    },
    "task_event": {
        # What happened to a scheduled task, and who did it: every act on a task is in the log.
        "task_id": Param("integer", required=True, minimum=1),
        "action": Param(
            "string",
            required=True,
            enum=(
                "created",
                "approved",
                "reassigned",
                "reprioritised",
                "paused",
                "resumed",
                "cancelled",
                "retried",
                "started",
                "finished",
                "failed",
                "forwarded",
            ),
        ),
        "state": Param(
            "string", enum=("queued", "running", "waiting_human", "waiting_approval", "done", "failed", "cancelled")
        ),
        "title": _text(max_length=2_000),
        "by": _text(max_length=160),
        "agent": _text(max_length=100),
        "required_role": _text(max_length=200),
        "priority": Param("integer"),
        "attempt": Param("integer", minimum=0),
        "plan_message_id": _text(max_length=128),
        "plan_step": Param("integer", minimum=1),
        "result_message_id": _text(max_length=128),
        "note": _text(max_length=5_000),
    },
    "session_event": {
        # A change to the session itself, and who made it: marking it done, sharing it with a team (a
        # group), adding a member, inviting an agent or pausing one here shows in its history.
        "action": Param(
            "string",
            required=True,
            enum=(
                "state_changed",
                "renamed",
                "shared",
                "unshared",
                "member_added",
                "agent_invited",
                "agent_paused",
                "agent_resumed",
            ),
        ),
        "group": _text(max_length=150),
        "role": Param("string", enum=("owner", "editor", "commenter", "viewer")),
        "username": _text(max_length=150),
        "agent": _text(max_length=100),
        "state": Param("string", enum=SESSION_STATES),
        "previous_state": Param("string", enum=SESSION_STATES),
        "title": _text(max_length=200),
        "previous_title": _text(max_length=200),
        "by": _text(max_length=160),
        "label": _text(max_length=500),
    },
    "operation_record": {
        "operation": _text(True, 200),
        "request_message_id": _text(max_length=128),
        "request": Param("object"),
        "outcome": Param("string", required=True, enum=("result", "error", "approval_requested")),
        "response": Param("object"),
        "duration_ms": Param("number", minimum=0),
    },
}
PAYLOAD_TYPES = tuple(PAYLOADS)
SENDER_TYPES = ("human", "agent", "system")
# Which kind of sender may post each payload type is one of its traits; message_post refuses the rest
# with SENDER_NOT_ALLOWED, and docs/chap.md lists the table.
SENDERS = {kind: TRAITS[kind].senders for kind in PAYLOAD_TYPES}


def payload_types_of(sender_type: str) -> tuple[str, ...]:
    """The payload types this kind of sender may post, in schema order."""
    return tuple(kind for kind in PAYLOAD_TYPES if sender_type in SENDERS[kind])


def check_sender_may_post(sender_type: str, payload_type: str) -> None:
    """ProtocolError(SENDER_NOT_ALLOWED) unless the table lets this kind of sender post this payload type."""
    allowed = SENDERS[payload_type]
    if sender_type in allowed:
        return
    raise ProtocolError(
        "SENDER_NOT_ALLOWED",
        f"{sender_type} senders may not post {payload_type} messages",
        details={
            "payload_type": payload_type,
            "sender_type": sender_type,
            "allowed_senders": sorted(allowed),
            "allowed_payload_types": list(payload_types_of(sender_type)),
        },
        suggestion=[
            f"{payload_type} is posted by: {', '.join(sorted(allowed))}",
            "see docs/chap.md, 'Who may post what'",
        ],
    )


ENVELOPE: dict[str, Param] = {
    "chap_version": Param("string", required=True, enum=(CHAP_VERSION,)),
    "session_id": _text(True, 64),
    "message_id": _text(True, 128, pattern=ID_PATTERN),
    "in_reply_to": Param("string", nullable=True, max_length=128, pattern=ID_PATTERN),
    "timestamp": Param("date", required=True),
    "sender": Param(
        "object",
        required=True,
        properties={
            "type": Param("string", required=True, enum=SENDER_TYPES),
            "id": _text(True, 150, min_length=1),
        },
    ),
    "context_checksum": Param("string", required=True, pattern=r"[0-9a-f]{16}"),
    "payload_type": Param("string", required=True, enum=PAYLOAD_TYPES),
    "payload": Param("object", required=True),
}


# A NUL character as json.dumps writes it: \u0000 after an even number of backslashes.
NUL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")


def validate_envelope(envelope: object) -> dict[str, Any]:
    """The envelope with defaults filled in (payload included), or ProtocolError(INVALID_MESSAGE)."""
    if not isinstance(envelope, dict):
        raise ProtocolError(
            "INVALID_MESSAGE", "a CHAP message is a JSON object", details={"invalid": {"": "expected object"}}
        )
    try:  # what a socket or REST parser refuses, refused on the one write path too (forms, runtimes, SAP)
        strict_json.check(envelope)
    except strict_json.JsonRefused as refused:
        raise ProtocolError(
            "INVALID_MESSAGE",
            f"a message must be strict JSON: {refused}",
            details={"invalid": {"": refused.reason}},
            suggestion=["send numbers as finite numbers, text as valid Unicode, and nest less deeply"],
        ) from None
    if NUL_ESCAPE.search(json.dumps(envelope)):
        # No store keeps NUL in text (PostgreSQL's jsonb refuses it), so no message may carry one.
        raise ProtocolError(
            "INVALID_MESSAGE",
            "a message may not contain NUL characters (\\u0000)",
            details={"invalid": {"": "contains \\u0000"}},
            suggestion=["remove the NUL characters, or send binary data base64-encoded"],
        )
    checked = _validated(ENVELOPE, envelope, prefix="")
    checked["payload"] = validate_payload(checked["payload_type"], checked["payload"])
    return checked


def validate_payload(payload_type: str, payload: object) -> dict[str, Any]:
    """One payload with its defaults filled in, or ProtocolError(INVALID_MESSAGE) naming fields as ``payload.…``."""
    if not isinstance(payload, dict):
        raise ProtocolError(
            "INVALID_MESSAGE", "payload must be a JSON object", details={"invalid": {"payload": "expected object"}}
        )
    return _validated(PAYLOADS[payload_type], payload, prefix="payload.")


def _validated(params: dict[str, Param], body: dict[str, Any], *, prefix: str) -> dict[str, Any]:
    try:
        return validate_params(params, body)
    except ProtocolError as error:
        details = {key: _prefixed(value, prefix) for key, value in error.details.items()}
        raise ProtocolError(
            "INVALID_MESSAGE",
            f"{prefix.rstrip('.') or 'envelope'}: {error.message}",
            details=details,
            suggestion=error.suggestion or ["see docs/chap.md for the message schemas"],
        ) from None


def _prefixed(value: object, prefix: str) -> object:
    if isinstance(value, list):
        return [f"{prefix}{item}" for item in value]
    if isinstance(value, dict):
        return {f"{prefix}{key}": item for key, item in value.items()}
    return value
