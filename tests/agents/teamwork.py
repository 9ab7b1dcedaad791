"""Driving the built-in team: run the workers until nothing is left, say things to it, read what it said."""

import csv

from django.test import TestCase

from agents.operations.files import workspace_root
from agents.scheduling.plans import plan_decide
from agents.worker import Worker
from sessions.access import caller_for_user
from sessions.models import Message


def work_until_idle():
    """Run ready tasks, and what their messages set off once committed, until nothing is left."""
    while True:
        with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
            ran = Worker("w", lease_s=30).run_once()
        if not ran and not callbacks:
            return


def feedback_on(team, message_id, text, kind="correction"):
    """A member's feedback of ``kind`` on a message, in words; its message id."""
    return team["says"](
        "human_feedback",
        {"target_message_id": message_id, "feedback_type": kind, "specific_instructions": {"request": text}},
    )


def last(session, payload_type, sender=None):
    rows = Message.objects.filter(session=session, payload_type=payload_type).order_by("-seq")
    rows = rows.filter(sender_id=sender) if sender else rows
    return rows.first().envelope


# Three shops with known means: east sells the most per basket, and the shops differ in items.
BASKETS = {
    "east": [(30.0 + i, 2 + i % 2) for i in range(8)],
    "west": [(20.0 + i, 4) for i in range(6)],
    "north_side": [(12.0, 1), (14.0, 1), (16.0, 2), (18.0, 2), (20.0, 3)],
}


GOAL = (
    "Analyse the baskets CSV data: which shop has the highest mean basket value, and how do the shops differ in items?"
)


def attach_baskets(session, name="baskets.csv", extra=()):
    with (workspace_root(session.pk) / name).open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["shop", "basket_value", "items"])
        writer.writerows((shop, value, items) for shop, rows in BASKETS.items() for value, items in rows)
        writer.writerows(extra)


def plan_and_run(team, goal=GOAL, attached="baskets.csv"):
    proposal = team["says"]("task_proposal", {"goal": goal, "background_context": [f"attached file {attached}"]})
    work_until_idle()
    plan = last(team["session"], "agent_capability_declaration")
    assert plan["in_reply_to"] == proposal and plan["payload"]["template"] == "data-analysis"
    owner = caller_for_user(team["owner"])
    plan_decide(session_id=team["session"].pk, caller=owner, message_id=plan["message_id"], approve=True)
    work_until_idle()
    return last(team["session"], "collaborative_response", sender="analyst")


# 20 ordinary prices and two far away: both lie more than 3 SDs from the mean of all 22.
PRICES = [10 + (i % 7) for i in range(40)] + [400.0, 450.0]
REGIONS = ["north" if i % 2 else "south" for i in range(len(PRICES))]
DAYS = [f"2026-0{1 + i % 3}-1{i % 9}" for i in range(len(PRICES))]


def write_orders(session):
    with (workspace_root(session.pk) / "orders.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["region", "day", "price"])
        writer.writerows(zip(REGIONS, DAYS, PRICES, strict=True))


def reports(session):
    """The analyst's reports, oldest first."""
    rows = Message.objects.filter(session=session, sender_id="analyst", payload_type="collaborative_response")
    return [m.envelope for m in rows.order_by("seq")]
