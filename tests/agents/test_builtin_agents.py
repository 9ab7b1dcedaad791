"""The built-in agents doing real, checkable work, set off by what humans write."""

import csv
import io
import json
import statistics
from datetime import UTC, date, datetime, timedelta

import pytest

from agents.behaviours.planning import constraints_from, plan_for, rank_templates, vague_because
from agents.behaviours.reviewer import review
from agents.models import Agent, Task, TaskState
from agents.operations.files import workspace_root
from agents.reactions import reactions_run
from agents.task_templates import DEFAULT_TEMPLATES
from agents.tokens import token_issue
from sessions.access import caller_for_agent
from sessions.graphs import graph_cache
from sessions.log import message_post_at_head
from sessions.models import Message, WorkSession
from tests.agents.sap_calls import block, sap
from tests.agents.teamwork import feedback_on, last, work_until_idle

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
TEMPLATES = {t["slug"]: t for t in DEFAULT_TEMPLATES}
SALES = [
    ("region", "amount", "units"),
    *[("north", 10 + i, i % 3) for i in range(12)],
    *[("south", 40 + 2 * i, 5) for i in range(9)],
    ("east", 7, 1),
]


# -- the planning core -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("goal", "slug"),
    [
        ("Compare our product with three competitors on features and pricing", "competitive-analysis"),
        ("Analyse the attached sales CSV: which region sells most per unit?", "data-analysis"),
        ("Review the pull request that adds caching to the billing service", "code-review"),
        ("What do published studies say about battery recycling rates?", "literature-review"),
        ("Write a two page memo for the board on the reorganisation", "report-writing"),
    ],
)
def test_clear_goals_match_their_template(goal, slug):
    ranked = rank_templates(goal, DEFAULT_TEMPLATES)
    assert ranked[0].slug == slug and vague_because(goal, ranked) is None


@pytest.mark.parametrize("goal", ["make it better", "help with the project", "look into things"])
def test_vague_goals_are_recognised(goal):
    assert vague_because(goal, rank_templates(goal, DEFAULT_TEMPLATES)) is not None


def test_answers_become_constraints():
    now = date(2026, 12, 2)
    found = constraints_from(
        "By tomorrow please, for technical and management readers, 3 pages", now=datetime(2026, 12, 2, 9)
    )
    assert found == {
        "deadline": (now + timedelta(days=1)).isoformat(),
        "audience": "technical and management readers",
        "length": "3 pages",
    }


def test_a_plan_keeps_the_templates_approval_checkpoints():
    plan = plan_for(TEMPLATES["competitive-analysis"])
    assert [s["step"] for s in plan if s["requires_approval"]] == [1, 7]
    assert plan[2] == {
        "step": 3, "action": "Build the feature comparison matrix", "output": "feature matrix",
        "requires_approval": False, "required_capability": "analysis",
    }  # fmt: skip


# -- the planner in a session --------------------------------------------------------------------


def test_a_clear_proposal_gets_a_plan_from_its_template(team):
    proposal = team["says"]("task_proposal", {"goal": "Compare our product with competitors on features and pricing"})
    assert reactions_run()  # the worker, after the request: the proposal calls for a plan
    assert Task.objects.filter(source_message_id=proposal, agent__name="planner").exists()
    work_until_idle()
    declared = last(team["session"], "agent_capability_declaration")
    payload = declared["payload"]
    assert declared["in_reply_to"] == proposal and payload["template"] == "competitive-analysis"
    assert payload["template_similarity"] > 0.3 and len(payload["proposed_plan"]) == 7
    assert payload["can_do"][0]["limitation"].startswith("plans from templates only")


