"""The built-in analyst: works on the session's data through SAP only, and says how sure it is.

It imports the CSV files the humans attached, describes every table, computes descriptive
statistics and group comparisons with ``dataset.query`` (agents/behaviours/analysing.py), and writes a
markdown report whose sections carry their own confidence (agents/behaviours/table_sections.py).
Every number in the report is a value a cited query returned, rounded to two decimals, so anyone can
re-run the query.

A correction or an answer to one of its questions is read as an instruction (agents/behaviours/instructions.py):
the analyst redoes exactly that, says figure by figure what changed, and says plainly what it could
not act on. The settings it worked with, its figures and what each question was about travel in the
report's provenance, so the next round starts from them and never asks a settled question again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.analysis.question_parts import used_columns
from agents.analysis.readings import asked_words
from agents.analysis.suggestions import MOST as MOST_SUGGESTED
from agents.analysis.suggestions import answered_by, suggested_questions
from agents.behaviours.analysing import Analysis
from agents.behaviours.answering import request_for
from agents.behaviours.answers import answers_now, answers_of, asks_another_question, earlier_section, headline_lines
from agents.behaviours.import_sections import data_as_read
from agents.behaviours.instructions import WHAT_I_CAN_DO, Understood, settings_of, understand
from agents.behaviours.reading import proposal_behind
from agents.behaviours.revising import Request, asked_keys, honest_reply, reports, request_of, what_changed
from agents.behaviours.table_sections import table_report
from agents.runtime import TaskRun
from sessions.chap.graph import EARLIER_QUESTIONS_STAND

CAN_DO = [
    {
        "action": "profile, describe and compare the groups of the session's tables",
        "scope": "CSV files attached to the session and its datasets, through SAP",
        "limitation": "descriptive only: no causal claims, no forecasts, no data from outside the session",
    },
    {
        "action": "redo the analysis as a correction or an answer asks",
        "scope": WHAT_I_CAN_DO,
        "limitation": "changes to the figures only; wording and layout are a writer's",
    },
]
CANNOT_DO = ["judge whether the data is right", "use data that is not in the session"]
ASSUMPTIONS = [
    "the first row of each CSV file (past a title line) names its columns",
    "an empty cell, NA, N/A, NaN, null, '.' and '-' are missing values, not zero",
    "column types were inferred from the values (number, yes/no, date, text), and each column's role from its "
    "name and values (Data as read)",
]


@dataclass
class Round:
    """What one round of the analyst starts from: its previous report's provenance (settings, figures,
    tables, the question it answered), the person's request it redoes, and the question to answer."""

    previous: dict[str, Any] | None
    stated: dict[str, Any]
    request: Request | None
    goal: str
    question: str
    understood: Understood | None = None
    another: bool = False  # the request asks a question of its own: its answer is added, not swapped in


def analyst(run: TaskRun) -> str:
    analysis = Analysis(run)
    round_ = _round_of(run, analysis)
    tables = analysis.tables()
    if not tables:
        return run.post(
            "clarification",
            "clarification",
            {
                "question": "There is no data in this session yet: which CSV file should I analyse? Attach it here.",
                "allow_free_answer": True,
            },
        )
    if round_.request is None and round_.previous is None:
        readings = analysis.reading_options(round_.question, analysis.chosen_tables(tables))
        if readings:
            return _ask_which_reading(run, round_.question, readings)
    if round_.request is not None:
        declined = _take_in(run, analysis, tables, round_)
        if declined is not None:
            return declined
        tables = analysis.take_settings(analysis.settings, tables)
    payload = _report(run, analysis, tables, round_)
    return run.post("report", "collaborative_response", payload, in_reply_to=run.task.source_message_id or None)


def _ask_which_reading(run: TaskRun, question: str, readings: list[dict[str, str]]) -> str:
    """A question with several likely readings: ask which is meant before answering (CHAP's conservative
    start); the person's pick is answered as its words say."""
    said = asked_words(question)
    return run.post(
        "clarification",
        "clarification",
        {
            "question": f"I can read “{said}” in more than one way, and the answers differ. Which do you mean?",
            "options": readings,
            "allow_free_answer": True,
        },
        in_reply_to=run.task.source_message_id or None,
    )


def _round_of(run: TaskRun, analysis: Analysis) -> Round:
    """The round's starting point; the analysis takes the previous report's settings and the keys of
    every question asked before."""
    earlier = reports(run)
    previous = earlier[-1] if earlier else None
    stated = (previous["payload"].get("provenance") or {}) if previous else {}
    analysis.settings = settings_of(stated.get("settings"))
    analysis.imports = dict(stated.get("imports") or {})
    analysis.asked_before = {
        key for e in earlier for q in (e["payload"]["provenance"].get("questions") or []) for key in asked_keys(q)
    }
    proposal = proposal_behind(run, run.message(run.task.source_message_id))
    goal = proposal["payload"]["goal"] if proposal else stated.get("goal", "")
    return Round(previous, stated, request_of(run), goal, stated.get("question") or goal)


