"""workflow.execute: a list of SAP requests run in order, each with the caller's own permissions."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from agents.sap.blocks import REQUEST_TYPES, Block, format_block
from agents.sap.dispatcher import Call
from agents.sap.placeholders import resolve
from agents.sap.registry import ErrorDoc, Example, Operation
from protocol.errors import ProtocolError
from protocol.params import Param

STEP = Param(
    "object",
    properties={
        "id": Param("string", required=True, pattern=r"[A-Za-z0-9_.:-]{1,128}"),
        "type": Param("string", default="query", enum=tuple(sorted(REQUEST_TYPES - {"describe"}))),
        "operation": Param("string", required=True, max_length=200),
        "body": Param("object"),
    },
)


def _execute(call: Call, params: dict[str, Any]) -> Generator[dict[str, Any], None, dict[str, Any]]:
    """Steps run through the same dispatcher, so each is validated, authorised and recorded."""
    results: dict[str, dict[str, Any]] = {}
    for number, step in enumerate(params["steps"], start=1):
        if step["id"] in results:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"step id {step['id']!r} is used twice",
                details={"invalid": {f"steps[{number - 1}].id": "duplicate"}},
            )
        yield {"progress": {"done": number - 1, "total": len(params["steps"])}, "step": step["id"]}
        block = Block(
            step.get("type", "query"), step["operation"], step["id"], resolve(step.get("body") or {}, results)
        )
        responses = list(call.dispatcher.execute(block, call.context))
        final = responses[-1]
        if final.type != "result":
            waiting = final.type == "event"
            raise ProtocolError(
                "APPROVAL_DENIED" if waiting else final.body.get("code", "INTERNAL_ERROR"),
                f"step {step['id']!r} ({step['operation']}) "
                + (
                    "waits for a human's approval; the workflow stopped"
                    if waiting
                    else f"failed: {final.body.get('message')}"
                ),
                details={"failed_step": step["id"], "completed": list(results), "response": final.body},
                suggestion=["fix the failing step and run the remaining steps again"],
            )
        results[step["id"]] = final.body
    return {"status": "success", "completed": list(results), "steps": results}


WORKFLOW = Operation(
    name="workflow.execute",
    kind="action",
    description="Run SAP requests in order; {{steps.<id>.result.<field>}} passes results on. The first error stops it.",
    handler=_execute,
    parameters={
        "steps": Param("array", "the requests, in order", required=True, items=STEP, min_items=1, max_items=50)
    },
    examples=(
        Example(
            format_block(
                "action",
                "workflow.execute",
                {
                    "steps": [
                        {"id": "list", "type": "query", "operation": "file.list", "body": {"pattern": "*.docx"}},
                        {
                            "id": "save",
                            "type": "action",
                            "operation": "file.write",
                            "body": {"path": "filelist.txt", "content": "Word files: {{steps.list.result.files}}"},
                        },
                    ]
                },
                "wf1",
            ),
            format_block(
                "result",
                "workflow.execute",
                {"status": "success", "completed": ["list", "save"], "steps": {"list": {"files": ["brief.docx"]}}},
                "wf1",
            ),
        ),
    ),
    errors=(ErrorDoc("VALIDATION_FAILED", "A step or placeholder is wrong.", "details.failed_step names it."),),
    resolves_own_placeholders=True,
)