def test_a_vague_proposal_gets_a_question_and_the_answer_a_plan_with_constraints(team):
    proposal = team["says"]("task_proposal", {"goal": "Make our numbers better"})
    work_until_idle()
    asked = last(team["session"], "clarification")
    assert asked["in_reply_to"] == proposal and 2 <= len(asked["payload"]["options"]) <= 3
    assert not Message.objects.filter(session=team["session"], payload_type="agent_capability_declaration").exists()
    team["says"](
        "clarification_answer",
        {
            "clarification_message_id": asked["message_id"],
            "option_id": "data-analysis",
            "free_answer": "I need it tomorrow, for technical and management readers",
        },
    )
    work_until_idle()
    payload = last(team["session"], "agent_capability_declaration")["payload"]
    assert payload["template"] == "data-analysis"
    assert payload["constraints"]["audience"] == "technical and management readers"
    assert payload["constraints"]["deadline"] == (datetime.now(UTC).date() + timedelta(days=1)).isoformat()


@pytest.mark.parametrize(
    "proposal",
    [
        {"goal": "Look into the numbers for us", "template": "data-analysis"},
        {"goal": "Find out whether mean radius differs between malignant and benign tumours",
         "background_context": ["attached file attachments/cancer.csv"]},
        {"goal": "Is the mean area higher in malignant tumours?", "background_context": ["attached file a/b.csv"]},
    ],
)  # fmt: skip
def test_a_stated_kind_of_task_or_a_question_of_attached_data_is_planned_without_asking(team, proposal):
    team["says"]("task_proposal", proposal)
    work_until_idle()
    assert not Message.objects.filter(session=team["session"], payload_type="clarification").exists()
    assert last(team["session"], "agent_capability_declaration")["payload"]["template"] == "data-analysis"


def test_a_corrected_plan_is_planned_again_with_the_correction(team):
    team["says"]("task_proposal", {"goal": "Compare our product with competitors on features and pricing"})
    work_until_idle()
    first = last(team["session"], "agent_capability_declaration")
    correction = feedback_on(team, first["message_id"], "It is for the sales team, due next Friday")
    work_until_idle()
    again = last(team["session"], "agent_capability_declaration")
    assert again["in_reply_to"] == correction and again["message_id"] != first["message_id"]
    assert again["payload"]["constraints"]["audience"] == "the sales team"
    assert again["payload"]["constraints"]["other"] == [
        "planned again after the correction: It is for the sales team, due next Friday"
    ]


def test_a_new_direction_on_the_proposal_is_answered_with_a_new_plan(team):
    proposal = team["says"]("task_proposal", {"goal": "Compare our product with competitors on features and pricing"})
    work_until_idle()
    turn = feedback_on(
        team, proposal, "Analyse our sales data CSV instead: totals and averages by region", "new_direction"
    )
    work_until_idle()
    again = last(team["session"], "agent_capability_declaration")
    assert again["in_reply_to"] == turn and again["payload"]["template"] == "data-analysis"


# -- the analyst ------------------------------------------------------------------------------


def attach_sales(session):
    out = io.StringIO()
    csv.writer(out).writerows(SALES)
    (workspace_root(session.pk) / "sales.csv").write_text(out.getvalue())


