"""The analyst's answer to the question asked: question model -> stats.* operation -> words and chart.

The question (the goal, with every later refinement appended) is read against the table's columns
(agents/analysis/question.py), the one operation that answers that kind of question runs through SAP
like any other call, and the Findings section leads with the answer (agents/analysis/prose.py),
followed by the chart the operation drew and a folded note on how to compute it again.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from agents.analysis import prose
from agents.analysis.code import reproduction
from agents.analysis.column_roles import roles_of
from agents.analysis.kind_words import PAIRED_SAID
from agents.analysis.kinds import KINDS, WHAT_I_ANSWER
from agents.analysis.question import read_question
from agents.analysis.reading import UNSURE, Reading, read_back
from agents.analysis.readings import measure_options, options
from agents.analysis.request import Request
from agents.analysis.schema import CODED_MAX, Schema
from agents.analysis.words import mentions
from agents.runtime import TaskFailure
from agents.sap import format_block
from protocol.errors import ProtocolError

NAMED_VALUES = 250  # a text column's values a question may name ("China, India and Japan"), read up to this many
MAX_EXTRA_MEASURES = 3
WEAK_P = 0.05
EVENLY = ("numbered_evenly", "repeated_evenly")  # what the import found of whole-number columns
EMPTY_CONFIDENCE = 0.2


class Asker(Protocol):
    """What answering needs of the analysis: SAP calls, cited, and the tables' profiles."""

    def query(self, table: str, request: dict[str, Any], words: str, operation: str = ...) -> dict[str, Any]: ...
    def describe(self, table: str) -> dict[str, Any]: ...
    def file_reading(self, table: str) -> dict[str, Any] | None: ...
    def ask(self, name: str, body: dict[str, Any], kind: str = ...) -> dict[str, Any]: ...


def confidence(rows: int, missing_share: float, outliers: int) -> float:
    """How far the data supports a section: more rows, fewer gaps and fewer outliers support it more."""
    base = 0.35 if rows < 10 else 0.55 if rows < 30 else 0.75 if rows < 100 else 0.9
    base -= 0.2 if missing_share > 0.2 else 0.1 if missing_share > 0.05 else 0
    base -= 0.05 if outliers else 0
    return round(max(0.1, base), 2)


def schema_of(analysis: Asker, table: str) -> Schema:
    """The table's columns as the question model reads them, with the values of few-valued columns."""
    described = analysis.describe(table)
    columns = []
    for c in described["columns"]:
        distinct = c["distinct_estimate"] or 0
        column = {"name": c["name"], "type": c["type"], "distinct": distinct, "min": c["min"], "max": c["max"]}
        few = (c["type"] == "string" and distinct <= NAMED_VALUES) or (
            c["type"] in ("number", "boolean") and distinct <= CODED_MAX
        )
        if few and distinct:
            grouped = {"table": table, "select": [c["name"]], "group_by": [c["name"]], "limit": NAMED_VALUES + 1}
            answer = analysis.ask("dataset.query", grouped)
            column["values"] = [row[0] for row in answer["rows"] if row[0] is not None]
        columns.append(column)
    return Schema(table, columns, described["row_count"])


def with_roles(schema: Schema, told: dict[str, str], imported: dict[str, dict[str, Any]]) -> Schema:
    """The schema with each column's role (``told``, the roles a person named, win; ``imported``, what
    the import found, says which numbered columns are numbered evenly)."""
    columns = [{**c, **{key: bool((imported.get(c["name"]) or {}).get(key)) for key in EVENLY}} for c in schema.columns]
    roles = roles_of(columns, schema.rows, told)
    for column in columns:
        column["role"], column["role_why"] = roles[column["name"]]
        column["told"] = column["name"] in told
        if column["role"] == "category" and column["type"] == "number":
            column["coded"] = True
    return Schema(schema.table, columns, schema.rows)


def best_table(goal: str, schemas: list[Schema]) -> Schema:
    """The table whose columns the question names most (the first on a tie)."""
    return max(schemas, key=lambda s: len(mentions(goal, [c["name"] for c in s.columns])))


def request_for(text: str, schema: Schema, filters: list[dict[str, Any]]) -> Request:
    request = read_question(text, schema)
    request.filters += [f for f in filters if f not in request.filters]
    # "Did it rise over the years?": over time, a table with one measure leaves nothing to guess.
    if (
        request.missing == ["measure"]
        and request.kind in ("trend", "growth")
        and len(_plain_numbers(schema, request)) == 1
    ):
        request.measures, request.missing = _plain_numbers(schema, request), []
    return request


def _plain_numbers(schema: Schema, request: Request) -> list[str]:
    taken = {request.group, request.time, request.entity, request.outcome}
    return [n for n in schema.numbers if n not in taken and n not in schema.times and n not in schema.categories]


