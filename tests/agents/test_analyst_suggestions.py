"""The analyst's report offers questions its data can answer next, and asking one gets its answer."""

import pytest

from agents.analysis.schema import Schema
from agents.behaviours.answering import request_for, with_roles
from sessions.chap.schemas import validate_payload
from tests.agents.teamwork import attach_baskets, feedback_on, last, plan_and_run, work_until_idle

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

BASKETS = Schema("baskets", [
    {"name": "shop", "type": "string", "distinct": 3, "values": ["east", "north_side", "west"]},
    {"name": "basket_value", "type": "number", "distinct": 19, "min": 12, "max": 37},
    {"name": "items", "type": "number", "distinct": 4, "min": 1, "max": 4},
], 19)  # fmt: skip


def test_the_report_offers_questions_the_analyst_reads_as_offered(team):
    attach_baskets(team["session"])
    payload = plan_and_run(team)["payload"]
    validate_payload("collaborative_response", payload)  # the CHAP schema still holds
    suggested = payload["provenance"]["suggested_questions"]
    assert 4 <= len(suggested) <= 6
    kinds = [s["kind"] for s in suggested]
    assert len(set(kinds)) == len(kinds) and "compare" not in kinds  # the goal asked the comparison already
    table = with_roles(BASKETS, {}, {})
    for s in suggested:
        assert s["table"] == "baskets"
        assert request_for(s["question"], table, []).kind == s["kind"], s["question"]
    steps = [n["description"] for n in payload["next_step_recommendations"]]
    assert [f"Ask: {s['question']}" for s in suggested] == steps[1:]


def test_a_suggested_question_asked_as_a_new_direction_is_answered(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)
    question = next(s["question"] for s in report["payload"]["provenance"]["suggested_questions"]
                    if s["kind"] == "significance")  # fmt: skip
    feedback_on(team, report["message_id"], question, kind="new_direction")
    work_until_idle()
    answer = last(team["session"], "collaborative_response", sender="analyst")["payload"]
    assert answer["provenance"]["findings"]["kind"] == "significance"
    lead = answer["content"]["sections"][0]["body"].split("\n", 1)[0]
    assert "statistically significant" in lead
    assert question in [a["asked"] for a in answer["provenance"]["answers"]]
    assert question not in [s["question"] for s in answer["provenance"]["suggested_questions"]]
    kinds = [s["kind"] for s in answer["provenance"]["suggested_questions"]]
    assert "compare" not in kinds and "significance" not in kinds  # neither the goal's question nor this one
    first, second = answer["provenance"]["answers"]
    assert first["settings"] == second["settings"]  # the earlier answer still stands: nothing was corrected


def test_every_suggestion_is_answered_as_the_kind_it_was_offered_as(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)
    for suggestion in report["payload"]["provenance"]["suggested_questions"]:
        feedback_on(team, report["message_id"], suggestion["question"], kind="new_direction")
        work_until_idle()
        answer = last(team["session"], "collaborative_response", sender="analyst")["payload"]
        findings = answer["content"]["sections"][0]
        assert answer["provenance"]["findings"]["kind"] == suggestion["kind"], suggestion["question"]
        assert not findings["body"].startswith("I could not answer"), suggestion["question"]
        assert findings["confidence"] >= 0.5, (suggestion["question"], findings["body"][:200])
