import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from agents.tokens import token_issue
from sessions.membership import agent_join, session_import
from sessions.models import Message, WorkSession
from sessions.selectors import session_export
from tests.factories import agent_in, make_agent, post_message
from tests.people import api_as
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db


def url(session, tail=""):
    return f"/api/sessions/{session.pk}/{tail}"


def envelope_for(session, username, **kwargs):
    kwargs.setdefault("context_checksum", WorkSession.objects.get(pk=session.pk).head_checksum)
    return envelopes.proposal(session_id=session.pk, sender=("human", username), **kwargs)


READ_ENDPOINTS = [
    "",
    "members/",
    "messages/",
    "graph/",
    "graph/?as=graphml",
    "checkpoints/",
    "summary/",
    "context/",
    "metrics/",
    "export/",
]


@pytest.mark.parametrize("tail", READ_ENDPOINTS)
def test_every_member_can_read_and_outsiders_get_404(people, tail):
    session = people["session"]
    for role in ("owner", "editor", "viewer"):
        response = api_as(people[role]).get(url(session, tail))
        assert response.status_code == 200, (role, tail, response.content[:300])
    response = api_as(people["outsider"]).get(url(session, tail))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "RESOURCE_NOT_FOUND"
    assert "Battery" not in response.content.decode()
    anonymous = APIClient().get(url(session, tail))
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "UNAUTHENTICATED"


