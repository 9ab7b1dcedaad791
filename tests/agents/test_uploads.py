"""Uploads into a workspace (agents/operations/uploads.py, REST's files route, file.write's staged):
held to WORKBENCH_MAX_UPLOAD_MB as their bytes arrive, and recorded by name, size and hash."""

import hashlib
import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from agents.operations.files import workspace_root
from agents.operations.uploads import stage, staging_root
from agents.tokens import token_issue
from protocol.errors import ProtocolError
from sessions.membership import agent_join
from sessions.models import Message, WorkSession
from tests.agents.sap_calls import block, sap
from tests.factories import make_agent
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return with_agent(session_of("viewer"), "worker", allowed_operations=["file.*"], approval_operations=[])


def upload(client, session, path, data):
    return client.post(f"/api/sessions/{session.pk}/files/?path={path}", data, content_type="application/octet-stream")


def signed_in(user):
    client = APIClient()
    client.force_login(user)
    return client


def records(session):
    return [m.envelope["payload"] for m in Message.objects.filter(session=session, payload_type="operation_record")]


def log_size(session) -> int:
    return sum(len(json.dumps(m.envelope)) for m in Message.objects.filter(session=session))


def test_an_upload_is_recorded_by_name_size_and_hash_never_its_bytes(world):
    session = world["session"]
    data = b"region,amount,note\n" + b"north,1234.5,UNIQUE-MARKER-IN-THE-FILE\n" * 25_000  # 1 MB
    before = log_size(session)
    response = upload(signed_in(world["owner"]), session, "data/sales.csv", data)
    assert response.status_code == 201
    assert response.json()["size"] == len(data) and response.json()["sha256"] == hashlib.sha256(data).hexdigest()
    assert (workspace_root(session.pk) / "data/sales.csv").read_bytes() == data
    [record] = records(session)
    assert record["operation"] == "file.write" and record["request"]["body"]["path"] == "data/sales.csv"
    assert record["response"]["size"] == len(data)
    assert record["response"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert "UNIQUE-MARKER" not in json.dumps(record)
    assert log_size(session) - before < 5_000, "the log grows by a record, not by the file"


def test_a_sap_write_is_recorded_with_the_size_and_hash_of_its_content(world):
    text = "the quarterly figures, not for the log"
    [result] = sap(world, block("action", "file.write", json.dumps({"path": "notes.txt", "content": text})))
    assert result.body["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    [record] = records(world["session"])
    assert record["request"]["body"]["content"] == {
        "size": len(text.encode()),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
    assert "quarterly" not in json.dumps(record)


def test_an_upload_past_the_limit_is_refused_with_the_limit_and_leaves_nothing(world, settings):
    settings.MAX_UPLOAD_BYTES = 1000
    session = world["session"]
    staged = set(staging_root().iterdir())
    response = upload(signed_in(world["owner"]), session, "big.csv", b"x" * 1500)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "LIMIT_EXCEEDED" and error["details"]["limit_bytes"] == 1000
    assert error["details"]["size_bytes"] == 1500 and error["suggestion"]
    assert not records(session), "a refused upload is not in the log"
    assert not (workspace_root(session.pk) / "big.csv").exists()
    assert set(staging_root().iterdir()) == staged


def test_staging_stops_at_the_first_chunk_past_the_limit(settings):
    settings.MAX_UPLOAD_BYTES = 2500
    taken = []

    def chunks():
        for number in range(100):
            taken.append(number)
            yield b"x" * 1000

    staged = set(staging_root().iterdir())
    with pytest.raises(ProtocolError) as refused:
        stage(chunks())
    assert refused.value.code == "LIMIT_EXCEEDED" and len(taken) == 3
    assert set(staging_root().iterdir()) == staged


def test_an_agent_upload_waiting_for_approval_moves_in_when_approved_and_goes_when_rejected(world):
    session = world["session"]
    careful = make_agent("careful", allowed_operations=["file.*"], approval_operations=["file.write"])
    agent_join(session=session, agent=careful)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(agent=careful)}")
    staged = set(staging_root().iterdir())

    def decide(path, decision):
        asked = upload(client, session, path, b"a,b\n1,2\n")
        assert asked.status_code == 202 and not (workspace_root(session.pk) / path).exists()
        assert len(set(staging_root().iterdir()) - staged) == 1, "staged while it waits"
        return signed_in(world["owner"]).post(
            f"/api/sessions/{session.pk}/approvals/{asked.json()['approval_id']}/decision/",
            {"decision": decision},
            format="json",
        )

    assert decide("careful.csv", "approve").json()["response"]["body"]["size"] == 8
    assert (workspace_root(session.pk) / "careful.csv").read_bytes() == b"a,b\n1,2\n"
    assert records(session)[-1]["request"]["caller"] == {"type": "agent", "id": "careful"}
    assert decide("rejected.csv", "reject").json()["status"] == "rejected"
    assert not (workspace_root(session.pk) / "rejected.csv").exists()
    assert set(staging_root().iterdir()) == staged


def test_a_staged_token_is_refused_unless_it_names_a_staged_upload(world):
    [bad] = sap(world, block("action", "file.write", '{"path": "a.txt", "staged": "../../etc/passwd"}'))
    assert bad.body["code"] == "VALIDATION_FAILED"
    [gone] = sap(world, block("action", "file.write", json.dumps({"path": "a.txt", "staged": "0" * 32})))
    assert gone.body["code"] == "RESOURCE_NOT_FOUND"
    [neither] = sap(world, block("action", "file.write", '{"path": "a.txt"}'))
    assert neither.body["code"] == "VALIDATION_FAILED" and neither.body["details"] == {"missing": ["content"]}


def test_the_new_session_form_refuses_files_past_the_limit(client, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import make_user

    settings.MAX_UPLOAD_BYTES = 1000
    client.force_login(make_user("nina"))
    staged = set(staging_root().iterdir())
    files = [SimpleUploadedFile(name, b"x" * 600, content_type="text/csv") for name in ("a.csv", "b.csv")]
    response = client.post(reverse("workspace:new"), {"goal": "Compare the files", "files": files})
    assert response.status_code == 413
    assert "uploads are limited to 0 MB (1000 bytes)" in response.content.decode()
    assert not WorkSession.objects.exists()
    assert set(staging_root().iterdir()) == staged


def test_an_upload_larger_than_a_sap_body_is_copied_and_moved_on_disk(world, monkeypatch, settings):
    from agents.operations import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)  # what a SAP body may write; uploads may be larger
    settings.WORKSPACE_QUOTA_BYTES = 250
    session = world["session"]
    assert upload(signed_in(world["owner"]), session, "big.csv", b"x" * 100).status_code == 201
    [copied] = sap(world, block("action", "file.copy", '{"source": "big.csv", "destination": "copy/big.csv"}'))
    [moved] = sap(world, block("action", "file.move", '{"source": "copy/big.csv", "destination": "moved.csv"}'))
    assert copied.body["size"] == 100 and moved.body["size"] == 100
    assert (workspace_root(session.pk) / "moved.csv").read_bytes() == b"x" * 100
    [full] = sap(world, block("action", "file.copy", '{"source": "big.csv", "destination": "third.csv"}'))
    assert full.body["code"] == "LIMIT_EXCEEDED" and full.body["details"]["limit"] == 250


def test_a_form_with_more_files_than_django_takes_is_refused_and_leaves_nothing_staged(client, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import make_user

    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    client.force_login(make_user("nina"))
    staged = set(staging_root().iterdir())
    files = [SimpleUploadedFile(f"{n}.csv", b"a,b\n1,2\n", content_type="text/csv") for n in range(5)]
    response = client.post(reverse("workspace:new"), {"goal": "Compare the files", "files": files})
    assert response.status_code == 400
    assert not WorkSession.objects.exists()
    assert set(staging_root().iterdir()) == staged
