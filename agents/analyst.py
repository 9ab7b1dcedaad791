"""The built-in analyst: works on the session's data through SAP only, and says how sure it is.

It imports the CSV files the humans attached, describes every table, computes descriptive
statistics and group comparisons with ``dataset.query``, and writes a markdown report whose sections
carry their own confidence (from sample size, missing values and outliers). Every number in the
report is a value a cited query returned, rounded to two decimals, so anyone can re-run the query.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from agents.runtime import TaskFailure, TaskRun
from agents.sap import Block, SapError, format_block

MAX_GROUPS = 12
MAX_TREND_POINTS = 36
CAN_DO = [
    {
        "action": "profile, describe and compare the groups of the session's tables",
        "scope": "CSV files attached to the session and its datasets, through SAP",
        "limitation": "descriptive only: no causal claims, no forecasts, no data from outside the session",
    }
]
CANNOT_DO = ["judge whether the data is right", "use data that is not in the session"]


def number(value) -> str:
    """Every figure the report shows: the query's value rounded to two decimals."""
    return "n/a" if value is None else str(round(float(value), 2))


@dataclass
class Evidence:
    """The queries behind a report, each cited with the table and the exact request."""

    materials: list[dict] = field(default_factory=list)

    def cite(self, table: str, request: dict, answer: dict) -> None:
        query = answer.get("query") or {}
        self.materials.append(
            {
                "type": "dataset_query",
                "citation": f"table {table}: {query.get('sql', '')}"[:2000],
                "confidence_in_source": "high",
                "query": {"operation": "dataset.query", "request": request},
            }
        )


