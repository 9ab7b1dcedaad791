"""The README's independent MCP client runs as written, against a real server: a script with nothing
of the project in it does a small analysis in a session, and its report lands in the session's log."""

import ast
import re
import subprocess
import sys

import pytest

from agents.tokens import token_issue
from sessions.membership import agent_join
from sessions.models import Message
from tests.agents.mcp.over_http import endpoint
from tests.factories import make_agent, make_session
from tests.live import ROOT, DaphneServer, child_env

EXAMPLE = re.compile(r"<!-- mcp-client-example -->\n```python\n(.*?)```", re.S)


def readme_client() -> str:
    found = EXAMPLE.search((ROOT / "README.md").read_text())
    assert found, "README.md has no MCP client example"
    return found[1]


def test_the_readme_client_imports_only_the_sdk_and_the_standard_library():
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(ast.parse(readme_client()))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported <= {"asyncio", "base64", "os", "mcp", "httpx2"} | set(sys.stdlib_module_names)


@pytest.mark.processes
def test_the_readme_client_does_a_small_analysis(transactional_db, tmp_path):
    session = make_session(title="Sales by region")
    agent = make_agent("desk", kind="external", allowed_operations=["file.write", "dataset.*", "stats.*"])
    agent_join(session=session, agent=agent)
    script = tmp_path / "client.py"
    script.write_text(readme_client())
    server = DaphneServer().start()
    try:
        env = child_env(CHAP_MCP_URL=endpoint(server, session), CHAP_TOKEN=token_issue(agent=agent))
        ran = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
    finally:
        server.stop()
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "top region: north" in ran.stdout
    report = Message.objects.get(session=session, payload_type="collaborative_response")
    assert report.sender_id == "desk" and "north: 220" in report.envelope["payload"]["content"]["body"]