def analyse(team):
    attach_sales(team["session"])
    Task.objects.create(session=team["session"], title="Analyse the sales", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    return last(team["session"], "collaborative_response", sender="analyst")


def test_the_analysts_figures_are_the_true_statistics(team):
    report = analyse(team)["payload"]
    amounts = [float(row[1]) for row in SALES[1:]]
    body = report["content"]["body"]
    mean = str(round(statistics.fmean(amounts), 2))
    sd = round(statistics.pstdev(amounts), 2)
    assert f"| amount | {len(amounts)} | {mean} | {sd} | 7.0 | 56.0 | {sum(amounts)} |" in body
    north = [float(r[1]) for r in SALES[1:] if r[0] == "north"]
    assert f"| north | 12 | {round(statistics.fmean(north), 2)} |" in body
    titles = [s["title"] for s in report["content"]["sections"]]
    assert titles == [
        "Findings",
        "Data as read",
        "Column profiles: sales",
        "Descriptive statistics: sales",
        "Group comparison: sales by region",
    ]
    assert all(0 < s["confidence"] <= 1 for s in report["content"]["sections"])
    assert any("fewer than 5 rows" in u["aspect"] for u in report["uncertainties"])  # "east" has one row
    assert report["provenance"]["ai_generated"] is True and report["provenance"]["agent"] == "analyst"


STATISTICS = ("n", "mean", "min", "max", "sum", "sd")


def figures_returned(operation, request, body):
    """The figures an answer holds, under the keys the analyst files them by: each column's statistics
    from stats.describe, each group's row count and means from a grouped dataset.query."""
    table = request["table"]
    if operation == "stats.describe":
        return {f"{table}|stat|{c['column']}|{key}": c[key] for c in body["columns"] for key in STATISTICS}
    if operation != "dataset.query" or not request.get("group_by"):
        return {}
    [by] = request["group_by"]
    _, _, *means = body["columns"]
    figures = {}
    for group, n, *values in body["rows"]:
        figures[f"{table}|group|{by}|{group}|n"] = n
        figures |= {
            f"{table}|group|{by}|{group}|{mean.removeprefix('mean_')}": v for mean, v in zip(means, values, strict=True)
        }
    return figures


def test_every_cited_query_reproduces_its_figures(team):
    report = analyse(team)["payload"]
    analyst = Task.objects.get(title="Analyse the sales").agent
    world = {"session": team["session"], "token": token_issue(agent=analyst)}
    returned = {}
    for material in report["supporting_materials"]:
        operation, request = material["query"]["operation"], material["query"]["request"]
        [answer] = sap(world, block("query", operation, json.dumps(request), "q"))
        assert answer.type == "result"
        returned |= figures_returned(operation, request, answer.body)
    cited = {key: value for key, (_label, value) in report["provenance"]["figures"].items()}
    assert len(cited) == 21  # 6 statistics of 2 columns, and the rows and 2 means of 3 regions
    assert cited == {key: None if value is None else round(float(value), 2) for key, value in returned.items()}


def test_a_correction_makes_the_analyst_redo_its_work_and_say_what_changed(team):
    report = analyse(team)
    corrected = [("region", "amount", "units"), ("north", 100, 1), ("north", 120, 2), ("south", 90, 3)]
    out = io.StringIO()
    csv.writer(out).writerows(corrected)
    (workspace_root(team["session"].pk) / "sales_corrected.csv").write_text(out.getvalue())
    correction = team["says"](
        "human_feedback",
        {
            "target_message_id": report["message_id"],
            "target_part": {"kind": "assumption", "index": 0},
            "feedback_type": "correction",
            "specific_instructions": {"request": "sales.csv was wrong: use sales_corrected.csv"},
        },
    )
    session = WorkSession.objects.get(pk=team["session"].pk)
    assert graph_cache.entry(session).graph.graph.nodes[report["message_id"]]["status"] == "needs_review"
    assert reactions_run()  # the worker, after the request: the correction calls for a redo
    redo = Task.objects.get(source_message_id=correction)
    assert redo.agent.name == "analyst"
    work_until_idle()
    revised = last(team["session"], "collaborative_response", sender="analyst")
    assert revised["in_reply_to"] == correction and Task.objects.get(pk=redo.pk).state == TaskState.DONE
    body = revised["payload"]["content"]["body"]
    [changed] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "what-changed"]
    assert "- I analysed only sales_corrected." in changed["body"]
    assert "- New data: table sales_corrected." in changed["body"]
    assert "- No longer analysed: table sales." in changed["body"]
    assert "## What changed" in body and "Analysis of sales_corrected" in body