def operation_for(request: Request, schema: Schema, measure: str | None = None) -> tuple[str, dict[str, Any]]:
    """The stats.* call that answers the request (for ``measure`` instead of its first, if given). A
    ranking over every measure names them: the operation's own default takes every number column, an
    identifier's too ("patient is the variable most associated with gvhd")."""
    operation, body = KINDS[request.kind].operation(request, measure)
    key = {"stats.associate": "variables", "stats.rank-differences": "measures"}.get(operation)
    if key and key not in body:
        taken = {request.outcome, request.group}
        body = {**body, key: [n for n in schema.numbers if n not in taken]}
    return operation, body


def words_for(request: Request, result: dict[str, Any], text: str) -> list[str]:
    return KINDS[request.kind].words(request, result, text)


def chart_fence(chart: dict[str, Any] | None) -> list[str]:
    """The operation's chart as a ```vega-lite block: the page draws it, the Markdown export keeps it."""
    return ["", "```vega-lite", json.dumps(chart, separators=(",", ":")), "```"] if chart else []


def how_computed(
    source: str,
    operation: str,
    body: dict[str, Any],
    request: Request,
    file: dict[str, Any] | None = None,
    resolved: dict[str, Any] | None = None,
) -> list[str]:
    """How the answer was computed: the SAP call as sent, and the pandas code with what the operation
    resolved (``resolved``: the period "auto" chose) so that it computes the same figures."""
    block = format_block("query", operation, body, "q").strip()
    script = (reproduction(operation, {**body, **(resolved or {})}, file) if file else None) or ""
    in_pandas = ["- To reproduce it in pandas, beside the file:", "", "```python", script.rstrip(), "```", ""]
    where = f"- Rows: only those where {prose.rows_words(request.filters)}." if request.filters else "- Rows: all."
    return [
        "",
        "<details><summary>How this was computed</summary>",
        "",
        f"- Source: {source}, the operation {operation} (pandas and SciPy).",
        f"- Read as: a {request.kind.replace('_', ' ')} question" + _parts(request) + ".",
        where,
        "- To run it again (SAP):",
        "",
        "```",
        block,
        "```",
        "",
        *(in_pandas if script else []),
        "</details>",
    ]


def _parts(request: Request) -> str:
    parts = [
        f"{label} {prose.spoken(value)}"
        for label, value in (
            ("measure", ", ".join(request.measures)),
            ("by", request.group),
            ("outcome", request.outcome),
            ("over", request.time),
            ("per", request.entity),
        )
        if value
    ]
    statistic = prose.statistic_words(request).removesuffix(" of")
    said = f"; statistic: {statistic}" if request.kind in ("compare", "statistic", "trend") else ""
    return (": " + "; ".join(parts) if parts else "") + said


def unasked(schema: Schema) -> dict[str, Any]:
    body = [
        f"No question was asked, so the sections below profile and describe {schema.table} as a whole.",
        f"- Ask one in a refinement and I will answer it first. I can answer: {WHAT_I_ANSWER}.",
    ]
    return {"id": "findings", "title": "Findings", "body": "\n".join(body), "confidence": 0.5}


def not_computed(request: Request, schema: Schema, error: ProtocolError) -> dict[str, Any]:
    """The operation refused what the question was read as: say so, and what was tried."""
    body = [
        f"I could not answer this from {schema.table}: I read it as a {request.kind.replace('_', ' ')} question"
        f"{_parts(request)}, and {error.message}.",
        f"- I can answer: {WHAT_I_ANSWER}. Name the columns in a refinement and I will redo it.",
    ]
    return {"id": "findings", "title": "Findings", "body": "\n".join(body), "confidence": 0.2}


def cannot_answer(request: Request, schema: Schema) -> dict[str, Any]:
    """Say plainly what is missing and what can be asked instead: never answer another question."""
    needs = {
        "measure": "which number column you mean",
        "group": "which column holds the groups",
        "time": "a date or year column",
        "entity": "which column names the entities",
        "outcome": "which column is the outcome",
    }
    missing = " and ".join(needs[m] for m in request.missing)
    numbers = ", ".join(prose.spoken(n) for n in schema.numbers[:12]) or "none"
    groups = ", ".join(prose.spoken(n) for n in schema.categories[:8]) or "none"
    body = [
        f"I could not answer this from {schema.table}: I cannot tell {missing}.",
        f"- Its number columns: {numbers}. Its grouping columns: {groups}.",
        f"- I can answer: {WHAT_I_ANSWER}. Name the columns in a refinement and I will redo it.",
    ]
    return {"id": "findings", "title": "Findings", "body": "\n".join(body), "confidence": 0.2}


