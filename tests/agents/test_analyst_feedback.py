"""The analyst acts on what people tell it: corrections and answers change exactly the figures they
should, it says what changed, and it says plainly what it could not do."""

import csv
import statistics

import pytest

from agents.behaviours.instructions import Column, empty_settings, understand
from agents.models import Agent, Task
from agents.operations.files import workspace_root
from sessions.graphs import graph_cache
from sessions.models import Message, WorkSession
from tests.agents.teamwork import DAYS, PRICES, REGIONS, feedback_on, reports, work_until_idle, write_orders

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def statistics_row(report, column="price"):
    [section] = [s for s in report["payload"]["content"]["sections"] if s["id"] == "orders-statistics"]
    return next(line for line in section["body"].splitlines() if line.startswith(f"| {column} |")), section["body"]


def cells(row):
    return [cell.strip() for cell in row.strip("|").split("|")]


@pytest.fixture
def first_report(team):
    write_orders(team["session"])
    Task.objects.create(session=team["session"], title="Analyse the orders", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    [report] = reports(team["session"])
    return report


def test_the_report_says_which_sd_it_is_and_asks_about_the_outliers_naming_their_values(first_report):
    row, body = statistics_row(first_report)
    assert "| column | n | mean | SD (population) |" in body
    assert cells(row)[3] == str(round(statistics.pstdev(PRICES), 2))
    assert cells(row)[7] == "2 kept: 400.0 and 450.0"
    assert "more than 3 SDs from its column's mean" in body
    [question] = first_report["payload"]["open_questions_for_human"]
    assert question == "Far from the rest: 2 values of price (450.0 and 400.0). Leave them out of the figures?"
    [asked] = first_report["payload"]["provenance"]["questions"]
    assert asked["about"] == "outliers"
    # The bounds are the question's folded details; no price is negative, so there is no bound below zero.
    high = statistics.mean(PRICES) + 3 * statistics.pstdev(PRICES)
    assert f"price in orders: 2 values above {round(high, 2)}" in asked["details"]
    assert "outside" not in asked["details"] and "Yes leaves them out; no keeps them." in asked["details"]
    # The sources say in words what each query computes; the SQL stays in the query, for re-running.
    assert all("%s" not in m["citation"] for m in first_report["payload"]["supporting_materials"])


def test_a_correction_to_the_sample_sd_changes_the_sd_says_so_figure_by_figure_and_asks_nothing_again(
    team, first_report
):
    team["says"](
        "human_feedback",
        {
            "target_message_id": first_report["message_id"],
            "feedback_type": "correction",
            "specific_instructions": {"request": "Use the sample standard deviation"},
        },
    )
    work_until_idle()
    revised = reports(team["session"])[-1]
    row, body = statistics_row(revised)
    sample, population = round(statistics.stdev(PRICES), 2), round(statistics.pstdev(PRICES), 2)
    assert "SD (sample)" in body and cells(row)[3] == str(sample)
    assert cells(row)[2] == str(round(statistics.fmean(PRICES), 2))  # the mean did not move
    [changed] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "what-changed"]
    assert "You asked: “Use the sample standard deviation”." in changed["body"]
    assert "- I used the sample standard deviation (dividing by n - 1)." in changed["body"]
    assert f"| orders: SD of price | {population} | {sample} |" in changed["body"]
    assert "mean price" not in changed["body"]
    # The thread shows the answer first, then what changed.
    assert [s["id"] for s in revised["payload"]["content"]["sections"][:2]] == ["findings", "what-changed"]
    assert revised["payload"]["open_questions_for_human"] == []  # asked in the first round, not again


def answer(team, report, text):
    return team["says"](
        "clarification_answer",
        {"clarification_message_id": report["message_id"], "question_index": 0, "free_answer": text},
    )


def test_yes_to_the_outlier_question_leaves_them_out_and_closes_the_question_for_good(team, first_report):
    answer(team, first_report, "Yes, leave them out")
    session = WorkSession.objects.get(pk=team["session"].pk)
    nodes = graph_cache.entry(session).graph.graph.nodes
    assert nodes[f"{first_report['message_id']}#question:0"]["status"] == "done"
    work_until_idle()
    revised = reports(team["session"])[-1]
    kept = [p for p in PRICES if p < 400]
    row, body = statistics_row(revised)
    assert cells(row)[1:4] == [
        str(len(kept)),
        str(round(statistics.fmean(kept), 2)),
        str(round(statistics.pstdev(kept), 2)),
    ]
    assert cells(row)[7] == "2 left out: 400.0 and 450.0"
    assert "Left out: the rows where price lies above" in body
    [changed] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "what-changed"]
    assert "- I left out the outlying values of price." in changed["body"]
    assert (
        f"| orders: mean price | {round(statistics.fmean(PRICES), 2)} | {round(statistics.fmean(kept), 2)} |"
        in (changed["body"])
    )
    north = [p for p, r in zip(PRICES, REGIONS, strict=True) if r == "north" and p < 400]
    assert f"| north | {len(north)} | {round(statistics.fmean(north), 2)} |" in revised["payload"]["content"]["body"]
    assert revised["payload"]["open_questions_for_human"] == []
    # A later correction keeps the decision: the outliers stay out, and nobody is asked again.
    team["says"](
        "human_feedback",
        {
            "target_message_id": revised["message_id"],
            "feedback_type": "refinement",
            "specific_instructions": {"request": "only the north region"},
        },
    )
    work_until_idle()
    third = reports(team["session"])[-1]
    row, body = statistics_row(third)
    assert cells(row)[1:3] == [str(len(north)), str(round(statistics.fmean(north), 2))]
    assert "Only the rows where region is north." in body
    assert third["payload"]["open_questions_for_human"] == []


