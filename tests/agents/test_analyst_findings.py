"""The analyst answers the question asked: its Findings lead with the named answer, its figure and
effect size, then the chart; every figure is traceable to the stats operation that computed it."""

import csv
import math
import random
import re
import statistics

import pytest

from agents.models import Agent, Task
from agents.operations.files import workspace_root
from tests.agents.teamwork import attach_baskets, last, plan_and_run, work_until_idle
from workspace.markdown import render_markdown

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def findings_of(report):
    first = report["payload"]["content"]["sections"][0]
    assert first["id"] == "findings"
    return first


def lead(section):
    return section["body"].split("\n", 1)[0].replace("**", "")


def test_the_report_leads_with_the_answer_its_figure_the_test_and_a_chart(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)
    found = findings_of(report)
    # east 33.5, west 22.5, north_side 16: east is 11 above the runner-up, and north_side lowest.
    assert lead(found) == (
        "east has the highest mean basket value: 33.50 (n = 8), 11 more than west (22.50); "
        "the lowest is north_side at 16."
    )
    assert "- one-way ANOVA on the groups: F = " in found["body"] and "eta squared = " in found["body"]
    assert "- items: " not in found["body"] and "mean items: 4 (n = 6)" in found["body"]  # the second measure asked
    assert report["payload"]["provenance"]["findings"]["kind"] == "compare"
    assert report["payload"]["provenance"]["findings"]["group"] == "shop"
    html = render_markdown(found["body"], team["session"].pk)
    assert html.count('data-testid="chart"') == 1 and 'alt="Bar chart of the mean basket value in each shop' in html
    assert "<details><summary>How this was computed</summary>" in html and "@@query:stats.compare#q" in html


def test_the_sources_name_the_file_the_table_and_the_operation_never_the_storage(team):
    attach_baskets(team["session"])
    report = plan_and_run(team)["payload"]
    citations = [m["citation"] for m in report["supporting_materials"]]
    assert citations and all(c.startswith("baskets.csv (table baskets), ") for c in citations)
    assert any("the table's profile: each column's type" in c for c in citations)
    assert any(c.startswith("baskets.csv (table baskets), the operation stats.compare: ") for c in citations)
    for material in report["supporting_materials"]:
        assert not re.search(r"\bs_[0-9a-f]{6,}__", str(material))


def test_a_lowest_question_is_answered_with_the_lowest_group(team):
    attach_baskets(team["session"])
    report = plan_and_run(team, "Analyse the baskets CSV data: which shop has the lowest average items?")
    assert lead(findings_of(report)).startswith("north_side has the lowest mean items: 1.800 (n = 5)")


def test_a_question_about_a_column_the_table_lacks_says_so_with_low_confidence(team):
    attach_baskets(team["session"])
    found = findings_of(plan_and_run(team, "Analyse the baskets CSV data: which shop has the happiest customers?"))
    assert lead(found).startswith("I could not answer this from baskets: I cannot tell which number column")
    assert "basket value, items" in found["body"] and found["confidence"] <= 0.2


