"""SAP operations through POST /api/sessions/<id>/sap/, as an agent would call them."""

import io
import json
import os

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from agents.models import Approval
from agents.operations.files import workspace_root
from agents.sap import parse
from agents.tokens import token_issue
from sessions.membership import agent_join
from sessions.models import Message
from tests.agents.sap_calls import block, sap
from tests.factories import make_agent
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return with_agent(
        session_of("viewer"), "worker", allowed_operations=["file.*", "system.metrics"], approval_operations=[]
    )


def test_write_read_list_stat_copy_move_round_trip(world):
    text = "数据分析报告 ✓\nline two\n"
    responses = sap(
        world,
        "Let me save the draft.\n"
        + "".join(
            [
                block("action", "file.write", json.dumps({"path": "reports/draft.md", "content": text}), "w"),
                block("query", "file.read", '{"path": "reports/draft.md"}', "r"),
                block("query", "file.read", '{"path": "reports/draft.md", "offset": 0, "length": 3}', "r2"),
                block("action", "file.copy", '{"source": "reports/draft.md", "destination": "copy.md"}', "c"),
                block("action", "file.move", '{"source": "copy.md", "destination": "moved.md"}', "m"),
                block("query", "file.list", '{"pattern": "*.md", "recursive": true, "format": "bare"}', "l"),
                block("query", "file.list", '{"pattern": "*.md", "format": "detailed"}', "ld"),
                block("query", "file.stat", '{"path": "moved.md"}', "s"),
            ]
        ),
    )
    assert [r.type for r in responses] == ["result"] * 8, [r.body for r in responses]
    write, read, part, _copy, _move, listing, detailed, stat = responses
    assert write.body["created"] is True and read.body["content"] == text
    assert part.body["content"] == "数" and part.body["truncated"] is True
    assert listing.body["files"] == ["moved.md", "reports/draft.md"]
    assert detailed.body["files"][0]["path"] == "moved.md" and detailed.body["files"][0]["size"] == len(text.encode())
    assert stat.body["size"] == len(text.encode())
    assert not (workspace_root(world["session"].pk) / "copy.md").exists()


@pytest.mark.parametrize(
    "path",
    [
        "../secret.txt",
        "a/../../etc/passwd",
        "/etc/passwd",
        "..",
        "%2e%2e/x",
        "ok/\x00.txt",
        "a\\..\\b",
        "\uff0e\uff0e/x",
        "C:/windows",
        "~/x",
        ".",
    ],
)
def test_paths_outside_the_workspace_are_refused(world, path):
    [error] = sap(world, block("action", "file.write", json.dumps({"path": path, "content": "x"})))
    assert error.body["code"] == "PATH_OUTSIDE_WORKSPACE", error.body
    assert not any(workspace_root(world["session"].pk).rglob("*"))


