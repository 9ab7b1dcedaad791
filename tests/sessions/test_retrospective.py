"""Retrospectives, exports from the session page, and the team page: services, views and API."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from agents.models import Approval
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join, session_update
from sessions.models import SessionState, WorkSession
from sessions.retrospectives import criterion_check, retrospective_report, session_rate
from tests.factories import agent_in, make_agent, make_session, make_user, post_message
from tests.people import api_as, session_of
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db

CRITERIA = ["Names five suppliers", "Every figure has a source"]


def proposal(**kwargs):
    payload = {"goal": "Compare battery suppliers", "success_criteria": CRITERIA}
    return envelopes.envelope("task_proposal", payload, **kwargs)


@pytest.fixture
def team():
    people = session_of("editor", "viewer", title="Suppliers")
    session, analyst = people["session"], make_agent("analyst", kind="builtin")
    agent_join(session=session, agent=analyst)
    me = caller_for_user(people["owner"])
    post_message(session, me, proposal, message_id="t")
    post_message(session, caller_for_agent(analyst), envelopes.response, message_id="r1", in_reply_to="t")
    post_message(session, me, envelopes.feedback, "r1", feedback_type="approval", message_id="a1")
    return {**people, "analyst": analyst}


def finish(team):
    session_update(session_id=team["session"].pk, caller=caller_for_user(team["owner"]), state=SessionState.DONE)


def as_member(client, user):
    client.force_login(user)
    return client


def refusal(call, **kwargs) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        call(**kwargs)
    return caught.value


def test_the_retrospective_opens_only_when_the_session_is_done(client, team):
    session = team["session"]
    refused = refusal(retrospective_report, session_id=session.pk, caller=caller_for_user(team["owner"]))
    assert refused.code == "INVALID_STATE" and "opens when it is done" in refused.message
    response = as_member(client, team["owner"]).get(reverse("workspace:retrospective", args=[session.pk]))
    assert response.status_code == 409 and "opens when it is done" in response.content.decode()


def test_members_mark_a_session_done_and_reopen_it_but_viewers_cannot(client, team):
    url = reverse("workspace:state", args=[team["session"].pk])
    page = as_member(client, team["viewer"]).post(url, {"state": "done"}, follow=True).content.decode()
    assert "a viewer cannot post" in page and WorkSession.objects.get(pk=team["session"].pk).state == "proposed"
    as_member(client, team["editor"]).post(url, {"state": "done"})
    assert WorkSession.objects.get(pk=team["session"].pk).state == "done"
    page = client.get(reverse("workspace:detail", args=[team["session"].pk])).content.decode()
    assert "Retrospective" in page and "Reopen the session" in page
    assert "state must be one of" in client.post(url, {"state": "finished"}, follow=True).content.decode()
    client.post(url, {"state": "working"})
    assert WorkSession.objects.get(pk=team["session"].pk).state == "working"
    events = [m.envelope["payload"] for m in team["session"].messages.filter(payload_type="session_event")]
    assert [(e["previous_state"], e["state"], e["by"]) for e in events] == [
        ("proposed", "done", "human:ed"),
        ("done", "working", "human:ed"),
    ]
    history = client.get(reverse("workspace:history", args=[team["session"].pk])).content.decode()
    assert "ed marked done" in history and "ed marked working" in history


def test_a_rename_is_logged_and_an_unchanged_field_is_not(team):
    caller = caller_for_user(team["owner"])
    session_update(session_id=team["session"].pk, caller=caller, title="Battery suppliers", state="proposed")
    [event] = [m.envelope["payload"] for m in team["session"].messages.filter(payload_type="session_event")]
    assert event["action"] == "renamed" and event["previous_title"] == "Suppliers"
    assert event["label"] == "olga renamed “Battery suppliers”"


def test_only_the_workbench_writes_session_events(team):
    event = {"action": "state_changed", "state": "done", "label": "I say it is done"}
    with pytest.raises(ProtocolError) as refused:
        post_message(team["session"], caller_for_user(team["owner"]), envelopes.envelope, "session_event", event)
    assert refused.value.code == "SENDER_NOT_ALLOWED" and refused.value.details["payload_type"] == "session_event"


def test_criteria_are_checked_by_owners_and_editors_with_their_names(team):
    finish(team)
    session_id = team["session"].pk
    criterion_check(session_id=session_id, caller=caller_for_user(team["editor"]), index=0, met=True, note="all 5")
    criterion_check(session_id=session_id, caller=caller_for_user(team["owner"]), index=1, met=False)
    criterion_check(session_id=session_id, caller=caller_for_user(team["owner"]), index=1, met=True, note="fixed")
    report = retrospective_report(session_id=session_id, caller=caller_for_user(team["viewer"]))
    assert [(c["criterion"], c["met"], c["by"], c["note"]) for c in report["criteria"]] == [
        ("Names five suppliers", True, "ed", "all 5"),
        ("Every figure has a source", True, "olga", "fixed"),
    ]
    viewer = refusal(criterion_check, session_id=session_id, caller=caller_for_user(team["viewer"]), index=0, met=True)
    assert viewer.code == "PERMISSION_DENIED"
    missing = refusal(criterion_check, session_id=session_id, caller=caller_for_user(team["owner"]), index=2, met=True)
    assert missing.code == "VALIDATION_FAILED" and "there is no criterion 2" in missing.message


def test_every_member_rates_once_and_may_change_it(team):
    finish(team)
    session_id = team["session"].pk
    for user, rating in ((team["viewer"], 2), (team["editor"], 5), (team["viewer"], 4)):
        session_rate(session_id=session_id, caller=caller_for_user(user), rating=rating, comment=f"{user} says")
    report = retrospective_report(session_id=session_id, caller=caller_for_user(team["owner"]))
    assert sorted((r["member"], r["rating"]) for r in report["ratings"]) == [("ed", 5), ("vic", 4)]
    assert report["average_rating"] == 4.5
    for bad in (0, 6, "5", True, 2.5):
        assert refusal(session_rate, session_id=session_id, caller=caller_for_user(team["owner"]), rating=bad).code == (
            "VALIDATION_FAILED"
        )
    agent = refusal(session_rate, session_id=session_id, caller=caller_for_agent(team["analyst"]), rating=5)
    assert agent.code == "PERMISSION_DENIED"


def test_the_report_sets_what_was_delivered_and_the_process_against_the_goal(team):
    status = {"activity": "done", "state": "idle", "task_id": "1", "resources_used": {"llm_tokens": 1234}}
    post_message(team["session"], caller_for_agent(team["analyst"]), envelopes.envelope, "agent_status", status)
    asked = Approval.objects.create(
        session=team["session"], requested_by="agent:analyst", agent=team["analyst"], operation="file.delete",
        block_type="action", request={"path": "old.csv"}, reason="irreversible",
    )  # fmt: skip
    Approval.objects.filter(pk=asked.pk).update(status="approved", decided_at=asked.created_at + timedelta(seconds=90))
    finish(team)
    report = retrospective_report(session_id=team["session"].pk, caller=caller_for_user(team["owner"]))
    assert report["goal"] == "Compare battery suppliers" and report["session"]["state"] == "done"
    assert (
        report["deliverable"]["message_id"] == "r1" and report["deliverable"]["status"] == "approved, not reviewed yet"
    )
    assert report["deliverable"]["title"] == "the report by analyst"
    assert report["deliverable"]["sections"] == [
        {"title": "Intro", "confidence": 0.9},
        {"title": "Market", "confidence": 0.4},
    ]
    metrics = report["metrics"]
    assert (
        metrics["llm_tokens"] == 1234 and metrics["sap_operations"] == 0 and metrics["messages"] == 6
    )  # with the approval's checkpoint
    assert metrics["agent_questions_per_response"] == 1.0 and metrics["approval_wait_s"] == 0.0
    assert metrics["risky_step_wait_s"] == 90.0
    assert report["series"][-1] == {"seq": 6, "responses": 1, "questions": 1, "corrections": 0, "approvals": 1}


def test_the_retrospective_page_checks_rates_and_draws_its_charts(client, team):
    finish(team)
    session = team["session"]
    as_member(client, team["editor"])
    client.post(reverse("workspace:retrospective-check", args=[session.pk]), {"index": "0", "met": "1", "note": "ok"})
    page = client.post(
        reverse("workspace:retrospective-rate", args=[session.pk]), {"rating": "4", "comment": "Quick"}, follow=True
    ).content.decode()
    assert (
        "your rating is saved" in page
        and '<strong>ed</strong>: 4/5 — <div class="markdown comment"><p>Quick</p>' in page
    )
    assert "checked by ed: ok" in page and 'class="verdict verdict-met"' in page
    assert 'data-testid="metrics-chart"' in page and page.count("<polyline") == 4
    assert 'data-testid="section-confidence"' in page and 'class="heat-3"' in page and 'class="heat-1"' in page
    refused = client.post(reverse("workspace:retrospective-rate", args=[session.pk]), {"rating": "9"}, follow=True)
    assert "rating: Ensure this value is less than or equal to 5." in refused.content.decode()
    as_member(client, team["viewer"])
    page = client.get(reverse("workspace:retrospective", args=[session.pk])).content.decode()
    assert "Save my rating" in page and ">Met</button>" not in page


def test_the_retrospective_downloads_as_markdown_and_json(team):
    finish(team)
    session_id = team["session"].pk
    criterion_check(session_id=session_id, caller=caller_for_user(team["owner"]), index=0, met=True)
    session_rate(session_id=session_id, caller=caller_for_user(team["editor"]), rating=5, comment="Great")
    client = api_as(team["viewer"])
    markdown = client.get(f"/api/sessions/{session_id}/retrospective/?as=markdown")
    assert markdown["Content-Type"].startswith("text/markdown") and "attachment" in markdown["Content-Disposition"]
    text = markdown.content.decode()
    assert text.startswith("# Retrospective: Suppliers") and "- [x] Names five suppliers (met, checked by olga)" in text
    assert "- [ ] Every figure has a source (not checked yet)" in text and "- ed: 5/5: Great" in text
    assert "| LLM tokens | 0 |" in text
    data = json.loads(client.get(f"/api/sessions/{session_id}/retrospective/").content)
    assert data["criteria"][0]["by"] == "olga" and data["ratings"][0]["rating"] == 5
    bad = client.get(f"/api/sessions/{session_id}/retrospective/?as=pdf")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION_FAILED"
    assert api_as(make_user("out")).get(f"/api/sessions/{session_id}/retrospective/").status_code == 404


def test_the_session_page_offers_every_export_and_each_downloads(client, team):
    session_id = team["session"].pk
    page = as_member(client, team["viewer"]).get(reverse("workspace:detail", args=[session_id])).content.decode()
    for link in ("export/", "graph/?as=graphml", "graph/?as=node-link", "deliverable/"):
        assert f'href="/api/sessions/{session_id}/{link}"' in page
        assert client.get(f"/api/sessions/{session_id}/{link}").status_code == 200
    graphml = client.get(f"/api/sessions/{session_id}/graph/?as=graphml")
    assert "attachment" in graphml["Content-Disposition"] and b"<graphml" in graphml.content
    deliverable = client.get(f"/api/sessions/{session_id}/deliverable/")
    assert deliverable["Content-Type"].startswith("text/markdown")
    assert "## Intro\nText." in deliverable.content.decode() and "1. [1] Smith 2023" in deliverable.content.decode()


def test_a_session_without_a_report_has_no_deliverable_to_download(team):
    empty = make_session(owner=team["owner"])
    response = api_as(team["owner"]).get(f"/api/sessions/{empty.pk}/deliverable/")
    assert response.status_code == 404 and response.json()["error"]["details"]["resource_type"] == "DELIVERABLE"
    outsider = api_as(make_user("out")).get(f"/api/sessions/{team['session'].pk}/deliverable/")
    assert outsider.status_code == 404 and outsider.json()["error"]["details"]["resource_type"] == "SESSION"


def test_the_team_page_filters_past_sessions(client, team):
    other = make_session(owner=team["owner"], title="Hiring plan")
    plan = {**envelopes.declaration()["payload"], "template": "report-writing"}
    post_message(other, agent_in(other, "planner"), envelopes.envelope, "agent_capability_declaration", plan)
    finish(team)
    hidden = make_session(title="Not mine")
    agent_join(session=hidden, agent=team["analyst"])
    url = reverse("workspace:team")

    def titles(query=""):
        html = as_member(client, team["owner"]).get(url + query).content.decode()
        return [title for title in ("Suppliers", "Hiring plan", "Not mine") if f">{title}</a>" in html]

    assert titles() == ["Suppliers", "Hiring plan"]
    assert titles("?agent=analyst") == ["Suppliers"]
    assert titles("?member=ed") == ["Suppliers"]
    assert titles("?state=done") == ["Suppliers"]
    assert titles("?template=report-writing") == ["Hiring plan"]
    assert titles("?since=2000-01-01&until=2999-01-01") == ["Suppliers", "Hiring plan"]
    assert titles("?until=2000-01-01") == []
    refused = client.get(url + "?since=2030-01-02&until=2030-01-01")
    assert refused.status_code == 400 and "is after" in refused.content.decode()
    assert client.get(url + "?state=nonsense").status_code == 400


def test_the_rest_api_checks_criteria_and_rates_through_the_same_services(team):
    session_id = team["session"].pk
    editor = api_as(team["editor"])
    early = editor.post(f"/api/sessions/{session_id}/retrospective/ratings/", {"rating": 3}, format="json")
    assert early.status_code == 409 and early.json()["error"]["code"] == "INVALID_STATE"
    finish(team)
    checked = editor.post(
        f"/api/sessions/{session_id}/retrospective/criteria/",
        {"index": 1, "met": False, "note": "two unsourced"},
        format="json",
    )
    assert checked.status_code == 200 and checked.json()["criterion"] == "Every figure has a source"
    assert (
        editor.post(f"/api/sessions/{session_id}/retrospective/ratings/", {"rating": 3}, format="json").status_code
        == 200
    )
    for body in ({"rating": 0}, {"rating": "high"}, {}, ["rating"]):
        refused = editor.post(f"/api/sessions/{session_id}/retrospective/ratings/", body, format="json")
        assert refused.status_code == 400 and refused.json()["error"]["code"] in (
            "VALIDATION_FAILED",
            "INVALID_REQUEST",
        )
    viewer = api_as(team["viewer"]).post(
        f"/api/sessions/{session_id}/retrospective/criteria/", {"index": 0, "met": True}, format="json"
    )
    assert viewer.status_code == 403
    report = retrospective_report(session_id=session_id, caller=caller_for_user(team["owner"]))
    assert report["criteria"][1]["by"] == "ed" and report["ratings"][0]["rating"] == 3


def test_the_rest_api_searches_the_session(team):
    found = api_as(team["viewer"]).get(f"/api/sessions/{team['session'].pk}/search/?q=battery+suppliers").json()
    assert [hit["message_id"] for hit in found["hits"]] == ["t"]
    assert {part["text"] for part in found["hits"][0]["snippet"] if part["match"]} == {"battery", "suppliers"}
    assert api_as(make_user("out")).get(f"/api/sessions/{team['session'].pk}/search/?q=x").status_code == 404
