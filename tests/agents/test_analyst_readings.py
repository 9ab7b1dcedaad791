"""A question with several likely readings is asked about before it is answered: the analyst offers
each reading as an option in words, and answers the one picked as its words say."""

import csv

import pytest

from agents.operations.files import workspace_root
from agents.scheduling.plans import plan_decide
from sessions.access import caller_for_user
from sessions.models import Message
from tests.agents.teamwork import last, work_until_idle

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

# online sells bigger baskets than in store, and the east shop more than the west one
ROWS = [("east", "online", 40), ("east", "store", 30), ("west", "online", 36), ("west", "store", 10)] * 3


def attach_orders(session):
    with (workspace_root(session.pk) / "orders.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["shop", "channel", "basket_value"])
        writer.writerows(ROWS)


def approve_plan(team, goal):
    team["says"]("task_proposal", {"goal": goal, "background_context": ["attached file orders.csv"]})
    work_until_idle()
    plan = last(team["session"], "agent_capability_declaration")
    plan_decide(
        session_id=team["session"].pk,
        caller=caller_for_user(team["owner"]),
        message_id=plan["message_id"],
        approve=True,
    )
    work_until_idle()


def test_a_question_that_names_no_grouping_is_asked_about_and_the_reading_picked_is_answered(team):
    attach_orders(team["session"])
    approve_plan(team, "Analyse the attached orders CSV: Which has the highest mean basket value?")
    asked = last(team["session"], "clarification", sender="analyst")
    assert asked["payload"]["question"] == (  # asked about the question, not the errand around it
        "I can read “Which has the highest mean basket value?” in more than one way, and the answers differ. "
        "Which do you mean?"
    )
    labels = {option["label"]: option["id"] for option in asked["payload"]["options"]}
    assert set(labels) == {
        "Which shop has the highest mean basket value?",
        "Which channel has the highest mean basket value?",
    }
    assert asked["payload"]["allow_free_answer"] is True
    team["says"](
        "clarification_answer",
        {
            "clarification_message_id": asked["message_id"],
            "option_id": labels["Which channel has the highest mean basket value?"],
        },
    )
    work_until_idle()
    report = last(team["session"], "collaborative_response", sender="analyst")
    findings = report["payload"]["content"]["sections"][0]
    assert findings["body"].startswith("**online** has the highest mean basket value: **38** (n = 6)")
    assert "I read this as: the mean basket value compared across channel." in findings["body"]


def test_the_deliverable_waits_for_the_reading_picked_and_is_written_from_its_answer(team):
    attach_orders(team["session"])
    approve_plan(team, "Which has the highest mean basket value?")
    writer = Message.objects.filter(session=team["session"], sender_id="scribe", payload_type="collaborative_response")
    assert not writer.exists()  # nothing to write up while the analyst waits for the person's pick
    asked = last(team["session"], "clarification", sender="analyst")
    team["says"](
        "clarification_answer",
        {"clarification_message_id": asked["message_id"], "option_id": asked["payload"]["options"][1]["id"]},
    )
    work_until_idle()
    assert writer.count() == 1
    sections = writer.get().envelope["payload"]["content"]["sections"]
    assert "the analysis finds: online has the highest mean basket value: 38" in sections[0]["body"]
    assert "what-changed" not in [s["id"] for s in sections]  # written once: nothing changed since


def test_a_question_read_in_full_is_answered_without_asking(team):
    attach_orders(team["session"])
    approve_plan(team, "Which shop has the highest mean basket value?")
    assert not Message.objects.filter(session=team["session"], payload_type="clarification").exists()
    findings = last(team["session"], "collaborative_response", sender="analyst")["payload"]["content"]["sections"][0]
    assert findings["body"].startswith("**east** has the highest mean basket value: **35** (n = 6)")