def test_no_to_the_outlier_question_keeps_them_and_says_no_figure_changed(team, first_report):
    answer(team, first_report, "No, keep them")
    work_until_idle()
    revised = reports(team["session"])[-1]
    row, _ = statistics_row(revised)
    assert cells(row)[7] == "2 kept: 400.0 and 450.0"
    [changed] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "what-changed"]
    assert "- I kept the outlying values of price." in changed["body"] and "No figure changed." in changed["body"]
    assert revised["payload"]["open_questions_for_human"] == []


def test_an_instruction_it_cannot_act_on_is_declined_at_low_confidence_and_the_report_stands(team, first_report):
    correction = feedback_on(team, first_report["message_id"], "Make the tables prettier for the board")
    work_until_idle()
    reply = reports(team["session"])[-1]
    body = reply["payload"]["content"]["body"]
    assert "I have not changed the report" in body and "invite an agent that does it" in body
    assert "I could not act on “Make the tables prettier for the board”" in body and "What would work instead" in body
    assert "sections" not in reply["payload"]["content"] and not reply["payload"].get("open_questions_for_human")
    assert reply["payload"]["confidence_score"] <= 0.3 and reply["in_reply_to"] == correction
    nodes = graph_cache.entry(WorkSession.objects.get(pk=team["session"].pk)).graph.graph.nodes
    assert nodes[first_report["message_id"]]["status"] == "proposed"  # the correction it declined overturns nothing
    assert nodes[correction]["declined_by"] == "agent:analyst"


def test_an_answer_it_cannot_read_is_asked_again_with_buttons_and_those_answer_it(team, first_report):
    answer(team, first_report, "hmm, not sure")
    work_until_idle()
    again = Message.objects.filter(session=team["session"], payload_type="clarification").order_by("-seq").first()
    assert "I could not read “hmm, not sure”" in again.envelope["payload"]["question"]
    team["says"]("clarification_answer", {"clarification_message_id": again.message_id, "option_id": "exclude"})
    work_until_idle()
    row, _ = statistics_row(reports(team["session"])[-1])
    assert cells(row)[7] == "2 left out: 400.0 and 450.0"


def test_a_period_keeps_only_its_rows(team, first_report):
    team["says"](
        "human_feedback",
        {
            "target_message_id": first_report["message_id"],
            "feedback_type": "refinement",
            "specific_instructions": {"request": "Only February 2026"},
        },
    )
    work_until_idle()
    row, body = statistics_row(reports(team["session"])[-1])
    february = [p for p, d in zip(PRICES, DAYS, strict=True) if d.startswith("2026-02")]
    assert cells(row)[1:3] == [str(len(february)), str(round(statistics.fmean(february), 2))]
    assert "Only the rows where day is at least 2026-02-01 and day is at most 2026-02-28." in body


COLUMNS = [
    Column("sales", "region", "string", ("north", "south", "east")),
    Column("sales", "amount", "number"),
    Column("sales", "day", "date"),
]


@pytest.mark.parametrize(
    ("said", "question", "expected"),
    [
        ("Use the sample standard deviation", None, {"sd": "sample"}),
        ("please use the population SD", None, {"sd": "population"}),
        ("Leave out the outliers of amount", None, {"outliers": {"sales.amount": "exclude"}}),
        ("keep the outliers", None, {"outliers": {"sales.amount": "keep"}}),
        (
            "yes",
            {"about": "outliers", "table": "sales", "columns": ["amount"]},
            {"outliers": {"sales.amount": "exclude"}},
        ),
        (
            "No, keep them",
            {"about": "outliers", "table": "sales", "columns": ["amount"]},
            {"outliers": {"sales.amount": "keep"}},
        ),
        (
            "only north and south",
            None,
            {"rows": {"sales": [{"column": "region", "op": "in", "value": ["north", "south"]}]}},
        ),
        ("exclude east", None, {"rows": {"sales": [{"column": "region", "op": "!=", "value": "east"}]}}),
        (
            "only rows where amount is above 20",
            None,
            {"rows": {"sales": [{"column": "amount", "op": ">", "value": 20}]}},
        ),
        ("compare by region", None, {"group_by": {"sales": ["region"]}}),
        ("only describe amount", None, {"columns": {"sales": ["amount"]}}),
        (
            "from 2026-01-15 to March 2026",
            None,
            {
                "rows": {
                    "sales": [
                        {"column": "day", "op": ">=", "value": "2026-01-15"},
                        {"column": "day", "op": "<=", "value": "2026-03-31"},
                    ]
                }
            },
        ),
    ],
)
def test_what_people_say_becomes_settings(said, question, expected):
    understood = understand(said, COLUMNS, empty_settings(), question=question)
    assert understood.done and not understood.not_understood
    assert {key: understood.settings[key] for key in expected} == expected


