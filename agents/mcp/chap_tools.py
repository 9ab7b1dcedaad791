"""The CHAP tools beside the SAP operations: read the session's state and thread (budgeted as the
agents' own context is), post a collaborative_response or a clarification (the envelope built here,
the post through ``sessions.log.message_post`` like every agent post), read a message's feedback, and
follow an approval. Each is parameters (``protocol.params``, so its schema comes from the one
generator) and a function of the calling agent and the validated arguments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import mcp_types as types

from agents.mcp.identity import McpAgent
from agents.sap_service import approvals_of
from protocol.errors import not_found
from protocol.json_schema import parameters_schema
from protocol.params import Param
from protocol.validation import validate_params
from sessions import selectors
from sessions.chap.payloads import ID_PATTERN, PAYLOADS
from sessions.log import envelope_for, message_post

CHECKSUM = Param(
    "string",
    "the version you read (chap.context's context_checksum): refused when messages you have not read "
    "correct or redirect what you build on",
    required=True,
    pattern=r"[0-9a-f]{16}",
)


@dataclass(frozen=True)
class ChapTool:
    name: str
    title: str
    description: str
    parameters: dict[str, Param]
    run: Callable[[McpAgent, dict[str, Any]], dict[str, Any]]
    read_only: bool = True

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        return parameters_schema(self.parameters)

    def tool(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=self.input_schema,
            annotations=types.ToolAnnotations(
                read_only_hint=self.read_only,
                destructive_hint=False,
                idempotent_hint=self.read_only,
                open_world_hint=False,
            ),
        )

    def call(self, who: McpAgent, arguments: dict[str, Any]) -> dict[str, Any]:
        """Raises ProtocolError (VALIDATION_FAILED first, then whatever the service refuses)."""
        return self.run(who, validate_params(self.parameters, arguments, manual_hint=f"see {self.name}'s schema"))


def _context(who: McpAgent, arguments: dict[str, Any]) -> dict[str, Any]:
    session = who.access.session
    read = selectors.agent_context(
        session=session, task_message_id=arguments.get("task_message_id"), budget=arguments["budget"]
    )
    return {
        "session": {"id": str(session.pk), "title": session.title, "state": session.state},
        "head_seq": session.head_seq,
        "context_checksum": session.head_checksum,
        "context": read,
    }


def _poster(payload_type: str) -> Callable[[McpAgent, dict[str, Any]], dict[str, Any]]:
    def post(who: McpAgent, arguments: dict[str, Any]) -> dict[str, Any]:
        envelope = envelope_for(
            session_id=who.session_id,
            caller=who.caller,
            payload_type=payload_type,
            payload=arguments["payload"],
            context_checksum=arguments["context_checksum"],
            in_reply_to=arguments.get("in_reply_to"),
        )
        ack = message_post(session_id=who.session_id, caller=who.caller, envelope=envelope, access=who.access)
        return {"message_id": ack.message_id, "seq": ack.seq, "context_checksum": ack.head}

    return post


def _feedback(who: McpAgent, arguments: dict[str, Any]) -> dict[str, Any]:
    given = selectors.feedback_on(session_id=who.session_id, message_id=arguments["message_id"])
    return {"message_id": arguments["message_id"], "feedback": given}


def _approval(who: McpAgent, arguments: dict[str, Any]) -> dict[str, Any]:
    approval = approvals_of(session_id=who.session_id, caller=who.caller).filter(pk=arguments["approval_id"]).first()
    if approval is None:
        raise not_found("APPROVAL", str(arguments["approval_id"]), "no such approval in this session")
    response = approval.response or {}
    return {
        "approval_id": approval.pk,
        "operation": approval.operation,
        "status": approval.status,
        "reason": approval.reason,
        "decided_by": approval.decided_by.get_username() if approval.decided_by else None,
        "decision_reason": approval.decision_reason,
        "outcome": response.get("type"),
        "response": response.get("body"),
    }


def _post_parameters(payload_type: str) -> dict[str, Param]:
    return {
        "context_checksum": CHECKSUM,
        "in_reply_to": Param("string", "the message this answers", pattern=ID_PATTERN),
        "payload": Param("object", f"the {payload_type} payload", required=True, properties=PAYLOADS[payload_type]),
    }


MESSAGE_ID = Param("string", "a message's id", required=True, pattern=ID_PATTERN)
CHAP_TOOLS = {
    tool.name: tool
    for tool in (
        ChapTool(
            "chap.context",
            "The session's state and thread",
            "The session's state, its version (context_checksum, which posts must name) and the thread as "
            "agents read it: the goal, decisions and the messages that matter most, within a token budget.",
            {
                "budget": Param("integer", "tokens, about", default=4000, minimum=200, maximum=100_000),
                "task_message_id": Param("string", "the message your work serves: read first", pattern=ID_PATTERN),
            },
            _context,
        ),
        ChapTool(
            "chap.respond",
            "Post a collaborative_response",
            "Post your findings as a collaborative_response. The server builds the envelope; it is checked, "
            "filtered and versioned as every agent's post is.",
            _post_parameters("collaborative_response"),
            _poster("collaborative_response"),
            read_only=False,
        ),
        ChapTool(
            "chap.clarify",
            "Ask the people a question",
            "Post a clarification: questions for the people in the session.",
            _post_parameters("clarification"),
            _poster("clarification"),
            read_only=False,
        ),
        ChapTool(
            "chap.feedback",
            "A message's feedback",
            "The feedback given on a message (approvals, corrections, refinements), oldest first.",
            {"message_id": MESSAGE_ID},
            _feedback,
        ),
        ChapTool(
            "chap.approval",
            "An approval's state",
            "Whether a call that waited for a person was approved or rejected, and its result once it ran.",
            {"approval_id": Param("integer", "from the pending result", required=True, minimum=1)},
            _approval,
        ),
    )
}
