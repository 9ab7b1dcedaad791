"""The session as MCP resources: its current answer, its reports, its files and datasets catalogue and
the context graph's summary, with templates for one report, file or table. What the agent may not
read is not listed, and reading it is refused: files and tables are read through SAP as the agent."""

from __future__ import annotations

from typing import Any

import mcp_types as types

from agents.mcp.calls import sap_call
from agents.mcp.identity import McpAgent
from agents.operations.registry import workbench_registry
from agents.sap import Block
from agents.sap.values import json_text
from agents.sap_service import may_run
from protocol.errors import ProtocolError, not_found
from sessions import selectors
from sessions.chap.deliverable import deliverable_markdown
from sessions.chap.summary import layered_summary
from sessions.graphs import graph_cache

JSON = "application/json"
# Each listed resource: what it is, what the agent must be allowed to run to read it, its type.
LISTED = {
    "answer": ("The session's current answer: its deliverable as it stands, with its review", None, "text/markdown"),
    "reports": ("Every collaborative_response in the session: id, sender, sequence", None, JSON),
    "graph-summary": ("The context graph's summary: goal, decisions, facts, assumptions, questions", None, JSON),
    "files": ("The session's workspace files", "file.list", JSON),
    "datasets": ("The session's dataset tables", "dataset.list-tables", JSON),
}
TEMPLATES = {
    "reports/{message_id}": ("One report's whole message", None, JSON),
    "files/{path}": ("One workspace file's content", "file.read", JSON),
    "datasets/{table}": ("One table's columns and row count", "dataset.describe-table", JSON),
}


def base_uri(who: McpAgent) -> str:
    return f"chap://sessions/{who.session_id}/"


def _readable(who: McpAgent, operation: str | None) -> bool:
    found = workbench_registry().get(operation) if operation else None
    return operation is None or (found is not None and may_run(who.agent, found))


def resource_list(who: McpAgent) -> list[types.Resource]:
    return [
        types.Resource(name=name, uri=base_uri(who) + name, description=about, mime_type=mime)
        for name, (about, needs, mime) in LISTED.items()
        if _readable(who, needs)
    ]


def template_list(who: McpAgent) -> list[types.ResourceTemplate]:
    return [
        types.ResourceTemplate(name=name, uri_template=base_uri(who) + name, description=about, mime_type=mime)
        for name, (about, needs, mime) in TEMPLATES.items()
        if _readable(who, needs)
    ]


def resource_read(who: McpAgent, uri: str) -> types.ReadResourceResult:
    """Raises ProtocolError: RESOURCE_NOT_FOUND for what is not there (or not this session's),
    PERMISSION_DENIED for what the agent may not read."""
    if not uri.startswith(base_uri(who)):
        raise not_found("RESOURCE", uri, "not a resource of this session", suggestion=["list resources/list"])
    name, _, rest = uri.removeprefix(base_uri(who)).partition("/")
    text, mime = _content(who, name, rest, uri)
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])


def _content(who: McpAgent, name: str, rest: str, uri: str) -> tuple[str, str]:
    session = who.access.session
    if (name, rest) == ("answer", ""):
        found = selectors.final_report(session=session)
        if found is None:
            raise not_found("DELIVERABLE", None, "no report has been delivered in this session yet")
        return deliverable_markdown(found, title=session.title), "text/markdown"
    if name == "reports":
        rows = session.messages.filter(payload_type="collaborative_response")
        if rest:
            envelope = rows.filter(message_id=rest).values_list("envelope", flat=True).first()
            if envelope is None:
                raise not_found("MESSAGE", rest, "no report with this id in the session")
            return _json(envelope)
        listed = rows.order_by("seq").values_list("seq", "message_id", "sender_id")
        return _json([{"seq": seq, "message_id": mid, "sender": sender} for seq, mid, sender in listed])
    if (name, rest) == ("graph-summary", ""):
        entry = graph_cache.entry(session)
        with entry.lock:
            return _json(layered_summary(entry.graph))
    through_sap: dict[tuple[str, bool], tuple[str, dict[str, Any]]] = {
        ("files", False): ("file.list", {"recursive": True}),
        ("files", True): ("file.read", {"path": rest}),
        ("datasets", False): ("dataset.list-tables", {}),
        ("datasets", True): ("dataset.describe-table", {"table": rest}),
    }
    if (name, bool(rest)) not in through_sap:
        raise not_found("RESOURCE", uri, "no such resource", suggestion=["list resources/list and templates"])
    operation, body = through_sap[(name, bool(rest))]
    response = sap_call(who, Block("query", operation, "mcp", body))
    if response.type == "event":  # this agent's reads of it wait for a person: the tool says how
        raise ProtocolError("PERMISSION_DENIED", f"{operation} waits for approval", suggestion=[f"call {operation}"])
    if response.type != "result":
        raise ProtocolError(**{key: response.body[key] for key in ("code", "message", "details", "suggestion")})
    return _json(response.body)


def _json(value: Any) -> tuple[str, str]:
    return json_text(value), JSON