class Analysis:
    def __init__(self, run: TaskRun):
        self.run = run
        self.evidence = Evidence()
        self.uncertainties: list[dict] = []
        self.questions: list[str] = []

    def ask(self, name: str, body: dict, kind: str = "query") -> dict:
        [answer] = self.run.sap(format_block(kind, name, body, "a"))
        if answer.type != "result":
            raise AnalysisRefused(name, answer)
        return answer.body

    def query(self, table: str, request: dict) -> dict:
        answer = self.ask("dataset.query", request)
        self.evidence.cite(table, request, answer)
        return answer

    def tables(self) -> list[str]:
        """The session's tables, after importing every attached CSV that has none yet."""
        existing = {t["table"] for t in self.ask("dataset.list-tables", {})["tables"]}
        files = self.ask("file.list", {"pattern": "*.csv", "recursive": True, "format": "bare"})["files"]
        for path in files:
            table = re.sub(r"[^a-z0-9_]", "_", path.rsplit("/", 1)[-1].removesuffix(".csv").lower()).strip("_")
            table = f"t_{table}" if not table or table[0].isdigit() else table
            if table not in existing:
                report = self.ask("dataset.import-csv", {"path": path, "table": table}, kind="action")
                existing.add(table)
                if report["rows_rejected"]:
                    self.uncertainties.append(
                        {
                            "aspect": f"{report['rows_rejected']} rows of {path} were not loaded",
                            "reason": "; ".join(f"line {r['line']}: {r['reason']}" for r in report["rejected"][:3]),
                            "suggestion": "fix those lines and attach the file again",
                        }
                    )
        return sorted(existing)

    def table_report(self, table: str) -> list[dict]:
        described = self.ask("dataset.describe-table", {"table": table})
        rows = described["row_count"]
        numeric = [c for c in described["columns"] if c["type"] == "number"]
        groups = [
            c
            for c in described["columns"]
            if c["type"] in ("string", "boolean") and 2 <= (c["distinct_estimate"] or 0) <= MAX_GROUPS
        ]
        sections = [self._profile(table, described)]
        if numeric:
            sections.append(self._statistics(table, rows, numeric))
        for group in groups:
            if numeric:
                sections.append(self._comparison(table, group, numeric))
        for moment in (c for c in described["columns"] if c["type"] == "date"):
            if numeric:
                sections.append(self._trend(table, moment, numeric))
        return sections

    def _trend(self, table: str, moment: dict, numeric: list[dict]) -> dict:
        """Means by date, and the change from the first date to the last."""
        name = moment["name"]
        if (moment["distinct_estimate"] or 0) > MAX_TREND_POINTS:
            self.uncertainties.append(
                {
                    "aspect": f"no trend over {name} in {table}",
                    "reason": f"{moment['distinct_estimate']} dates are too many to list one by one",
                    "suggestion": "add a month or week column to group by",
                }
            )
            return {
                "id": f"{table}-trend-{name}",
                "title": f"Trend: {table} over {name}",
                "body": "Not computed: too many dates.",
                "confidence": 0.1,
            }
        select = [name, {"fn": "count", "as": "n"}] + [
            {"fn": "avg", "column": c["name"], "as": f"mean_{c['name']}"} for c in numeric
        ]
        request = {"table": table, "select": select, "filters": {"column": name, "op": "is_null", "value": False},
                   "group_by": [name], "order_by": [{"column": name}]}  # fmt: skip
        answer = self.query(table, request)
        lines = ["| " + " | ".join(answer["columns"]) + " |", "|" + "---|" * len(answer["columns"])]
        lines += [
            "| " + " | ".join(str(v) if i < 2 else number(v) for i, v in enumerate(row)) + " |"
            for row in answer["rows"]
        ]
        if len(answer["rows"]) >= 2:
            first, final = answer["rows"][0], answer["rows"][-1]
            for index, c in enumerate(numeric, start=2):
                if first[index] is not None and final[index] is not None:
                    change = number(final[index] - first[index])
                    went = f"{number(first[index])} on {first[0]} to {number(final[index])} on {final[0]}"
                    lines.append(f"\nMean {c['name']} went from {went} ({change}).")
        points = len(answer["rows"])
        return {
            "id": f"{table}-trend-{name}",
            "title": f"Trend: {table} over {name}",
            "body": "\n".join(lines),
            "confidence": confidence(points * 5, 0, 0),
        }

    def _profile(self, table: str, described: dict) -> dict:
        rows = described["row_count"]
        lines = [
            f"Table `{table}`: {rows} rows.",
            "",
            "| column | type | missing | distinct | min | max |",
            "|---|---|---|---|---|---|",
        ]
        worst = 0.0
        for c in described["columns"]:
            share = c["null_count"] / rows if rows else 0
            worst = max(worst, share)
            cells = [c["name"], c["type"], c["null_count"], c["distinct_estimate"], c["min"], c["max"]]
            lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
            if share > 0.1:
                self.uncertainties.append(
                    {
                        "aspect": f"{c['name']} in {table} is missing in {c['null_count']} of {rows} rows",
                        "reason": "statistics of that column rest on the rows that have it",
                        "suggestion": "say what a missing value means, or supply the values",
                    }
                )
        self.evidence.materials.append(
            {
                "type": "dataset_describe",
                "citation": f"dataset.describe-table of {table}",
                "confidence_in_source": "high",
                "query": {"operation": "dataset.describe-table", "request": {"table": table}},
            }
        )
        return {
            "id": f"{table}-profile",
            "title": f"Column profiles: {table}",
            "body": "\n".join(lines),
            "confidence": confidence(rows, worst, 0),
        }

    def _statistics(self, table: str, rows: int, numeric: list[dict]) -> dict:
        select = []
        for c in numeric:
            select += [
                {"fn": "count", "column": c["name"], "as": f"{c['name']}__n"},
                {"fn": "avg", "column": c["name"], "as": f"{c['name']}__mean"},
                {"fn": "min", "column": c["name"], "as": f"{c['name']}__min"},
                {"fn": "max", "column": c["name"], "as": f"{c['name']}__max"},
                {"fn": "sum", "column": c["name"], "as": f"{c['name']}__sum"},
            ]
        answer = self.query(table, {"table": table, "select": select})
        values = dict(zip(answer["columns"], answer["rows"][0], strict=True))
        lines = ["| column | n | mean | sd | min | max | sum | outliers |", "|---|---|---|---|---|---|---|---|"]
        worst_missing, outliers_total = 0.0, 0
        for c in numeric:
            name = c["name"]
            n, mean = values[f"{name}__n"], values[f"{name}__mean"]
            sd, outliers = self._spread(table, name, n, mean)
            outliers_total += outliers
            worst_missing = max(worst_missing, 1 - n / rows if rows else 0)
            figures = [number(values[f"{name}__{key}"]) for key in ("mean", "min", "max", "sum")]
            lines.append("| " + " | ".join([name, str(n), figures[0], number(sd), *figures[1:], str(outliers)]) + " |")
            if outliers:
                self.questions.append(f"Should the {outliers} outlying values of {name} in {table} be left out?")
        body = "\n".join(lines)
        return {
            "id": f"{table}-statistics",
            "title": f"Descriptive statistics: {table}",
            "body": body,
            "confidence": confidence(rows, worst_missing, outliers_total),
        }

    def _spread(self, table: str, column: str, n: int, mean) -> tuple[float | None, int]:
        """The (population) standard deviation, the square root of the cited variance query, and how
        many values lie more than three of them from the mean, counted by the database."""
        if not n or mean is None:
            return None, 0
        column_sql = '"' + column.replace('"', '""') + '"'
        spread = self.query(
            table,
            {"sql": f"SELECT AVG(({column_sql} - {float(mean)!r}) * ({column_sql} - {float(mean)!r})) FROM {table}"},
        )
        variance = spread["rows"][0][0] or 0
        sd = math.sqrt(variance)
        if n < 8 or variance <= 0:
            return sd, 0
        limit = 3 * sd
        far = self.query(
            table,
            {
                "table": table,
                "select": [{"fn": "count", "as": "n"}],
                "filters": {
                    "or": [
                        {"column": column, "op": ">", "value": mean + limit},
                        {"column": column, "op": "<", "value": mean - limit},
                    ]
                },
            },
        )
        return sd, far["rows"][0][0]

    def _comparison(self, table: str, group: dict, numeric: list[dict]) -> dict:
        name = group["name"]
        select = [name, {"fn": "count", "as": "n"}] + [
            {"fn": "avg", "column": c["name"], "as": f"mean_{c['name']}"} for c in numeric
        ]
        answer = self.query(
            table, {"table": table, "select": select, "group_by": [name], "order_by": [{"column": name}]}
        )
        header = "| " + " | ".join(answer["columns"]) + " |"
        lines = [header, "|" + "---|" * len(answer["columns"])]
        lines += [
            "| " + " | ".join(str(v) if i < 2 else number(v) for i, v in enumerate(row)) + " |"
            for row in answer["rows"]
        ]
        smallest = min((row[1] for row in answer["rows"]), default=0)
        if smallest < 5:
            self.uncertainties.append(
                {
                    "aspect": f"some {name} groups of {table} have fewer than 5 rows",
                    "reason": "their means move a lot with one row",
                    "suggestion": "compare them only with more data",
                }
            )
        return {
            "id": f"{table}-by-{name}",
            "title": f"Group comparison: {table} by {name}",
            "body": "\n".join(lines),
            "confidence": confidence(smallest * len(answer["rows"]), 0, 0),
        }