def test_symlinks_that_lead_outside_are_refused(world, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("top secret")
    os.symlink(outside, workspace_root(world["session"].pk) / "escape")
    [read] = sap(world, block("query", "file.read", '{"path": "escape/secret.txt"}'))
    assert read.body["code"] == "PATH_OUTSIDE_WORKSPACE"
    [write] = sap(world, block("action", "file.write", '{"path": "escape/new.txt", "content": "x"}'))
    assert write.body["code"] == "PATH_OUTSIDE_WORKSPACE" and not (outside / "new.txt").exists()


def test_oversize_writes_and_a_full_workspace_are_refused(world, monkeypatch, settings):
    from agents.operations import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    settings.WORKSPACE_QUOTA_BYTES = 1500

    def write(path, size, block_id="1"):
        return block("action", "file.write", json.dumps({"path": path, "content": "x" * size}), block_id)

    [error] = sap(world, write("big.txt", 1001))
    assert error.body["code"] == "LIMIT_EXCEEDED" and not (workspace_root(world["session"].pk) / "big.txt").exists()
    first, second = sap(world, write("a.txt", 900, "1") + write("b.txt", 900, "2"))
    assert first.type == "result" and second.body["code"] == "LIMIT_EXCEEDED"
    assert second.body["details"]["limit"] == 1500
    [too_big_block] = sap(world, write("c.txt", 1024 * 1024))
    assert too_big_block.body["code"] == "BODY_TOO_LARGE"


def test_errors_of_file_operations(world):
    responses = sap(
        world,
        "".join(
            [
                block("query", "file.read", '{"path": "missing.txt"}', "1"),
                block("action", "file.write", '{"path": "a.txt", "content": "one"}', "2"),
                block("action", "file.write", '{"path": "a.txt", "content": "two"}', "3"),
                block("action", "file.write", '{"path": "a.txt", "content": " more", "append": true}', "4"),
                block("action", "file.delete", '{"path": "a.txt", "confirm": false}', "5"),
                block("query", "file.read", '{"path": "a.txt", "encoding": "latin-1"}', "6"),
            ]
        ),
    )
    codes = [r.body.get("code") for r in responses]
    assert codes == ["RESOURCE_NOT_FOUND", None, "RESOURCE_ALREADY_EXISTS", None, None, "VALIDATION_FAILED"]
    assert responses[2].body["suggestion"][1] == 'set "append": true'
    # An agent's delete waits for a human before even its parameters are acted on.
    assert responses[4].type == "event" and responses[4].body["event"] == "approval.requested"


def test_overwrite_and_delete_wait_for_approval_then_run_or_are_denied(world):
    sap(world, block("action", "file.write", '{"path": "a.txt", "content": "one"}'))
    [requested] = sap(
        world, block("action", "file.write", '{"path": "a.txt", "content": "two", "overwrite": true}', "ow")
    )
    assert (requested.type, requested.id, requested.body["event"]) == ("event", "ow", "approval.requested")
    assert (workspace_root(world["session"].pk) / "a.txt").read_text() == "one"
    approval_id = requested.body["approval_id"]

    owner = APIClient()
    owner.force_login(world["owner"])
    base = f"/api/sessions/{world['session'].pk}/approvals/"
    [pending] = owner.get(base + "?status=pending").json()
    assert pending["operation"] == "file.write" and "overwrites" in pending["reason"]
    viewer = APIClient()
    viewer.force_login(world["viewer"])
    assert viewer.post(f"{base}{approval_id}/decision/", {"decision": "approve"}, format="json").status_code == 403
    decided = owner.post(f"{base}{approval_id}/decision/", {"decision": "approve"}, format="json").json()
    assert decided["status"] == "approved" and decided["decided_by"] == "olga"
    assert decided["response"]["type"] == "result"
    assert (workspace_root(world["session"].pk) / "a.txt").read_text() == "two"
    again = owner.post(f"{base}{approval_id}/decision/", {"decision": "reject"}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "ALREADY_DECIDED"

    [delete] = sap(world, block("action", "file.delete", '{"path": "a.txt", "confirm": true}', "d"))
    rejected = owner.post(
        f"{base}{delete.body['approval_id']}/decision/",
        {"decision": "reject", "reason": "we still need it"},
        format="json",
    ).json()
    assert rejected["response"]["body"]["code"] == "APPROVAL_DENIED"
    assert "we still need it" in rejected["response"]["body"]["message"]
    assert (workspace_root(world["session"].pk) / "a.txt").exists()


def test_an_approved_request_for_an_operation_no_longer_offered_says_so(world):
    # An approval waits in the database while the workbench is upgraded and the operation goes away.
    approval = Approval.objects.create(
        session=world["session"],
        requested_by="agent:worker",
        agent=world["agent"],
        operation="file.shred",
        block_type="action",
        block_id="s",
        request={"path": "a.txt"},
        reason="file.shred is irreversible",
    )
    owner = APIClient()
    owner.force_login(world["owner"])
    decided = owner.post(
        f"/api/sessions/{world['session'].pk}/approvals/{approval.pk}/decision/", {"decision": "approve"}, format="json"
    ).json()
    assert decided["response"]["type"] == "error"
    assert decided["response"]["body"]["code"] == "OPERATION_NOT_FOUND"
    assert "file.shred" in decided["response"]["body"]["message"]


def test_permissions(world):
    stranger = make_agent("stranger")
    stranger_token = token_issue(agent=stranger)
    assert sap(world, block("query", "file.list"), token=stranger_token).status_code == 404
    limited = make_agent("reader", allowed_operations=["file.read"])
    agent_join(session=world["session"], agent=limited)
    [denied] = sap(
        world, block("action", "file.write", '{"path": "x.txt", "content": "x"}'), token=token_issue(agent=limited)
    )
    assert denied.body["code"] == "PERMISSION_DENIED" and denied.body["details"]["permission"] == "file.write"
    [manual] = sap(world, block("describe", "file.write"), token=token_issue(agent=limited))
    assert manual.body["operation"] == "file.write"
    [viewer] = sap(world, block("action", "file.write", '{"path": "x.txt", "content": "x"}'), user=world["viewer"])
    assert viewer.body["code"] == "PERMISSION_DENIED"
    [owner] = sap(world, block("action", "file.write", '{"path": "x.txt", "content": "x"}'), user=world["owner"])
    assert owner.type == "result"
    assert (
        APIClient().post(f"/api/sessions/{world['session'].pk}/sap/", "x", content_type="text/plain").status_code == 401
    )


def test_reference_example_list_then_write_the_list(world):
    sap(world, block("action", "file.write", '{"path": "brief.docx", "content": "b"}'))
    listing, write = sap(
        world,
        block("query", "file.list", '{"pattern": "*.docx", "format": "bare"}', "1")
        + block("action", "file.write", '{"path": "filelist.txt", "content": "brief.docx"}', "2"),
    )
    assert listing.body["files"] == ["brief.docx"] and write.type == "result"


def test_system_operations_and_capabilities(world):
    metrics, capabilities = sap(
        world,
        block("query", "system.metrics", '{"metrics": ["cpu", "memory"], "time_range": "5m"}')
        + block("query", "system.capabilities", '{"scope": "file"}', "2"),
    )
    assert set(metrics.body["current"]) == {"cpu", "memory"} and metrics.body["samples"]
    names = [op["name"] for op in capabilities.body["operations"]]
    assert names == ["file.copy", "file.delete", "file.list", "file.move", "file.read", "file.stat", "file.write"]


def test_every_operation_is_recorded_in_the_log_and_the_graph(world):
    sap(
        world, block("action", "file.write", '{"path": "a.txt", "content": "x"}') + block("query", "no.such", "{}", "2")
    )
    records = Message.objects.filter(session=world["session"], payload_type="operation_record").order_by("seq")
    assert [(r.envelope["payload"]["operation"], r.envelope["payload"]["outcome"]) for r in records] == [
        ("file.write", "result"),
        ("no.such", "error"),
    ]
    assert records[0].envelope["payload"]["request"]["caller"] == {"type": "agent", "id": "worker"}
    assert records[0].envelope["payload"]["duration_ms"] >= 0
    graph = APIClient()
    graph.force_login(world["owner"])
    nodes = graph.get(f"/api/sessions/{world['session'].pk}/graph/").json()["graph"]["nodes"]
    assert sum(node["kind"] == "operation" for node in nodes) == 2


def test_manage_py_sap_runs_a_stream_from_stdin(world, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(block("query", "system.ping", '{"echo": "hi"}', "p")))
    out = io.StringIO()
    call_command("sap", str(world["session"].pk), "--agent", "worker", stdout=out)
    [result] = parse(out.getvalue())
    assert (result.type, result.id, result.body["echo"]) == ("result", "p", "hi")
    assert Approval.objects.count() == 0


def test_placeholders_pass_results_between_blocks_of_one_stream(world):
    sap(world, block("action", "file.write", '{"path": "brief.docx", "content": "b"}', "0"))
    _listing, _write, read = sap(
        world,
        block("query", "file.list", '{"pattern": "*.docx"}', "list")
        + block(
            "action",
            "file.write",
            '{"path": "filelist.txt", "content": "Files: {{steps.list.result.files.0}}"}',
            "save",
        )
        + block("query", "file.read", '{"path": "{{steps.save.result.path}}"}', "check"),
    )
    assert read.body["content"] == "Files: brief.docx"
    [bad] = sap(world, block("query", "file.read", '{"path": "{{steps.nope.result.path}}"}', "x"))
    assert bad.body["code"] == "VALIDATION_FAILED" and "nope" in bad.body["message"]


def test_workflow_runs_steps_in_order_and_stops_at_the_first_error(world):
    steps = [
        {"id": "w", "type": "action", "operation": "file.write", "body": {"path": "a.txt", "content": "alpha"}},
        {"id": "r", "type": "query", "operation": "file.read", "body": {"path": "{{steps.w.result.path}}"}},
        {"id": "list", "type": "query", "operation": "file.list", "body": {}},
        {
            "id": "save",
            "type": "action",
            "operation": "file.write",
            "body": {"path": "list.json", "content": "files: {{steps.list.result.files}}"},
        },
    ]
    *progress, done = sap(world, block("action", "workflow.execute", json.dumps({"steps": steps}), "wf"))
    assert [event.body["step"] for event in progress] == ["w", "r", "list", "save"]
    assert all(event.type == "event" and event.id == "wf" for event in progress)
    assert done.type == "result" and done.body["completed"] == ["w", "r", "list", "save"]
    assert done.body["steps"]["r"]["content"] == "alpha"
    assert (workspace_root(world["session"].pk) / "list.json").read_text() == 'files: ["a.txt"]'
    failing = [
        steps[0],
        {"id": "missing", "type": "query", "operation": "file.read", "body": {"path": "nope.txt"}},
        steps[2],
    ]
    responses = sap(world, block("action", "workflow.execute", json.dumps({"steps": failing}), "wf2"))
    error = responses[-1]
    assert error.type == "error" and error.body["code"] == "RESOURCE_ALREADY_EXISTS"
    assert error.body["details"]["failed_step"] == "w"
    failing[0] = {"id": "w2", "type": "action", "operation": "file.write", "body": {"path": "b.txt", "content": "b"}}
    error = sap(world, block("action", "workflow.execute", json.dumps({"steps": failing}), "wf3"))[-1]
    assert error.body["code"] == "RESOURCE_NOT_FOUND" and error.body["details"]["failed_step"] == "missing"
    assert error.body["details"]["completed"] == ["w2"]


def test_workflow_steps_keep_the_callers_permissions(world):
    limited = make_agent("reader", allowed_operations=["file.read"])
    agent_join(session=world["session"], agent=limited)
    steps = [{"id": "w", "type": "action", "operation": "file.write", "body": {"path": "x.txt", "content": "x"}}]
    error = sap(
        world, block("action", "workflow.execute", json.dumps({"steps": steps})), token=token_issue(agent=limited)
    )[-1]
    assert error.body["code"] == "PERMISSION_DENIED" and not (workspace_root(world["session"].pk) / "x.txt").exists()


def test_records_link_to_the_chap_message_that_asked(world):
    from sessions.access import caller_for_user
    from sessions.log import message_post
    from tests.sessions import envelopes

    session = world["session"]
    session.refresh_from_db()
    message_post(
        session_id=session.pk,
        caller=caller_for_user(world["owner"]),
        envelope=envelopes.proposal(
            message_id="ask", session_id=session.pk, sender=("human", "olga"), context_checksum=session.head_checksum
        ),
    )
    sap(world, block("query", "system.ping", "{}"), headers={"X-CHAP-Message-Id": "ask"})
    record = Message.objects.filter(session=session, payload_type="operation_record").get()
    assert record.envelope["payload"]["request_message_id"] == "ask"
    owner = APIClient()
    owner.force_login(world["owner"])
    edges = owner.get(f"/api/sessions/{session.pk}/graph/").json()["graph"]["edges"]
    assert {"source": record.message_id, "target": "ask", "type": "produced_by"} in [
        {k: e[k] for k in ("source", "target", "type")} for e in edges
    ]
    missing = sap(world, block("query", "system.ping", "{}"), headers={"X-CHAP-Message-Id": "nope"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "RESOURCE_NOT_FOUND"


def test_members_upload_files_that_agents_then_read(world):
    owner = APIClient()
    owner.force_login(world["owner"])
    url = f"/api/sessions/{world['session'].pk}/files/"

    def upload(client, path, data):
        target = f"{url}?path={path}" if path else url
        return client.post(target, data, content_type="application/octet-stream")

    response = upload(owner, "data/sales.csv", b"region,amount\nEU,1\n")
    assert response.status_code == 201 and response.json()["path"] == "data/sales.csv"
    [read] = sap(world, block("query", "file.read", '{"path": "data/sales.csv"}'))
    assert read.body["content"] == "region,amount\nEU,1\n"
    clash = upload(owner, "data/sales.csv", b"x")
    assert clash.status_code == 409 and clash.json()["error"]["code"] == "RESOURCE_ALREADY_EXISTS"
    escape = upload(owner, "../x.txt", b"x")
    assert escape.status_code == 403 and escape.json()["error"]["code"] == "PATH_OUTSIDE_WORKSPACE"
    assert upload(owner, "", b"x").json()["error"]["details"] == {"missing": ["path"]}
    viewer = APIClient()
    viewer.force_login(world["viewer"])
    assert upload(viewer, "v.txt", b"x").status_code == 403
    assert Message.objects.filter(session=world["session"], payload_type="operation_record").count() >= 3


def test_an_agent_uploads_as_it_writes_files_with_its_own_rights(world):
    """The upload is the agent's file.write: its allow-list, its approvals, recorded as its own."""
    url = f"/api/sessions/{world['session'].pk}/files/?path="

    def upload(agent, path):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(agent=agent)}")
        return client.post(url + path, b"a,b\n1,2\n", content_type="application/octet-stream")

    written = upload(world["agent"], "out/chart.csv")
    assert written.status_code == 201 and (workspace_root(world["session"].pk) / "out/chart.csv").exists()
    record = Message.objects.filter(session=world["session"], payload_type="operation_record").last()
    assert record.envelope["payload"]["request"]["caller"] == {"type": "agent", "id": "worker"}
    reader = make_agent("reader", allowed_operations=["file.read"])
    agent_join(session=world["session"], agent=reader)
    refused = upload(reader, "reader.csv")
    assert refused.status_code == 403 and refused.json()["error"]["details"]["permission"] == "file.write"
    careful = make_agent("careful", allowed_operations=["file.*"], approval_operations=["file.write"])
    agent_join(session=world["session"], agent=careful)
    asked = upload(careful, "careful.csv")
    assert asked.status_code == 202 and asked.json()["event"] == "approval.requested"
    assert not (workspace_root(world["session"].pk) / "careful.csv").exists()
