"""What an MCP request runs, as plain synchronous calls into the workbench's services (the server
runs them off the event loop): one SAP request per tool call, through ``InProcessSap`` (the same
dispatcher, permission check, approvals, budget and ``operation_record`` audit as every SAP request)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.mcp.identity import McpAgent
from agents.sap import Block
from agents.sap_service import InProcessSap

BLOCK_ID = "mcp"
Progress = Callable[[dict[str, Any]], None]


def sap_call(who: McpAgent, block: Block, on_progress: Progress | None = None) -> Block:
    """The response to one request block; its progress events go to ``on_progress`` as they come."""
    response = None
    for response in InProcessSap(session_id=who.session_id, caller=who.caller, access=who.access, outside=True).stream(
        [block]
    ):
        if response.type == "event" and "progress" in response.body and on_progress is not None:
            on_progress(response.body)
    assert response is not None  # every request gets a result, an error or an approval request
    return response


def operation_block(registry_kind: str | None, name: str, arguments: dict[str, Any]) -> Block:
    """A tool call as a request block: a query or an action as the operation is (an unknown name is
    sent as a query, and the dispatcher answers OPERATION_NOT_FOUND with the nearest names)."""
    return Block(registry_kind or "query", name, BLOCK_ID, arguments)