def trend_section(team, rows, title):
    """The analyst's trend section of a visits.csv of ``rows``."""
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    (workspace_root(team["session"].pk) / "visits.csv").write_text(out.getvalue())
    Task.objects.create(session=team["session"], title="Analyse visits", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    report = last(team["session"], "collaborative_response", sender="analyst")["payload"]
    [trend] = [s for s in report["content"]["sections"] if s["title"] == title]
    return trend


def test_the_analyst_follows_a_date_column_as_a_trend(team):
    rows = [("day", "visits"), ("2026-01-01", 10), ("2026-01-01", 14), ("2026-01-02", 20), ("2026-01-03", 31)]
    trend = trend_section(team, rows, "Trend: visits over day")
    assert "| 2026-01-01 | 2 | 12.0 |" in trend["body"]
    assert "Mean visits went from 12.0 on 2026-01-01 to 31.0 on 2026-01-03 (19.0)." in trend["body"]


def test_a_date_column_of_many_days_is_followed_per_month(team):
    days = [date(2025, 1, 1) + timedelta(days=n) for n in range(90)]
    rows = [("day", "visits"), *((d.isoformat(), 100 + d.month * 10) for d in days)]
    trend = trend_section(team, rows, "Trend: visits over day, per month")
    assert "| 2025-02 | 120.0 |" in trend["body"]
    assert "Mean visits per month went from 110.0 in 2025-01 to 130.0 in 2025-03 (20.0)." in trend["body"]


def test_a_corrected_brief_is_written_again_and_says_so(team):
    Task.objects.create(session=team["session"], title="Brief us", agent=Agent.objects.get(name="scribe"))
    work_until_idle()
    brief = last(team["session"], "collaborative_response", sender="scribe")
    team["says"](
        "human_feedback",
        {"target_message_id": brief["message_id"], "feedback_type": "correction", "provided_context": "Q4, not Q3"},
    )
    work_until_idle()
    again = last(team["session"], "collaborative_response", sender="scribe")
    assert again["message_id"] != brief["message_id"]
    assert "## What changed\n\nWritten again after the correction: Q4, not Q3" in again["payload"]["content"]["body"]


# -- the reviewer -----------------------------------------------------------------------------


def test_the_reviewer_finds_missing_sections_unsourced_claims_and_low_confidence():
    deliverable = {
        "content": {
            "body": "## Competitors\nAcme and Bolt.\n## Feature matrix\nAcme has 3 of 5 features.\n## Recommendations\nBuy.",
            "sections": [{"id": "rec", "title": "Recommendations", "body": "Buy.", "confidence": 0.3}],
        },
        "confidence_score": 0.6,
    }
    findings = review(
        deliverable, TEMPLATES["competitive-analysis"]["deliverable_sections"], ["pricing of each competitor"]
    )
    kinds = {(f["kind"], f["title"]) for f in findings}
    assert ("missing_section", "Missing section: SWOT analysis") in kinds
    assert ("missing_section", "Missing section: Market dynamics") in kinds
    assert ("missing_section", "Missing section: Competitors") not in kinds
    assert ("low_confidence", "Low confidence: Recommendations") in kinds
    assert any(kind == "unsourced_claims" for kind, _ in kinds)
    assert ("criterion_unaddressed", "Success criterion not evidently met: pricing of each competitor") in kinds


CHICKS = {"Chick": "identifier", "Diet": "category", "weight": "measure", "Time": "time"}


def analysed(team, request, lead, confidence=0.9, question="Which diet gives the heaviest chicks on average?", **more):
    """An analyst's report that read ``question`` as ``request`` and led with ``lead``; its message id."""
    return message_post_at_head(
        session_id=team["session"].pk,
        caller=caller_for_agent(Agent.objects.get(name="analyst")),
        payload_type="collaborative_response",
        payload={
            "content": {
                "body": f"# Analysis of chicks\n\n## Findings\n\n{lead}",
                "sections": [{"id": "findings", "title": "Findings", "body": lead, "confidence": confidence}],
            },
            "supporting_materials": [{"type": "session_message", "citation": "chicks.csv"}],
            "confidence_score": confidence,
            "provenance": {
                "behaviour": "analyst",
                "question": question,
                "findings": {"kind": "compare", "table": "chicks", **request},
                "roles": {"chicks": CHICKS},
                **more,
            },
        },
    ).message_id


def reviewed(team, request, lead, confidence=0.9, **more):
    """The reviewer's review of an analyst's report (``analysed``)."""
    report = analysed(team, request, lead, confidence, **more)
    reviewer = Agent.objects.get(name="reviewer")
    Task.objects.create(session=team["session"], title="Review", agent=reviewer, source_message_id=report)
    work_until_idle()
    return last(team["session"], "collaborative_response", sender="reviewer")["payload"]


def test_the_reviewer_finds_an_identifier_analysed_in_place_of_the_measure_the_question_names(team):
    review = reviewed(team, {"measures": ["Chick"], "group": "Diet"}, "**4** has the highest mean Chick: 45.53")
    titles = [s["title"] for s in review["content"]["sections"]]
    assert titles[:3] == [
        "The question names weight but the answer does not use it",
        "Chick is an identifier, analysed as the measure",
        "The answer's confidence, 0.9, is too high",
    ]
    body = review["content"]["body"]
    assert "No problems found" not in body
    assert "The answer may not answer the question asked: 3 problems with the answer." in body
    assert body.startswith("# Review of the report by analyst against the question it answers and no template\n")
    assert "“heaviest” names the column weight; the answer computed the mean of Chick by Diet, over every row." in body
    assert review["provenance"]["verdict"].startswith("The answer may not answer the question asked")
    assert review["open_questions_for_human"] == [
        "Should the analyst answer again, with the question read as you meant it?"
    ]


def test_the_reviewer_finds_no_problems_in_a_right_answer_and_says_what_it_checked(team):
    review = reviewed(team, {"measures": ["weight"], "group": "Diet"}, "**3** has the highest mean weight: 142.9")
    [checked] = review["content"]["sections"]
    assert checked["title"] == "What was checked"
    assert checked["body"] == (
        "No problems found. Checked: the answer uses Diet and weight as the question names them; no identifier "
        "or constant analysed (Chick left out); the answer groups as the question does (by Diet); the question "
        "states no year or filter that the answer leaves out; the proposal states no success criteria."
    )
    assert review["content"]["body"].split("\n\n")[1] == "No problems found."
    assert review["open_questions_for_human"] == []


def test_the_reviewer_checks_every_question_the_analysis_keeps_the_answer_of(team):
    asked = "Which diet gives the heaviest chicks on average?"
    first = analysed(team, {"measures": ["Chick"], "group": "Diet"}, "**4** has the highest mean Chick: 45.53")
    answers = [{"asked": asked, "report": first}, {"asked": "And over time?", "report": "this one"}]
    review = reviewed(
        team,
        {"kind": "trend", "measures": ["weight"], "time": "Time"},
        "The mean weight rose from 41.06 at 0 to 218.7 at 21",
        question="How did the weight of the chicks change over time?",
        answers=answers,
    )
    titles = [s["title"] for s in review["content"]["sections"]]
    assert f"Chick is an identifier, analysed as the measure (question 1, “{asked}”)" in titles
    assert titles[-1] == "What was checked" and not any("question 2" in t for t in titles)  # the second passes
    assert (
        "for question 2, “How did the weight of the chicks change over time?”: the answer uses weight and Time as "
        "the question names them; no identifier or constant analysed (Chick left out)"
    ) in review["content"]["sections"][-1]["body"]


# -- safety -----------------------------------------------------------------------------------


def test_agent_content_is_filtered_for_secrets_and_flagged_for_personal_data(team):
    agent = Agent.objects.get(name="scribe")
    ack = message_post_at_head(
        session_id=team["session"].pk,
        caller=caller_for_agent(agent),
        payload_type="collaborative_response",
        payload={
            "content": {"body": "Use key sk-abcdefghijklmnopqrstuvwx and password: hunter2; mail ann@example.com"},
            "confidence_score": 0.5,
        },
    )
    payload = Message.objects.get(session=team["session"], message_id=ack.message_id).envelope["payload"]
    assert payload["content"]["body"] == "Use key [redacted] and password: [redacted] mail ann@example.com"
    assert payload["provenance"]["safety"] == {"redacted": {"api_key": 1, "password": 1}, "flags": ["email"]}
    assert payload["provenance"]["ai_generated"] is True and payload["provenance"]["version"]
