"""What an MCP client does in a session, for the in-memory and the end-to-end tests alike: the SDK's own
``Client``, against whatever server it was given."""

import base64

from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.agents.mcp.world import SALES


def text_of(result) -> str:
    return "".join(part.text for part in result.content)


async def small_analysis(client: Client) -> dict:
    """List the tools, read a manual, import a CSV, describe it, and post the finding."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    manual = await client.call_tool("describe", {"operation": "dataset.import-csv"})
    content = base64.b64encode(SALES.encode()).decode()
    written = await client.call_tool("file.write", {"path": "sales.csv", "content": content, "encoding": "base64"})
    imported = await client.call_tool("dataset.import-csv", {"path": "sales.csv", "table": "sales"})
    stats = await client.call_tool("stats.describe", {"table": "sales", "columns": ["amount"]})
    context = await client.call_tool("chap.context", {"budget": 2000})
    assert not stats.is_error, text_of(stats)
    mean = stats.structured_content["columns"][0]["mean"]
    posted = await client.call_tool(
        "chap.respond",
        {
            "context_checksum": context.structured_content["context_checksum"],
            "payload": {
                "content": {"format": "markdown", "body": f"Over 30 sales the mean amount is {mean}."},
                "confidence_score": 0.9,
            },
        },
    )
    return {
        "tools": tools,
        "manual": manual,
        "written": written,
        "imported": imported,
        "stats": stats,
        "posted": posted,
    }


async def refused_and_gated(client: Client) -> dict:
    """A call the agent may not make, one that waits for a person, and a workflow's progress."""
    refused = await client.call_tool("file.delete", {"path": "sales.csv", "confirm": True})
    gated = await client.call_tool("dataset.drop-table", {"table": "sales"})
    progress = []

    async def report(done, total, message):
        progress.append((done, total, message))

    steps = [
        {"id": "ping", "operation": "system.ping", "body": {}},
        {"id": "tables", "operation": "dataset.list-tables", "body": {}},
    ]
    workflow = await client.call_tool("workflow.execute", {"steps": steps}, progress_callback=report)
    assert not workflow.is_error, text_of(workflow)
    return {"refused": refused, "gated": gated, "progress": progress}


async def refused_on_next_call(client: Client) -> MCPError | Exception | None:
    try:
        await client.call_tool("system.ping", {})
    except Exception as error:  # which one depends on the transport: the tests say
        return error
    return None
