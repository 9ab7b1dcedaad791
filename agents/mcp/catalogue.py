"""SAP operations as MCP tools: each operation the agent may ask for becomes a tool named after it,
described by its manual, its input schema generated from its parameters (``protocol.json_schema``, as
the REST schema is), and hinted read-only or destructive from what it is; each SAP response becomes a
tool result."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import mcp_types as types

from agents.models import Agent
from agents.operations.registry import workbench_registry
from agents.sap import Block, Operation
from agents.sap.values import json_plain
from agents.sap_service import always_waits, may_run
from protocol.json_schema import parameters_schema
from protocol.params import Param

DESCRIBE = "describe"
DESCRIBE_PARAMETERS = {
    "operation": Param("string", "an operation's name, as tools/list gives it", required=True, max_length=200)
}


@cache
def input_schema(name: str) -> dict[str, Any] | None:
    """The input schema of ``describe`` or an operation's tool, built once: the same for every caller."""
    if name == DESCRIBE:
        return parameters_schema(DESCRIBE_PARAMETERS)
    operation = workbench_registry().get(name)
    return parameters_schema(operation.parameters) if operation is not None else None


def operation_tools(agent: Agent) -> list[types.Tool]:
    """The tools for what ``agent`` may ask for; the rest are not listed (and refused if called)."""
    tools = [_tool(operation, agent) for operation in workbench_registry() if may_run(agent, operation)]
    describe = types.Tool(
        name=DESCRIBE,
        title="An operation's full manual",
        description="The SAP manual of an operation: parameters with constraints, examples, errors and recovery.",
        input_schema=input_schema(DESCRIBE) or {},
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    return [describe, *tools]


def _tool(operation: Operation, agent: Agent) -> types.Tool:
    gated = always_waits(agent, operation)
    notes = [operation.description]
    if gated:
        notes.append("A person must approve each call: it returns a pending approval (see chap.approval).")
    elif operation.risk is not None:
        notes.append("A call that would overwrite or destroy something waits for a person's approval.")
    notes += [f"{error.code}: {error.description} {error.recovery}" for error in operation.errors]
    return types.Tool(
        name=operation.name,
        title=operation.summary,
        description="\n".join(notes),
        input_schema=input_schema(operation.name) or {},
        annotations=types.ToolAnnotations(
            read_only_hint=operation.kind == "query",
            destructive_hint=operation.kind != "query" and (gated or operation.risk is not None),
            idempotent_hint=operation.kind == "query",
            open_world_hint=False,
        ),
    )


def tool_result(body: dict[str, Any], *, text: str | None = None, error: bool = False) -> types.CallToolResult:
    """Structured content, and the same as text for clients that read only text."""
    serialised, structured = json_plain(body)  # JSON's own types throughout: dates, decimals and the rest made plain
    shown = text if text is not None else serialised
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=shown)], structured_content=structured, is_error=error
    )


def error_result(error: dict[str, Any]) -> types.CallToolResult:
    """SAP's structured error, its suggestions spelt out for a model that reads the text."""
    advice = "".join(f"\n- {step}" for step in error.get("suggestion") or [])
    text = f"{error['code']}: {error['message']}" + (f"\nWhat to do:{advice}" if advice else "")
    return tool_result(error, text=text, error=True)


def pending_result(event: dict[str, Any], gate_link: str) -> types.CallToolResult:
    """An operation that waits for a person: which approval, where it is decided, how to follow it."""
    body = {
        "status": "pending",
        "approval_id": event["approval_id"],
        "operation": event["operation"],
        "reason": event["reason"],
        "gate": gate_link,
        "next": f'call chap.approval with {{"approval_id": {event["approval_id"]}}} to read its state',
    }
    text = (
        f"{event['operation']} waits for a person's approval ({event['reason']}): approval {event['approval_id']}, "
        f"decided at {gate_link}. Call chap.approval to read its state and, once approved, its result."
    )
    return tool_result(body, text=text)


def sap_result(response: Block, gate_link: Callable[[], str]) -> types.CallToolResult:
    """``gate_link`` is asked for only when the call waits for a person (a URL reversed per call costs
    a tenth of a fast query's time)."""
    if response.type == "error":
        return error_result(response.body)
    if response.type == "event" and response.body.get("event") == "approval.requested":
        return pending_result(response.body, gate_link())
    return tool_result(response.body)