def reading_options(text: str, schema: Schema, filters: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The readings to ask about before answering ``text`` (none when its reading is sure enough)."""
    request = request_for(text, schema, filters)
    if not text.strip():
        return []

    def read(words: str) -> Request:
        return request_for(words, schema, filters)

    if request.missing:
        return measure_options(request, text, schema, read)
    return options(request, read_back(text, schema, request), schema, read)


def findings(
    analysis: Asker, text: str, schema: Schema, source: str, filters: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Findings section for the question ``text``, and the request it was read as."""
    request = request_for(text, schema, filters)
    if not text.strip():
        return unasked(schema), request.as_dict()
    if request.missing:
        return cannot_answer(request, schema), request.as_dict()
    operation, body = operation_for(request, schema)
    try:
        result = analysis.query(schema.table, body, _asked(request), operation)
    except TaskFailure as failure:
        if failure.error.retryable or failure.error.code == "PERMISSION_DENIED":
            raise  # a timeout or a missing permission is the task's failure, not a misread question
        return not_computed(request, schema, failure.error), request.as_dict()
    result["table_rows"] = analysis.describe(schema.table)["row_count"]
    reading = read_back(text, schema, request)
    lines = words_for(request, result, text)
    lines[1:1] = reading_lines(reading)
    unpaired = request.kind == "significance" and PAIRED_SAID.search(text) and not result.get("pairs_tested")
    if unpaired:  # "each man with himself", and the rows do not pair up: said, and not as sure
        lines.insert(1, UNPAIRED)
    for measure in request.measures[1 : 1 + MAX_EXTRA_MEASURES] if request.kind == "compare" else []:
        more = analysis.query(
            schema.table, operation_for(request, schema, measure)[1], _asked(request, measure), operation
        )
        lines.append("- " + prose.compare(request_for_measure(request, measure), more)[0].replace("**", ""))
    lines += chart_fence(result.get("chart"))
    lines += ["", f"*You asked: “{' '.join(text.split())}”*"]
    resolved = {"period": result["period"]} if body.get("period", "auto") == "auto" and result.get("period") else {}
    lines += how_computed(source, operation, body, request, analysis.file_reading(schema.table), resolved)
    return {
        "id": "findings",
        "title": "Findings",
        "body": "\n".join(lines),
        "confidence": min(_confidence(request, result), reading.certainty, UNSURE if unpaired else 1.0),
    }, request.as_dict() | {"reading": reading.line, "doubts": reading.said()}


def _asked(request: Request, measure: str | None = None) -> str:
    """What one query computes, in words for its source: a comparison of several measures runs one
    query per measure, and each names its own (the first when ``measure`` is None)."""
    if request.kind == "compare" and request.measures:
        request = request_for_measure(request, measure or request.measures[0])
    return f"the {request.kind.replace('_', ' ')} the question asks" + _parts(request)


def reading_lines(reading: Reading) -> list[str]:
    """The stated reading under the lead, and what it leaves in doubt, for the person to correct: each
    a paragraph of its own, which the page shows as a muted line (workspace.markdown)."""
    lines = ["", f"I read this as: {reading.line}."]
    doubts = reading.said()
    if doubts:
        lines += [
            "",
            f"Not sure of this reading: {'; '.join(doubts)}. If that changes the question, say so and I will redo it.",
        ]
    return lines


def request_for_measure(request: Request, measure: str) -> Request:
    return Request(**{**request.as_dict(), "measures": [measure]})


NOTHING_RANKED = 0.2
UNPAIRED = (
    "- You asked for each subject against itself, but the rows do not pair up (each subject once in each of "
    "the two groups, for most of them), so the groups were tested as independent."
)


def _confidence(request: Request, result: dict[str, Any]) -> float:
    """Rows behind the answer, less when the effect could be chance."""
    if request.kind == "statistic" and request.statistic in ("count", "sum", "min", "max"):
        return 0.9  # a count, total or extreme of the rows kept is exact: no sample to doubt
    rows = int(result.get("rows") or 0)
    if not rows:
        return EMPTY_CONFIDENCE  # the filters keep no row: nothing was answered
    base = confidence(rows, 0, 0)
    test = result.get("test") or {}
    first = (result.get("variables") or [{}])[0]
    p = (
        test.get("p_value")
        if request.kind == "compare"
        else first.get("p_value")
        if request.kind == "association"
        else None
    )
    cap = KINDS[request.kind].certainty
    base = min(base, cap(request, result)) if cap else base
    counts = [c.get("amount") or 0 for c in result.get("categories") or []]
    if request.kind == "share" and not request.weight and len(counts) > 1 and max(counts) <= 1:
        return NOTHING_RANKED  # every value once (a key, a name): the most common is no answer
    return min(base, 0.5) if p is not None and p > WEAK_P else base
