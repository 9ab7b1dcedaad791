"""The MCP server object with the SDK's own client, in memory: tools are what the agent may run, calls
go through SAP (audited, gated, refused as SAP refuses them) and CHAP's one write path."""

import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from agents.mcp.catalogue import operation_tools
from agents.mcp.chap_tools import CHAP_TOOLS
from agents.mcp.identity import mcp_agent
from agents.mcp.server import mcp_server
from agents.models import Approval
from agents.operations.registry import workbench_registry
from agents.sap import StreamParser
from agents.sap_service import approval_decide
from agents.tokens import agent_set_enabled, live_token, token_issue, token_revoke
from protocol.json_schema import parameters_schema
from sessions.access import caller_for_user, require_access
from sessions.delivery import db
from sessions.log import feedback_give
from sessions.membership import agent_join, agent_leave
from sessions.models import Message
from tests.agents.mcp.scenario import refused_and_gated, refused_on_next_call, small_analysis, text_of
from tests.agents.mcp.world import run_on_one_db_thread
from tests.factories import make_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)


def server_for(world):
    """The server as the endpoint builds it, the agent read from the world's token on every request."""

    async def identify(ctx):
        return await db(mcp_agent)(world["token"], str(world["session"].pk))

    return mcp_server(identify, lambda ctx, who: f"/sessions/{who.session_id}/#approvals")


def in_memory(world, scenario):
    """``scenario(client)`` against the server object."""

    async def run():
        async with Client(server_for(world)) as client:
            return await scenario(client)

    return run_on_one_db_thread(run)


def test_an_agent_runs_a_small_analysis_and_every_call_is_audited(mcp_world):
    seen = in_memory(mcp_world, small_analysis)

    assert {"describe", "file.write", "dataset.import-csv", "stats.describe", "chap.respond"} <= set(seen["tools"])
    assert "file.delete" not in seen["tools"]  # not the clerk's to run: not listed
    assert seen["tools"]["dataset.query"].annotations.read_only_hint
    assert seen["tools"]["dataset.drop-table"].annotations.destructive_hint
    assert seen["manual"].structured_content["operation"] == "dataset.import-csv"
    assert not seen["imported"].is_error, text_of(seen["imported"])
    assert seen["imported"].structured_content["rows_loaded"] == 30
    assert seen["stats"].structured_content["columns"][0]["mean"] == pytest.approx(14.5)
    assert not seen["posted"].is_error, text_of(seen["posted"])
    session = mcp_world["session"]
    response = Message.objects.get(session=session, message_id=seen["posted"].structured_content["message_id"])
    assert response.sender_id == "clerk" and "14.5" in response.envelope["payload"]["content"]["body"]
    records = Message.objects.filter(session=session, payload_type="operation_record")
    audited = [envelope["payload"]["operation"] for envelope in records.values_list("envelope", flat=True)]
    assert audited == ["dataset.import-csv", "file.write", "dataset.import-csv", "stats.describe"]


def test_refused_and_gated_calls_say_why_and_the_gate_reports_its_decision(mcp_world):
    in_memory(mcp_world, small_analysis)
    seen = in_memory(mcp_world, refused_and_gated)

    refused = seen["refused"]
    assert refused.is_error and refused.structured_content["code"] == "PERMISSION_DENIED"
    assert "ask an admin to allow 'file.delete'" in text_of(refused)
    pending = seen["gated"].structured_content
    assert not seen["gated"].is_error and pending["status"] == "pending"
    assert seen["progress"] == [(0, 2, "step ping"), (1, 2, "step tables")]
    assert pending["gate"].endswith("#approvals")

    async def follow(client):
        return await client.call_tool("chap.approval", {"approval_id": pending["approval_id"]})

    assert in_memory(mcp_world, follow).structured_content["status"] == "pending"
    owner = caller_for_user(mcp_world["owner"])
    approval_decide(session_id=mcp_world["session"].pk, approval_id=pending["approval_id"], caller=owner, approve=True)
    decided = in_memory(mcp_world, follow).structured_content
    assert (decided["status"], decided["outcome"], decided["decided_by"]) == ("approved", "result", "olga")
    assert Approval.objects.get(pk=pending["approval_id"]).operation == "dataset.drop-table"


def test_a_post_against_a_version_the_session_never_had_is_refused(mcp_world):
    async def stale(client):
        return await client.call_tool(
            "chap.respond",
            {"context_checksum": "0123456789abcdef", "payload": {"content": {"body": "x"}, "confidence_score": 1}},
        )

    result = in_memory(mcp_world, stale)
    assert result.is_error and result.structured_content["code"] == "CONTEXT_UNKNOWN"


