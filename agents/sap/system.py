"""Operations that belong to the protocol itself and need nothing but the registry."""

from __future__ import annotations

from typing import Any

from agents.sap.blocks import format_block
from agents.sap.dispatcher import Call
from agents.sap.registry import ErrorDoc, Example, Operation
from protocol.errors import ProtocolError
from protocol.params import Param


def _capabilities(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    scope = params["scope"]
    if scope != "all" and scope not in call.registry.domains():
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no operations in domain {scope!r}",
            details={"scope": scope, "domains": call.registry.domains()},
            suggestion=['use "all"', *(f"use {d!r}" for d in call.registry.domains())],
        )
    detailed = params["format"] == "detailed"
    return {
        "scope": scope,
        "format": params["format"],
        "operations": call.registry.capabilities(scope=scope, detailed=detailed),
    }


def _ping(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    return {"status": "ok", "echo": params.get("echo")}


CAPABILITIES = Operation(
    name="system.capabilities",
    kind="query",
    description="List the operations this server offers. Brief gives one line each; detailed gives every manual.",
    handler=_capabilities,
    parameters={
        "scope": Param("string", "'all' or one domain, such as 'file' or 'dataset'", default="all"),
        "format": Param("string", "brief or detailed", default="brief", enum=("brief", "detailed")),
    },
    examples=(
        Example(
            format_block("query", "system.capabilities", {"scope": "system", "format": "brief"}, "discover_1"),
            format_block(
                "result",
                "system.capabilities",
                {
                    "scope": "system",
                    "format": "brief",
                    "operations": [
                        {
                            "name": "system.capabilities",
                            "kind": "query",
                            "summary": "List the operations this server offers",
                        },
                        {"name": "system.ping", "kind": "query", "summary": "Check that the server answers"},
                    ],
                },
                "discover_1",
            ),
        ),
    ),
    errors=(ErrorDoc("RESOURCE_NOT_FOUND", "The scope names no domain.", "Use 'all' or a domain from the error."),),
)

PING = Operation(
    name="system.ping",
    kind="query",
    description="Check that the server answers. Echoes the optional text back.",
    handler=_ping,
    parameters={"echo": Param("string", "any text to send back", max_length=1000)},
    examples=(
        Example(
            format_block("query", "system.ping", {"echo": "hi"}, "p1"),
            format_block("result", "system.ping", {"status": "ok", "echo": "hi"}, "p1"),
        ),
    ),
)

CORE_OPERATIONS = (CAPABILITIES, PING)
