"""The analyst's report answers the goal's question in words, every figure traceable to its query,
its sources named as a person would, and its questions gathered into one."""

import csv
import re
import statistics

import pytest

from agents.operations.files import workspace_root
from agents.scheduling import plan_approve
from sessions.access import caller_for_user
from tests.agents import test_builtin_agents
from tests.agents.test_builtin_agents import last, work_until_idle
from workbench.workspace.markdown import render_markdown

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
team = test_builtin_agents.team

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


def mean(shop, index):
    return round(statistics.fmean(row[index] for row in BASKETS[shop]), 2)


def plan_and_run(team, goal=GOAL):
    proposal = team["says"]("task_proposal", {"goal": goal})
    work_until_idle()
    plan = last(team["session"], "agent_capability_declaration")
    assert plan["in_reply_to"] == proposal and plan["payload"]["template"] == "data-analysis"
    plan_approve(session_id=team["session"].pk, caller=caller_for_user(team["owner"]), message_id=plan["message_id"])
    work_until_idle()
    return last(team["session"], "collaborative_response", sender="analyst")


def test_the_report_leads_with_the_answer_named_group_value_and_differences(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)["payload"]
    first = report["content"]["sections"][0]
    assert first["id"] == "findings" and 0 < first["confidence"] <= 1
    east, west, north = mean("east", 0), mean("west", 0), mean("north_side", 0)
    assert f"**east has the highest mean basket value: {east}** (8 rows)." in first["body"]
    assert f"{round(east - west, 2)} more than west ({west}, " in first["body"]
    assert f"{round(east - north, 2)} more than north_side ({north}, " in first["body"]
    items = {shop: mean(shop, 1) for shop in BASKETS}
    ranked = sorted(items, key=items.get, reverse=True)
    gap = round(items[ranked[0]] - items[ranked[-1]], 2)
    assert f"In mean items, {ranked[0]} is highest and {ranked[-1]} lowest, {gap} apart" in first["body"]
    assert report["provenance"]["findings"] == {
        "table": "baskets",
        "group": "shop",
        "measures": ["basket_value", "items"],
        "highest": True,
    }
    # The figures are traceable: a folded note names the source and gives the query to run again.
    html = render_markdown(first["body"])
    assert "<details><summary>How this was computed</summary>" in html
    assert "Source: baskets.csv (table baskets), a query." in html and "@@query:dataset.query#q" in html


def test_the_sources_name_the_file_the_table_and_the_operation_never_the_storage(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)["payload"]
    citations = [m["citation"] for m in report["supporting_materials"]]
    assert citations and all(c.startswith("baskets.csv (table baskets), ") for c in citations)
    assert "baskets.csv (table baskets), the table's profile: each column's type" in citations[0]
    for material in report["supporting_materials"]:
        assert "sql" not in material["query"] or "%s" not in str(material["query"])
        assert not re.search(r"\bs_[0-9a-f]{6,}__", str(material))


def test_a_lowest_question_is_answered_with_the_lowest_group(team):
    attach_baskets(team["session"])
    report = plan_and_run(team, "Analyse the baskets CSV data: which shop has the lowest average items?")["payload"]
    first = report["content"]["sections"][0]
    assert f"**north_side has the lowest mean items: {mean('north_side', 1)}** (5 rows)." in first["body"]
    assert "Careful" not in first["body"]  # every shop has five rows or more