def wide_measurements(session, rows=120):
    """30 measurements of two diagnoses; m17 differs by about two SDs, m04 by about one, the rest barely."""
    generator = random.Random(7)
    names = [f"m{i:02d}_size" for i in range(30)]
    with (workspace_root(session.pk) / "tumours.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["diagnosis", *names])
        for index in range(rows):
            diagnosis = "malignant" if index % 3 == 0 else "benign"
            shift = {"m17_size": 2.0, "m04_size": 1.0} if diagnosis == "malignant" else {}
            writer.writerow([diagnosis, *(round(generator.gauss(shift.get(n, 0.0), 1.0), 4) for n in names)])
    return names


def cohens_d(session, column):
    with (workspace_root(session.pk) / "tumours.csv").open() as source:
        table = list(csv.DictReader(source))
    a = [float(r[column]) for r in table if r["diagnosis"] == "malignant"]
    b = [float(r[column]) for r in table if r["diagnosis"] == "benign"]
    pooled = ((len(a) - 1) * statistics.variance(a) + (len(b) - 1) * statistics.variance(b)) / (len(a) + len(b) - 2)
    return (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(pooled)


def test_thirty_measurements_are_ranked_by_how_much_they_differ_between_the_diagnoses(team):
    wide_measurements(team["session"])
    question = "Which measurements differ most between the two diagnoses, and by how much?"
    report = plan_and_run(team, question, attached="tumours.csv")
    found = findings_of(report)
    expected = cohens_d(team["session"], "m17_size")
    assert lead(found).startswith(
        f"The measure that differs most between benign and malignant is m17 size: |Cohen's d| = {abs(expected):.3f}"
    )
    assert "- m04 size: " in found["body"].split("```")[0]  # the runner-up is named next
    statistics_section = next(s for s in report["payload"]["content"]["sections"] if s["id"] == "tumours-statistics")
    assert statistics_section["body"].count("_size |") == 30  # every measurement described, no query limit hit


def test_a_refinement_asking_for_the_median_redoes_the_findings_with_medians(team):
    attach_baskets(team["session"])
    first = plan_and_run(team, "Analyse the baskets CSV data: which shop has the highest basket value?")
    team["says"](
        "human_feedback",
        {
            "target_message_id": first["message_id"],
            "feedback_type": "refinement",
            "specific_instructions": {"request": "Use the median instead of the mean"},
        },
    )
    work_until_idle()
    redone = last(team["session"], "collaborative_response", sender="analyst")
    assert redone["message_id"] != first["message_id"]
    assert lead(findings_of_any(redone)).startswith("east has the highest median basket value: 33.50 (n = 8)")
    answer, changed = redone["payload"]["content"]["sections"][:2]  # the answer first, then what changed
    assert answer["id"] == "findings"
    assert changed["id"] == "what-changed" and "could not act" not in changed["body"]
    assert (
        "- The answer to “Analyse the baskets CSV data: which shop has the highest basket value?” is now: "
        "east has the highest median basket value: 33.50; it was: east has the highest mean basket value: 33.50."
    ) in changed["body"]
    assert "No figure changed" not in changed["body"]


def findings_of_any(report):
    return next(s for s in report["payload"]["content"]["sections"] if s["id"] == "findings")


def test_an_analysis_without_a_question_still_answers_what_it_can(team):
    attach_baskets(team["session"])
    Task.objects.create(session=team["session"], title="Analyse", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    found = findings_of(last(team["session"], "collaborative_response", sender="analyst"))
    assert found["body"].startswith("No question was asked, so the sections below profile and describe baskets")


def test_a_question_comparing_groups_finds_outliers_within_each_group_not_the_difference(team):
    # 200 small things around 10 and one odd one at 20; 8 big things around 100. Against the pooled
    # mean every big thing would be an outlier; within its own kind only the 20 is.
    things = [("small", 10.0 + (i % 5 - 2)) for i in range(200)] + [("small", 20.0)]
    things += [("big", 100.0 + i % 3) for i in range(8)]
    with (workspace_root(team["session"].pk) / "things.csv").open("w", newline="") as out:
        csv.writer(out).writerows([("kind", "size"), *things])
    report = plan_and_run(team, goal="Analyse the things CSV data: which kind has the highest mean size?",
                          attached="things.csv")  # fmt: skip
    [question] = report["payload"]["open_questions_for_human"]
    assert question == (
        "Far from the rest of their kind group: 1 value of size (20.0 in small). Leave them out of the figures?"
    )
    [statistics_section] = [s for s in report["payload"]["content"]["sections"] if s["id"] == "things-statistics"]
    assert "| 1 kept: 20.0 |" in statistics_section["body"]
    assert "more than 3 SDs from the mean of its kind group" in statistics_section["body"]
    team["says"](
        "clarification_answer",
        {"clarification_message_id": report["message_id"], "question_index": 0, "free_answer": "Yes, leave them out"},
    )
    work_until_idle()
    revised = last(team["session"], "collaborative_response", sender="analyst")
    [statistics_section] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "things-statistics"]
    assert "| 1 left out: 20.0 |" in statistics_section["body"]
    assert "| size | 208 |" in statistics_section["body"]  # only the odd small thing left out, every big one kept


def test_a_sentence_asking_two_questions_answers_the_first_and_says_the_second_needs_its_own(team):
    attach_baskets(team["session"])
    goal = "Analyse the baskets CSV data: which shop has the highest mean basket value, and are items related to it?"
    found = findings_of(plan_and_run(team, goal))
    assert lead(found).startswith("east has the highest mean basket value: 33.50")
    assert found["body"].split("\n")[1] == (
        "- This answers the first part of your question; “are items related to it?” needs a question of its own: "
        "ask it and I will answer it."
    )


def test_a_paired_test_asked_of_rows_that_do_not_pair_says_so_and_is_not_sure(team):
    rows = [("A", "spring", 60 + i, f"p{i}") for i in range(12)] + [("B", "autumn", 62 + i, f"q{i}") for i in range(12)]
    lines = ["athlete,meeting,points"] + [f"{name},{meeting},{points}" for _, meeting, points, name in rows]
    (workspace_root(team["session"].pk) / "meets.csv").write_text("\n".join(lines) + "\n")
    goal = "Analyse the meets CSV: comparing each athlete with himself, are the points significantly higher in autumn?"
    found = findings_of(plan_and_run(team, goal, attached="meets.csv"))
    assert "the rows do not pair up" in found["body"] and found["confidence"] <= 0.5