def test_an_answer_about_several_columns_may_decide_column_by_column():
    columns = [*COLUMNS, Column("sales", "units", "number"), Column("visits", "minutes", "number")]
    question = {"about": "outliers", "targets": ["sales.amount", "sales.units", "visits.minutes"]}
    understood = understand("leave out amount, keep the others", columns, empty_settings(), question=question)
    assert understood.settings["outliers"] == {
        "sales.amount": "exclude",
        "sales.units": "keep",
        "visits.minutes": "keep",
    }
    assert understood.done == [
        "left out the outlying values of amount",
        "kept the outlying values of units in sales and minutes in visits",
    ]
    everything = understand("Yes", columns, empty_settings(), question=question).settings["outliers"]
    assert everything == dict.fromkeys(question["targets"], "exclude")


def test_outliers_in_several_tables_are_one_question_and_one_yes_leaves_them_all_out(team):
    write_orders(team["session"])
    with (workspace_root(team["session"].pk) / "refunds.csv").open("w", newline="") as out:
        csv.writer(out).writerows([["amount"], *[[5 + i % 3] for i in range(30)], [900]])
    Task.objects.create(session=team["session"], title="Analyse", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    [report] = reports(team["session"])
    [question] = report["payload"]["open_questions_for_human"]
    assert "2 values of price in orders (450.0 and 400.0)" in question and "1 value of amount in refunds" in question
    details = report["payload"]["provenance"]["questions"][0]["details"]
    assert "Yes leaves them all out; no keeps them all" in details
    answer(team, report, "yes")
    work_until_idle()
    revised = reports(team["session"])[-1]
    assert cells(statistics_row(revised)[0])[7] == "2 left out: 400.0 and 450.0"
    [refunds] = [s for s in revised["payload"]["content"]["sections"] if s["id"] == "refunds-statistics"]
    assert "1 left out: 900.0" in refunds["body"]
    assert revised["payload"]["open_questions_for_human"] == []


def test_what_it_cannot_read_is_kept_as_said():
    understood = understand("Use the sample SD. Also make it sound friendlier", COLUMNS, empty_settings())
    assert understood.settings["sd"] == "sample" and understood.not_understood == ["Also make it sound friendlier"]


def test_a_new_questions_period_and_filter_are_its_own_not_the_sessions():
    asked = understand("Which region sold most in north between 2024 and 2025?", COLUMNS, empty_settings(), asking=True)
    said = understand("Only north between 2024 and 2025", COLUMNS, empty_settings())
    assert asked.settings["rows"] == {} and not asked.changed
    assert said.settings["rows"] and said.changed


def test_a_new_direction_gets_the_new_question_answered_in_reply(team, first_report):
    turn = feedback_on(
        team,
        first_report["message_id"],
        "What is the median price in the north region from January 2026?",
        "new_direction",
    )
    work_until_idle()
    reply = reports(team["session"])[-1]
    assert reply["in_reply_to"] == turn and reply["message_id"] != first_report["message_id"]
    findings = next(s for s in reply["payload"]["content"]["sections"] if s["id"] == "findings")
    north = sorted(p for p, r in zip(PRICES, REGIONS, strict=True) if r == "north")
    assert "median" in findings["body"].split("\n", 1)[0].lower()
    assert f"{statistics.median(north):g}" in findings["body"].split("\n", 1)[0]
    # The region is the new question's, not a correction: later answers still use every row.
    assert reply["payload"]["provenance"]["settings"]["rows"] == {}


def test_a_question_asks_about_the_outliers_of_the_columns_its_answer_used_only(team):
    from tests.agents.teamwork import plan_and_run

    write_orders(team["session"])
    with (workspace_root(team["session"].pk) / "refunds.csv").open("w", newline="") as out:
        csv.writer(out).writerows([["amount"], *[[5 + i % 3] for i in range(30)], [900]])
    goal = "Analyse the orders CSV: which region has the highest mean price?"
    report = plan_and_run(team, goal=goal, attached="orders.csv")
    [question] = report["payload"]["open_questions_for_human"]
    assert "2 values of price" in question and "amount" not in question  # refunds' outlier: not this answer's
