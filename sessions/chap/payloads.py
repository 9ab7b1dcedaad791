"""The CHAP message schemas: every payload type's fields, written in the kernel's typed parameters
(``protocol.params``). ``schemas`` validates messages against them."""

from __future__ import annotations

from typing import Any

from protocol.params import Param

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


def _records(max_items: int, *, required: bool = False, **properties: Param) -> Param:
    """A list of at most ``max_items`` objects with these fields."""
    return Param("array", required=required, items=Param("object", properties=properties), max_items=max_items)


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
        "can_do": _records(
            100,
            required=True,
            action=_text(True, 500),
            scope=_text(max_length=2_000),
            limitation=_text(max_length=2_000),
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
        "supporting_materials": _records(
            500,
            type=_text(True, 50),
            citation=_text(True, 2_000),
            url=_text(max_length=2_000),
            relevance=_text(max_length=2_000),
            confidence_in_source=Param("string", enum=LEVELS),
            query=Param("object"),
        ),
        "assumptions_made": _texts(),
        "confidence_score": _confidence(required=True),
        "uncertainties": _records(
            200,
            aspect=_text(True, 2_000),
            reason=_text(max_length=2_000),
            suggestion=_text(max_length=2_000),
        ),
        "next_step_recommendations": _records(
            100,
            description=_text(True, 2_000),
            required_capability=_text(max_length=200),
            potential_agent=_text(max_length=200),
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
        "options": _records(20, id=_text(True, 128, pattern=ID_PATTERN), label=_text(True, 2_000)),
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
