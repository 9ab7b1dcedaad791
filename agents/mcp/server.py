"""The MCP server: the SDK's low-level ``Server`` whose handlers find who calls (``identify``), then
hand the request to ``calls``, ``chap_tools`` and ``resources`` off the event loop. One server object
serves every session: the session and the agent come with each request."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import mcp_types as types
from asgiref.sync import async_to_sync
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from agents.mcp.calls import BLOCK_ID, operation_block, sap_call
from agents.mcp.catalogue import (
    DESCRIBE,
    DESCRIBE_PARAMETERS,
    error_result,
    input_schema,
    operation_tools,
    sap_result,
    tool_result,
)
from agents.mcp.chap_tools import CHAP_TOOLS
from agents.mcp.identity import McpAgent
from agents.mcp.resources import resource_list, resource_read, template_list
from agents.operations.registry import workbench_registry
from agents.sap import Block
from protocol.errors import ProtocolError, internal_error
from protocol.validation import validate_params
from sessions.delivery import db

logger = logging.getLogger(__name__)
Context = ServerRequestContext[Any, Any]
# Who calls, read from the request (and checked again) before anything else runs.
Identify = Callable[[Context], Awaitable[McpAgent]]
# Where a person decides what waits in a session: the workspace's approvals panel.
GateLink = Callable[[Context, McpAgent], str]
INVALID_PARAMS = -32602
INSTRUCTIONS = (
    "You take part in one CHAP Workbench session as its agent. Tools are the SAP operations you may run "
    "(call describe for a manual) and chap.* tools to read the session and post to it; resources hold its "
    "answer, reports, files, datasets and context summary. A call that needs a person's approval returns "
    "a pending result: follow it with chap.approval."
)


def refused(error: ProtocolError) -> MCPError:
    """A request the workbench refused outside a tool (a resource, a listing), as a JSON-RPC error."""
    return MCPError(INVALID_PARAMS, f"{error.code}: {error.message}", data=error.as_dict())


def mcp_server(identify: Identify, gate_link: GateLink) -> Server[Any]:
    async def who(ctx: Context) -> McpAgent:
        try:
            return await identify(ctx)
        except ProtocolError as error:
            raise refused(error) from error

    async def list_tools(ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        caller = await who(ctx)
        tools = await db(operation_tools)(caller.agent)
        return types.ListToolsResult(tools=[*tools, *(tool.tool() for tool in CHAP_TOOLS.values())])

    async def call_tool(ctx: Context, params: types.CallToolRequestParams) -> types.CallToolResult:
        caller = await who(ctx)
        arguments = params.arguments or {}
        chap_tool = CHAP_TOOLS.get(params.name)
        try:
            if chap_tool is not None:
                return tool_result(await db(chap_tool.call)(caller, arguments))
            block = _block(params.name, arguments)
        except ProtocolError as error:
            return error_result(error.as_dict())
        except Exception:
            return error_result(internal_error(logger, f"MCP tool {params.name}").as_dict())
        response = await db(sap_call)(caller, block, _progress_sender(ctx))
        return sap_result(response, partial(gate_link, ctx, caller))

    async def list_resources(ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=await db(resource_list)(await who(ctx)))

    async def list_templates(
        ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=await db(template_list)(await who(ctx)))

    async def read_resource(ctx: Context, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        caller = await who(ctx)
        try:
            return await db(resource_read)(caller, str(params.uri))
        except ProtocolError as error:
            raise refused(error) from error

    def tool_input_schema(name: str) -> dict[str, Any] | None:
        """For the SDK's check of Mcp-Param headers, which would otherwise list every tool on every call."""
        return CHAP_TOOLS[name].input_schema if name in CHAP_TOOLS else input_schema(name)

    return Server(
        "chap-workbench",
        version="1",
        title="CHAP Workbench session",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=tool_input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def _block(name: str, arguments: dict[str, Any]) -> Block:
    if name == DESCRIBE:
        checked = validate_params(DESCRIBE_PARAMETERS, arguments, manual_hint="see describe's schema")
        return Block("describe", checked["operation"], BLOCK_ID, {})
    operation = workbench_registry().get(name)
    return operation_block(operation.kind if operation else None, name, arguments)


def _progress_sender(ctx: Context) -> Callable[[dict[str, Any]], None]:
    """Progress events as MCP progress notifications (the SDK sends them when the client asked for them
    with a progress token, and drops them otherwise)."""

    def send(event: dict[str, Any]) -> None:
        done = event["progress"]
        message = event.get("message") or (f"step {event['step']}" if "step" in event else None)
        async_to_sync(ctx.session.report_progress)(done["done"], done.get("total"), message)

    return send