def test_session_list_shows_only_mine_and_create_makes_me_owner(people):
    client = api_as(people["outsider"])
    assert client.get("/api/sessions/").json() == []
    created = client.post("/api/sessions/", {"title": "New study"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["title"] == "New study" and body["head_seq"] == 0 and len(body["head_checksum"]) == 16
    assert [s["title"] for s in client.get("/api/sessions/").json()] == ["New study"]
    bad = client.post("/api/sessions/", {"title": ""}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION_FAILED"


def test_posting_messages_over_rest_uses_the_same_rules(people):
    session = people["session"]
    message = envelope_for(session, "ed", message_id="p1")
    client = api_as(people["editor"])
    first = client.post(url(session, "messages/"), message, format="json")
    assert first.status_code == 201 and first.json() == {
        "type": "ack",
        "message_id": "p1",
        "seq": 1,
        "context_checksum": first.json()["context_checksum"],
    }
    again = client.post(url(session, "messages/"), message, format="json")
    assert again.status_code == 200 and again.json() == first.json()
    viewer = api_as(people["viewer"]).post(url(session, "messages/"), envelope_for(session, "vic"), format="json")
    assert viewer.status_code == 403 and viewer.json()["error"]["code"] == "PERMISSION_DENIED"
    invalid = client.post(url(session, "messages/"), {"chap_version": "1.0"}, format="json")
    assert invalid.status_code == 400 and invalid.json()["error"]["code"] == "INVALID_MESSAGE"
    stale = client.post(
        url(session, "messages/"), envelope_for(session, "ed", context_checksum="a" * 16), format="json"
    )
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "CONTEXT_UNKNOWN"
    not_object = client.post(url(session, "messages/"), [1, 2], format="json")
    assert not_object.status_code == 400
    garbage = client.post(url(session, "messages/"), "{oops", content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "INVALID_REQUEST"


def test_message_list_pages_with_since_seq(people):
    session = people["session"]
    client = api_as(people["owner"])
    for n in range(5):
        client.post(url(session, "messages/"), envelope_for(session, "olga", message_id=f"m{n}"), format="json")
    page = client.get(url(session, "messages/?since_seq=1&page_size=2")).json()
    assert [m["seq"] for m in page["messages"]] == [2, 3] and page["next_since_seq"] == 3 and page["head_seq"] == 5
    last = client.get(url(session, "messages/?since_seq=3&page_size=2")).json()
    assert [m["seq"] for m in last["messages"]] == [4, 5] and last["next_since_seq"] is None
    for bad in ("since_seq=-1", "page_size=0", "page_size=5000", "since_seq=abc"):
        response = client.get(url(session, f"messages/?{bad}"))
        assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_FAILED", bad


def test_graph_at_a_version_and_as_graphml(people):
    session = people["session"]
    client = api_as(people["owner"])
    client.post(url(session, "messages/"), envelope_for(session, "olga", message_id="t"), format="json")
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    feedback = envelopes.feedback("t", session_id=session.pk, sender=("human", "olga"), context_checksum=head)
    client.post(url(session, "messages/"), feedback, format="json")
    now = client.get(url(session, "graph/")).json()
    then = client.get(url(session, "graph/?version=1")).json()
    status_of = {node["id"]: node["status"] for node in now["graph"]["nodes"]}
    assert status_of["t"] == "overturned"
    assert {node["id"]: node["status"] for node in then["graph"]["nodes"]}["t"] == "in_progress"
    graphml = client.get(url(session, "graph/?as=graphml"))
    assert graphml["Content-Type"] == "application/xml" and b"<graphml" in graphml.content
    assert client.get(url(session, "graph/?version=99")).status_code == 400
    assert client.get(url(session, "graph/?as=dot")).status_code == 400


def test_checkpoints_summary_context_and_metrics(people):
    session = people["session"]
    client = api_as(people["editor"])
    client.post(url(session, "messages/"), envelope_for(session, "ed", message_id="t"), format="json")
    created = client.post(url(session, "checkpoints/"), {"label": "Scope agreed"}, format="json")
    assert created.status_code == 201
    [checkpoint] = client.get(url(session, "checkpoints/")).json()
    assert checkpoint["label"] == "Scope agreed" and checkpoint["at_seq"] == 1
    assert client.get(url(session, "summary/")).json()["goal"]["status"] == "in_progress"
    context = client.get(url(session, "context/?budget=500")).json()
    assert context["tokens"] <= 500 and "GOAL:" in context["text"]
    assert client.get(url(session, "context/?budget=5")).status_code == 400
    assert client.get(url(session, "metrics/")).json()["messages"] == 2
    viewer = api_as(people["viewer"]).post(url(session, "checkpoints/"), {"label": "x"}, format="json")
    assert viewer.status_code == 403


def test_update_archive_and_members_need_the_right_role(people):
    session = people["session"]
    editor, owner, viewer = api_as(people["editor"]), api_as(people["owner"]), api_as(people["viewer"])
    assert editor.patch(url(session), {"title": "Renamed"}, format="json").json()["title"] == "Renamed"
    assert viewer.patch(url(session), {"title": "Nope"}, format="json").status_code == 403
    assert editor.post(url(session, "archive/")).status_code == 403
    assert (
        editor.post(url(session, "members/"), {"username": "out", "role": "viewer"}, format="json").status_code == 403
    )
    added = owner.post(url(session, "members/"), {"username": "out", "role": "viewer"}, format="json")
    assert added.status_code == 201 and added.json()["role"] == "viewer"
    assert (
        owner.post(url(session, "members/"), {"username": "ghost", "role": "viewer"}, format="json").status_code == 404
    )
    assert owner.post(url(session, "archive/")).json()["state"] == "archived"
    assert owner.patch(url(session), {"state": "flying"}, format="json").status_code == 400


def test_agents_use_bearer_tokens(people):
    session = people["session"]
    planner = make_agent("planner")
    token = token_issue(agent=planner)
    client = api_as(token=token)
    assert client.get(url(session)).status_code == 404
    agent_join(session=session, agent=planner)
    assert client.get(url(session)).status_code == 200
    assert [s["id"] for s in client.get("/api/sessions/").json()] == [str(session.pk)]
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    message = envelopes.declaration(session_id=session.pk, context_checksum=head, sender=("agent", "planner"))
    assert client.post(url(session, "messages/"), message, format="json").status_code == 201
    assert client.post("/api/sessions/", {"title": "mine"}, format="json").status_code == 403
    bad = api_as(token="chap_wrong").get(url(session))
    assert bad.status_code == 401 and bad["WWW-Authenticate"].startswith("Bearer")


def test_export_then_import_into_a_fresh_workbench(people, tmp_path):
    session = people["session"]
    client = api_as(people["owner"])
    for n in range(3):
        client.post(url(session, "messages/"), envelope_for(session, "olga", message_id=f"m{n}"), format="json")
    exported = client.get(url(session, "export/")).json()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported))
    Message.objects.all().delete()
    WorkSession.objects.all().delete()
    call_command("import_session", str(path), "--owner", "olga")
    imported = WorkSession.objects.get(pk=session.pk)
    assert imported.head_seq == 3 and imported.head_checksum == exported["session"]["head_checksum"]
    assert set(imported.memberships.values_list("user__username", "role")) == {
        ("olga", "owner"),
        ("ed", "editor"),
        ("vic", "viewer"),
    }
    call_command("verify_session", str(session.pk))
    head = imported.head_checksum
    more = envelopes.proposal(session_id=session.pk, sender=("human", "olga"), context_checksum=head)
    assert client.post(url(session, "messages/"), more, format="json").json()["seq"] == 4


def test_import_refuses_a_tampered_export(people, tmp_path):
    from django.core.management.base import CommandError

    session = people["session"]
    client = api_as(people["owner"])
    for n in range(3):
        client.post(url(session, "messages/"), envelope_for(session, "olga", message_id=f"m{n}"), format="json")
    exported = client.get(url(session, "export/")).json()
    exported["messages"][1]["envelope"]["payload"]["goal"] = "history rewritten"
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported))
    WorkSession.objects.filter(pk=session.pk).delete()
    with pytest.raises(CommandError, match="breaks at message #2"):
        call_command("import_session", str(path), "--owner", "olga")
    assert not WorkSession.objects.filter(pk=session.pk).exists()


def test_openapi_schema_and_docs_are_served(people):
    client = api_as(people["owner"])
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/sessions/{session_id}/messages/" in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower() and b"https://" not in docs.content


def test_only_json_bodies_are_read(people):
    client = api_as(people["owner"])
    response = client.post("/api/sessions/", "--x--\r\n", content_type="multipart/form-data; boundary=x")
    assert response.status_code == 415 and response.json()["error"]["code"] == "INVALID_REQUEST"


def test_an_imported_session_keeps_what_waits_in_its_log(people):
    session = people["session"]
    analyst = agent_in(session, "analyst")
    post_message(session, analyst, envelopes.response, message_id="r1", questions=("Net or gross?", "Which year?"))
    post_message(session, agent_in(session, "planner"), envelopes.declaration, message_id="d1")
    exported = session_export(session=WorkSession.objects.get(pk=session.pk))
    WorkSession.objects.all().delete()
    imported = session_import(data=exported, owner=people["owner"])
    assert imported.open_questions == 2 and imported.proposed_plans == ["d1"]
