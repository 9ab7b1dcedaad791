"""An example external agent: it takes the tasks assigned to it and answers each with an inventory of
the session's workspace and tables, saved as a file and posted as a collaborative_response.

    python -m agents.examples.clerk --server ws://127.0.0.1:8000 --token chap_… [--once]

It runs anywhere that reaches the workbench; all it needs is agents/client.py, the SAP parser in
agents/sap (plain Python) and ``websockets``.
Give its agent file.list, file.write and dataset.list-tables (manage.py agent_token clerk --allow …).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from typing import Any

from agents.client import AgentClient, ChapError, Frame
from agents.sap import Block, format_block, parse


def results(text: str) -> dict[str | None, dict[str, Any]]:
    """The result and error bodies of a SAP response stream, by block id, with ``ok`` set."""
    return {b.id: {"ok": b.type == "result", **b.body} for b in parse(text) if isinstance(b, Block)}


def inventory(task: Frame, files: dict[str, Any], tables: dict[str, Any]) -> str:
    lines = [f"# Inventory for task {task['id']}: {task['title']}", "", "## Files"]
    if files.get("ok"):
        lines += [f"- {f['path']} ({f.get('size', '?')} bytes)" for f in files.get("files", [])] or ["- none"]
    else:
        lines.append(f"- could not list: {files.get('message')}")
    lines += ["", "## Tables"]
    if tables.get("ok"):
        lines += [f"- {t['table']} ({t['rows']} rows)" for t in tables.get("tables", [])] or ["- none"]
    else:
        lines.append(f"- could not list: {tables.get('message')}")
    return "\n".join(lines) + "\n"


async def handle(agent: AgentClient, task: Frame, attempt: int) -> str:
    session_id = task["session_id"]
    listing = await agent.sap(
        session_id,
        format_block("query", "file.list", {"recursive": True, "format": "detailed"}, "files")
        + format_block("query", "dataset.list-tables", {}, "tables"),
    )
    found = results(listing)
    report = inventory(task, found.get("files", {}), found.get("tables", {}))
    path = f"inventory/task-{task['id']}.md"
    saved = results(
        await agent.sap(
            session_id,
            format_block("action", "file.write", {"path": path, "content": report, "overwrite": False}, "save"),
        )
    )
    heads = await agent.heads()
    message_id = f"clerk-task{task['id']}-result"  # one per task: a retry after a crash is recognised
    envelope = {
        "chap_version": "1.0",
        "session_id": session_id,
        "message_id": message_id,
        "in_reply_to": task["plan_message_id"] or None,
        "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "sender": {"type": "agent", "id": agent.hello["agent"]},
        "context_checksum": heads[session_id]["context_checksum"],
        "payload_type": "collaborative_response",
        "payload": {
            "task_step_id": f"task-{task['id']}",
            "content": {"format": "markdown", "body": report},
            "supporting_materials": [{"type": "workspace_file", "citation": path}]
            if saved.get("save", {}).get("ok")
            else [],
            "assumptions_made": ["the inventory is what the workspace held when the task ran"],
            "confidence_score": 0.95 if all(f.get("ok") for f in found.values()) else 0.5,
            "uncertainties": [
                {
                    "aspect": f"the {name} listing",
                    "reason": body.get("message", ""),
                    "suggestion": "grant the permission",
                }
                for name, body in found.items()
                if not body.get("ok")
            ],
            "provenance": {"agent": agent.hello["agent"], "example": "agents.examples.clerk", "attempt": attempt},
        },
    }
    try:
        await agent.post(envelope)
    except ChapError as error:
        if error.error.get("code") != "DUPLICATE_MESSAGE_ID":
            raise
    return message_id


async def serve(servers: list[str], token: str, *, once: bool, wait_s: float) -> int:
    async with AgentClient(servers, token=token) as agent:
        print(f"connected as {agent.hello['agent']} to {len(agent.hello['sessions'])} session(s)", file=sys.stderr)
        handled = 0
        while True:
            task, attempt = await agent.take()
            if task is None or attempt is None:
                if once and handled:
                    return 0
                try:
                    await agent.next_message(timeout=wait_s)  # a message or an offer: look again
                except TimeoutError:
                    if once:
                        print("no task came", file=sys.stderr)
                        return 1
                continue
            try:
                result = await handle(agent, task, attempt)
            except (ChapError, KeyError, ValueError) as error:
                await agent.fail(task["id"], attempt, error=str(error))
                continue
            await agent.finish(task["id"], attempt, result_message_id=result)
            handled += 1
            print(f"task {task['id']} done: {result}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", action="append", required=True, help="ws://host:port (repeat for several)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--once", action="store_true", help="handle the ready tasks, then exit")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for a task to arrive")
    args = parser.parse_args()
    return asyncio.run(serve(args.server, args.token, once=args.once, wait_s=args.wait))


if __name__ == "__main__":
    sys.exit(main())