def _take_in(run: TaskRun, analysis: Analysis, tables: list[str], round_: Round) -> str | None:
    """Read the person's request into the settings and the question; when there is nothing to redo,
    the id of the honest reply that says so."""
    request, previous, question = round_.request, round_.previous, round_.question
    assert request is not None
    if request.kind == "reading":  # the person picked one of the readings offered: answered as it says
        round_.question = request.text
        return None
    another = asks_another_question(request.kind, request.text)
    understood = understand(
        request.text, analysis.columns(tables), analysis.settings, question=request.question, asking=another
    )
    round_.understood = understood
    asked = {"answer": question, "new_direction": request.text}.get(request.kind, f"{question} {request.text}")
    # Words the settings took in whole ("use the sample SD") change how, not what, is asked.
    fully_a_setting = understood.changed and not understood.not_understood and request.kind != "new_direction"
    reread = previous is not None and not fully_a_setting and analysis.reads_differently(tables, question, asked)
    new_data = previous is not None and set(tables) != set(round_.stated.get("tables") or [])
    if previous is not None and not understood.changed and not new_data and not reread:
        return honest_reply(run, request, understood)
    if reread:
        round_.question = asked
        round_.another = another
        understood.done.append("answered the question again with your words taken in")
        understood.not_understood.clear()
    analysis.settings = understood.settings
    return None


def _report(run: TaskRun, analysis: Analysis, tables: list[str], round_: Round) -> dict[str, Any]:
    """The report's payload: the answer first, then after a person's request what changed, the earlier
    questions' answers, and each chosen table's sections; the provenance the next round starts from."""
    chosen = analysis.chosen_tables(tables)
    findings, findings_request = analysis.findings(round_.question, chosen)
    sections = [findings, data_as_read(analysis, chosen)]
    for table in chosen:
        run.check()
        sections += table_report(analysis, table)
    analysis.ask_pending(used_columns(findings_request) if round_.question.strip() else set())
    overall = round(sum(s["confidence"] for s in sections) / len(sections), 2)
    opening, answers = _opening(run, analysis, tables, round_, findings)
    sections[:1] = opening
    body = "\n\n".join(f"## {s['title']}\n\n{s['body']}" for s in sections)
    questions = analysis.questions[:20]
    suggested = _suggestions(analysis, chosen, findings_request, answers)
    return {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": f"# Analysis of {', '.join(chosen)}\n\n{body}", "sections": sections},
        "supporting_materials": analysis.evidence.materials[:500],
        "assumptions_made": [*ASSUMPTIONS, *analysis.assumptions][:100],
        "confidence_score": overall,
        "uncertainties": analysis.uncertainties[:200],
        "next_step_recommendations": [
            {"description": "Review the figures against the source data", "required_capability": "review"},
            *({"description": f"Ask: {s['question']}", "required_capability": "analysis"} for s in suggested),
        ],
        "open_questions_for_human": questions,
        "provenance": {
            "behaviour": "analyst",
            "settings": analysis.settings,
            "goal": round_.goal,
            "question": round_.question,
            "findings": findings_request,
            "answers": answers,
            "tables": tables,
            "imports": analysis.imports,
            "roles": {t: {c["name"]: c["role"] for c in analysis.schema(t).columns} for t in chosen},
            "figures": analysis.figures,
            "suggested_questions": suggested,
            "questions": [{**record, "index": index} for index, record in enumerate(analysis.asked[: len(questions)])],
            EARLIER_QUESTIONS_STAND: True,  # a question asked before is not asked again: it waits where it was
        },
    }


def _suggestions(
    analysis: Analysis, chosen: list[str], findings: dict[str, Any], answers: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Questions the table the findings read can answer next (agents/analysis/suggestions.py), but
    for those the session's questions asked already, as the question reader reads them."""
    table = str(findings["table"]) if findings.get("table") in chosen else chosen[0]
    schema, rows = analysis.schema(table), analysis.settings["rows"].get(table, [])
    asked = [findings, *(request_for(str(a.get("asked") or ""), schema, rows).as_dict() for a in answers)]
    offered = suggested_questions(schema, most=MOST_SUGGESTED + len(asked))
    fresh = [s for s in offered if not any(answered_by(s, request) for request in asked)]
    return [{**s.as_dict(), "table": table} for s in fresh[:MOST_SUGGESTED]]


def _opening(
    run: TaskRun, analysis: Analysis, tables: list[str], round_: Round, findings: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The sections the report opens with (the answer, what changed since the last round, the earlier
    questions' answers), and every question answered so far with its current answer."""
    before = answers_of(round_.previous)
    asked = round_.request.text if round_.another and round_.request else round_.question
    report = run.message_id("report")
    answers = answers_now(before, asked, findings, report, another=round_.another, settings=analysis.settings)
    opening = [findings]
    if round_.request is not None and round_.understood is not None and round_.previous is not None:
        stated = round_.stated
        opening.append(
            what_changed(
                round_.request,
                round_.understood,
                stated.get("figures") or {},
                analysis.figures,
                stated.get("tables") or [],
                tables,
                headline_lines(before, answers),
            )
        )
    earlier = earlier_section(answers)
    return opening + ([earlier] if earlier is not None else []), answers