class AnalysisRefused(TaskFailure):
    """SAP refused a step of the analysis (a missing permission, say): the analyst stops and says so."""

    def __init__(self, operation: str, answer: Block):
        body = answer.body
        if answer.type == "event":  # the step waits for a human's approval
            body = {"code": "PERMISSION_DENIED", "message": f"{operation} waits for approval {body.get('approval_id')}"}
        super().__init__(SapError(body["code"], f"{operation}: {body['message']}", details=body.get("details") or {}))


def confidence(rows: int, missing_share: float, outliers: int) -> float:
    """How far the data supports a section: more rows, fewer gaps and fewer outliers support it more."""
    base = 0.35 if rows < 10 else 0.55 if rows < 30 else 0.75 if rows < 100 else 0.9
    base -= 0.2 if missing_share > 0.2 else 0.1 if missing_share > 0.05 else 0
    base -= 0.05 if outliers else 0
    return round(max(0.1, base), 2)


def analyst(run: TaskRun) -> str:
    analysis = Analysis(run)
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
    sections = []
    for table in tables:
        run.check()
        sections += analysis.table_report(table)
    overall = round(sum(s["confidence"] for s in sections) / len(sections), 2)
    body = "\n\n".join(f"## {s['title']}\n\n{s['body']}" for s in sections)
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": f"# Analysis of {', '.join(tables)}\n\n{body}", "sections": sections},
        "supporting_materials": analysis.evidence.materials[:500],
        "assumptions_made": [
            "the first row of each CSV file names its columns",
            "an empty cell is a missing value, not zero",
            "column types were inferred from the values (number, boolean, date, text)",
        ],
        "confidence_score": overall,
        "uncertainties": analysis.uncertainties[:200],
        "next_step_recommendations": [
            {"description": "Review the figures against the source data", "required_capability": "review"}
        ],
        "open_questions_for_human": analysis.questions[:20],
        "provenance": {"behaviour": "analyst"},
    }
    previous = _previous_report(run)
    if previous is not None:
        payload["content"]["body"] += "\n\n## What changed\n\n" + _changes(previous, sections)
    return run.post("report", "collaborative_response", payload, in_reply_to=run.task.source_message_id or None)


def _previous_report(run: TaskRun) -> dict | None:
    """When this task answers a correction of an earlier report of this agent: that report."""
    source = run.message(run.task.source_message_id)
    if source is None or source["payload_type"] != "human_feedback":
        return None
    target = run.message(source["payload"]["target_message_id"])
    return target["payload"] if target and target["payload_type"] == "collaborative_response" else None


def _changes(previous: dict, sections: list[dict]) -> str:
    before = {s["id"]: s["body"] for s in previous["content"].get("sections") or []}
    changed = [s["title"] for s in sections if before.get(s["id"]) not in (None, s["body"])]
    added = [s["title"] for s in sections if s["id"] not in before]
    lines = [f"- changed: {title}" for title in changed] + [f"- new: {title}" for title in added]
    return "\n".join(lines) or "No figure changed: the data is the same as for the earlier report."