def test_a_post_that_missed_a_persons_correction_is_refused_by_the_version_rule(mcp_world):
    seen = in_memory(mcp_world, small_analysis)
    report, read = (
        seen["posted"].structured_content["message_id"],
        seen["posted"].structured_content["context_checksum"],
    )
    owner = caller_for_user(mcp_world["owner"])
    correction = {"target_message_id": report, "feedback_type": "correction", "provided_context": "leave east out"}
    feedback_give(access=require_access(mcp_world["session"].pk, owner), caller=owner, payload=correction)

    async def build_on_it(client):
        payload = {"content": {"body": "and by region the same"}, "confidence_score": 0.8}
        return await client.call_tool(
            "chap.respond", {"context_checksum": read, "in_reply_to": report, "payload": payload}
        )

    result = in_memory(mcp_world, build_on_it)
    assert result.is_error and result.structured_content["code"] == "CONTEXT_CONFLICT"
    assert "read the unseen messages" in text_of(result)


def test_the_feedback_on_a_message_is_read_back(mcp_world):
    seen = in_memory(mcp_world, small_analysis)
    message_id = seen["posted"].structured_content["message_id"]
    owner = caller_for_user(mcp_world["owner"])
    feedback_give(
        access=require_access(mcp_world["session"].pk, owner),
        caller=owner,
        payload={"target_message_id": message_id, "feedback_type": "refinement", "provided_context": "per region"},
    )

    async def read(client):
        return await client.call_tool("chap.feedback", {"message_id": message_id})

    feedback = in_memory(mcp_world, read).structured_content["feedback"]
    assert [(f["feedback_type"], f["provided_context"]) for f in feedback] == [("refinement", "per region")]


@pytest.mark.parametrize("cut_off", ["revoked", "removed", "disabled"])
def test_access_ends_on_the_next_request(mcp_world, cut_off):
    agent = mcp_world["agent"]
    if cut_off == "revoked":
        token_revoke(token=live_token(mcp_world["token"]))
    elif cut_off == "removed":
        agent_leave(session=mcp_world["session"], agent=agent)
    else:
        agent_set_enabled(agent=agent, enabled=False)

    error = in_memory(mcp_world, refused_on_next_call)
    assert isinstance(error, MCPError)
    assert error.error.data["code"] == ("UNAUTHENTICATED" if cut_off != "removed" else "RESOURCE_NOT_FOUND")


def test_resources_list_only_what_the_agent_may_read(mcp_world):
    in_memory(mcp_world, small_analysis)
    reader = make_agent("reader", kind="external", allowed_operations=["dataset.*"])
    agent_join(session=mcp_world["session"], agent=reader)

    async def browse(client):
        listed = [resource.name for resource in (await client.list_resources()).resources]
        templates = [template.name for template in (await client.list_resource_templates()).resource_templates]
        tables = await client.read_resource(f"chap://sessions/{mcp_world['session'].pk}/datasets/sales")
        answer = await client.read_resource(f"chap://sessions/{mcp_world['session'].pk}/answer")
        return listed, templates, tables.contents[0].text, answer.contents[0].text

    listed, templates, table, answer = in_memory({**mcp_world, "token": token_issue(agent=reader)}, browse)
    assert listed == ["answer", "reports", "graph-summary", "datasets"]
    assert templates == ["reports/{message_id}", "datasets/{table}"]
    assert '"amount"' in table and "mean amount is 14.5" in answer


def test_every_tool_schema_is_valid_json_schema_and_takes_every_manual_example(mcp_world):
    tools = operation_tools(mcp_world["agent"]) + [tool.tool() for tool in CHAP_TOOLS.values()]
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    checked = 0
    for operation in workbench_registry():
        schema = parameters_schema(operation.parameters)
        for example in operation.examples:
            parser = StreamParser()
            for block in [*parser.feed(example.request), *parser.close()]:
                jsonschema.validate(block.body, schema, cls=jsonschema.Draft202012Validator)
                checked += 1
    assert checked >= 15


def test_a_clarification_asks_the_people_with_options(mcp_world):
    async def ask(client):
        context = await client.call_tool("chap.context", {})
        question = {
            "question": "Which year?",
            "options": [{"id": "y24", "label": "2024"}, {"id": "y25", "label": "2025"}],
        }
        checksum = context.structured_content["context_checksum"]
        return await client.call_tool("chap.clarify", {"context_checksum": checksum, "payload": question})

    asked = in_memory(mcp_world, ask)
    assert not asked.is_error, text_of(asked)
    message = Message.objects.get(session=mcp_world["session"], message_id=asked.structured_content["message_id"])
    assert (message.payload_type, message.sender_id) == ("clarification", "clerk")
    assert [option["label"] for option in message.envelope["payload"]["options"]] == ["2024", "2025"]
