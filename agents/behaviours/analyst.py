"""The built-in analyst: works on the session's data through SAP only, and says how sure it is.

It imports the CSV files the humans attached, describes every table, computes descriptive
statistics and group comparisons with ``dataset.query``, and writes a markdown report whose sections
carry their own confidence (from sample size, missing values and outliers). Every number in the
report is a value a cited query returned, rounded to two decimals, so anyone can re-run the query.

A correction or an answer to one of its questions is read as an instruction (agents/behaviours/instructions.py):
the analyst redoes exactly that, says figure by figure what changed, and says plainly what it could
not act on. The settings it worked with, its figures and what each question was about travel in the
report's provenance, so the next round starts from them and never asks a settled question again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.analysis import outliers
from agents.analysis.filters import condition_words
from agents.analysis.prose import two_decimals
from agents.behaviours import answering
from agents.behaviours.answering import confidence
from agents.behaviours.instructions import (
    WHAT_I_CAN_DO,
    Column,
    settings_of,
    table_name,
    understand,
)
from agents.behaviours.reading import proposal_behind
from agents.behaviours.revising import asked_keys, honest_reply, reports, request_of, what_changed
from agents.runtime import TaskFailure, TaskRun
from agents.sap import Block
from protocol.errors import ProtocolError

MAX_GROUPS = 12
MAX_CHOSEN_GROUPS = 50  # a person may ask to compare by a column with more groups
MAX_TREND_POINTS = 36
COMPARING = ("compare", "rank_differences")  # questions whose groups outliers are measured within
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
MAX_SECTION_MEASURES = 12  # a group or trend table wider than this is unreadable; the findings name the rest
OPERATION_WORDS = {"dataset.query": "a query", "dataset.describe-table": "the table's profile"}
MATERIAL_TYPES = {"dataset.query": "dataset_query", "dataset.describe-table": "dataset_describe"}


def _filters(conditions: list[dict]) -> dict:
    return {"filters": {"and": conditions}} if conditions else {}


@dataclass
class Evidence:
    """The queries behind a report, each cited with the table and, in words, what it computes."""

    materials: list[dict] = field(default_factory=list)

    def cite(self, source: str, request: dict, words: str, operation: str = "dataset.query") -> dict:
        """A source as a person names it (the file, the table, the operation) and the request that
        re-runs it; the SQL the server compiled stays out (it names the session's storage, not the data)."""
        material = {
            "type": MATERIAL_TYPES.get(operation, "statistics"),
            "citation": f"{source}, {OPERATION_WORDS.get(operation, 'the operation ' + operation)}: {words}"[:2000],
            "confidence_in_source": "high",
            "query": {"operation": operation, "request": request},
        }
        self.materials.append(material)
        return material


class Analysis:
    def __init__(self, run: TaskRun, settings: dict | None = None):
        self.run = run
        self.settings = settings_of(settings)
        self.evidence = Evidence()
        self.uncertainties: list[dict] = []
        self.questions: list[str] = []
        self.asked: list[dict] = []  # what each question is about, in the order of ``questions``
        self.asked_before: set[str] = set()  # the keys of questions asked before, and the columns they were about
        self.pending_outliers: list[outliers.Pending] = []
        self.compared: dict[str, str] = {}  # table -> the text column whose groups the question compares
        self.figures: dict[str, list] = {}  # key -> [label, value]: what "What changed" compares
        self.described: dict[str, dict] = {}
        self.schemas: dict[str, answering.Schema] = {}
        self.files: dict[str, str] = {}  # table -> the attached file it was imported from

    def source(self, table: str) -> str:
        """Where a table's figures come from, in a person's words."""
        path = self.files.get(table)
        return f"{path} (table {table})" if path else f"the table {table}"

    def ask(self, name: str, body: dict, kind: str = "query") -> dict:
        [answer] = self.run.sap(Block(kind, name, "a", body))
        if answer.type != "result":
            raise AnalysisRefused(name, answer)
        return answer.body

    def query(self, table: str, request: dict, words: str, operation: str = "dataset.query") -> dict:
        answer = self.ask(operation, request)
        self.evidence.cite(self.source(table), request, words, operation)
        return answer

    def figure(self, key: str, label: str, value) -> None:
        self.figures[key] = [label, None if value is None else round(float(value), 2)]

    def tables(self) -> list[str]:
        """The session's tables, after importing every attached CSV that has none yet."""
        existing = {t["table"] for t in self.ask("dataset.list-tables", {})["tables"]}
        files = self.ask("file.list", {"pattern": "*.csv", "recursive": True, "format": "bare"})["files"]
        for path in files:
            table = table_name(path)
            self.files.setdefault(table, path)
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

    def describe(self, table: str) -> dict:
        if table not in self.described:
            self.described[table] = self.ask("dataset.describe-table", {"table": table})
        return self.described[table]

    def schema(self, table: str) -> answering.Schema:
        if table not in self.schemas:
            self.schemas[table] = answering.schema_of(self, table)
        return self.schemas[table]

    def columns(self, tables: list[str]) -> list[Column]:
        """Every column of the tables, text columns with their values: what a person's words may name."""
        return [
            Column(
                table,
                c["name"],
                c["type"],
                tuple(str(v) for v in c.get("values") or ()) if c["type"] == "string" else (),
            )
            for table in tables
            for c in self.schema(table).columns
        ]

    def findings(self, question: str, tables: list[str]) -> tuple[dict, dict]:
        """The section that answers the question, from the table it names most."""
        schema = answering.best_table(question, [self.schema(t) for t in tables])
        rows = self.settings["rows"].get(schema.table, [])
        section, request = answering.findings(self, question, schema, self.source(schema.table), rows)
        group = request.get("group")
        types = {c["name"]: c["type"] for c in self.describe(schema.table)["columns"]}
        if request["kind"] in COMPARING and group and not request.get("cycle") and types.get(group) == "string":
            self.compared[schema.table] = group
        return section, request

    def reads_differently(self, tables: list[str], before: str, after: str) -> bool:
        """Whether a person's words change the question the findings answer (a median, a ranking...)."""
        schema = answering.best_table(after, [self.schema(t) for t in tables])
        rows = self.settings["rows"].get(schema.table, [])
        return answering.request_for(before, schema, rows) != answering.request_for(after, schema, rows)

    def chosen_tables(self, tables: list[str]) -> list[str]:
        wanted = [t for t in self.settings.get("tables") or [] if t in tables]
        return wanted or tables

    def table_report(self, table: str) -> list[dict]:
        described = self.describe(table)
        rows = described["row_count"]
        only = self.settings["columns"].get(table)
        numeric = [c for c in described["columns"] if c["type"] == "number" and (not only or c["name"] in only)]
        chosen = self.settings["group_by"].get(table)
        groups = [
            c
            for c in described["columns"]
            if c["type"] in ("string", "boolean")
            and (
                c["name"] in chosen and (c["distinct_estimate"] or 0) <= MAX_CHOSEN_GROUPS
                if chosen
                else 2 <= (c["distinct_estimate"] or 0) <= MAX_GROUPS
            )
        ]
        sections = [self._profile(table, described)]
        kept = list(self.settings["rows"].get(table, []))
        if numeric:
            statistics, kept = self._statistics(table, rows, numeric, kept)
            sections.append(statistics)
        shown = numeric[:MAX_SECTION_MEASURES]
        for group in groups:
            if shown:
                sections.append(self._comparison(table, group, shown, kept))
        for moment in (c for c in described["columns"] if c["type"] == "date"):
            if shown:
                sections.append(self._trend(table, moment, shown, kept))
        return sections

    def _trend(self, table: str, moment: dict, numeric: list[dict], kept: list[dict]) -> dict:
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
        conditions = [{"column": name, "op": "is_null", "value": False}, *kept]
        request = {"table": table, "select": select, **_filters(conditions), "group_by": [name],
                   "order_by": [{"column": name}]}  # fmt: skip
        answer = self.query(table, request, f"the mean of each number column on each {name}{_rows_words(kept)}")
        lines = ["| " + " | ".join(answer["columns"]) + " |", "|" + "---|" * len(answer["columns"])]
        lines += [
            "| " + " | ".join(str(v) if i < 2 else two_decimals(v) for i, v in enumerate(row)) + " |"
            for row in answer["rows"]
        ]
        for row in answer["rows"]:
            for index, c in enumerate(numeric, start=2):
                self.figure(
                    f"{table}|trend|{name}|{row[0]}|{c['name']}",
                    f"{table}, {name} {row[0]}: mean {c['name']}",
                    row[index],
                )
        if len(answer["rows"]) >= 2:
            first, final = answer["rows"][0], answer["rows"][-1]
            for index, c in enumerate(numeric, start=2):
                if first[index] is not None and final[index] is not None:
                    change = two_decimals(final[index] - first[index])
                    went = f"{two_decimals(first[index])} on {first[0]} to {two_decimals(final[index])} on {final[0]}"
                    lines.append(f"\nMean {c['name']} went from {went} ({change}).")
        points = len(answer["rows"])
        return {
            "id": f"{table}-trend-{name}",
            "title": f"Trend: {table} over {name}",
            "body": "\n".join(lines) + _rows_note(kept),
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
        self.evidence.cite(
            self.source(table),
            {"table": table},
            "each column's type, missing values, distinct values, minimum and maximum",
            operation="dataset.describe-table",
        )
        return {
            "id": f"{table}-profile",
            "title": f"Column profiles: {table}",
            "body": "\n".join(lines),
            "confidence": confidence(rows, worst, 0),
        }

    def _described(self, table: str, numeric: list[dict], conditions: list[dict]) -> dict[str, dict]:
        """stats.describe of the number columns over the rows kept, column by column; outliers within
        the groups the question compares, if it compares any."""
        within = self.compared.get(table)
        words = (
            f"the count, mean, {self.settings['sd']} SD, minimum, maximum and sum of each number column"
            + (f", outliers within each {within}" if within else "")
            + _rows_words(conditions)
        )
        request = {
            "table": table,
            "columns": [c["name"] for c in numeric],
            "sd": self.settings["sd"],
            **({"outliers_within": within} if within else {}),
            **_filters(conditions),
        }
        answer = self.query(table, request, words, "stats.describe")
        return {c["column"]: c for c in answer["columns"]} | {"": {"rows": answer["rows"]}}

    def _statistics(self, table: str, rows: int, numeric: list[dict], kept: list[dict]) -> tuple[dict, list[dict]]:
        """The statistics of the rows kept, and the rows kept after the outliers a person left out."""
        first = values = self._described(table, numeric, kept)
        left_out = [
            c["name"]
            for c in numeric
            if first[c["name"]]["outliers"]["values"]
            and self.settings["outliers"].get(f"{table}.{c['name']}") == "exclude"
        ]
        final = kept + [outliers.kept_rows(name, first[name]["outliers"]) for name in left_out]
        if left_out:
            values = self._described(table, numeric, final)
        kind = self.settings["sd"]
        lines = [
            f"| column | n | mean | SD ({kind}) | min | max | sum | outliers |",
            "|---|---|---|---|---|---|---|---|",
        ]
        worst_missing, outliers_total, undecided = 0.0, 0, []
        for c in numeric:
            name = c["name"]
            shown, far_values = values[name], first[name]["outliers"]
            worst_missing = max(worst_missing, 1 - shown["n"] / rows if rows else 0)
            outliers_total += len(far_values["values"])
            decision = self.settings["outliers"].get(f"{table}.{name}")
            if not far_values["checked"]:
                far = "not checked (fewer than 8 values)"
            elif not far_values["values"]:
                far = "none"
            else:
                verb = "left out" if decision == "exclude" else "kept"
                far = f"{len(far_values['values'])} {verb}: {outliers.listed(far_values['values'])}"
                if decision is None:
                    undecided.append(name)
            figures = [two_decimals(shown[key]) for key in ("mean", "sd", "min", "max", "sum")]
            lines.append("| " + " | ".join([name, str(shown["n"]), *figures, far]) + " |")
            for key, label in (("n", "count of"), ("mean", "mean"), ("min", "minimum"), ("max", "maximum"),
                               ("sum", "sum"), ("sd", "SD of")):  # fmt: skip
                self.figure(f"{table}|stat|{name}|{key}", f"{table}: {label} {name}", shown[key])
        divisor = "n - 1" if kind == "sample" else "n"
        notes = [
            f"SD is the {kind} standard deviation (the square root of the mean squared distance from the mean, "
            f"dividing by {divisor}).",
            f"An outlier is {outliers.rule_words(self.compared.get(table))}.",
        ]
        notes += [outliers.left_out_words(name, first[name]["outliers"], values[""]["rows"]) for name in left_out]
        self._ask_about_outliers(table, undecided, first)
        body = "\n".join(lines) + "\n\n" + " ".join(notes) + _rows_note(kept)
        kept_outliers = outliers_total - sum(len(first[n]["outliers"]["values"]) for n in left_out)
        section = {
            "id": f"{table}-statistics",
            "title": f"Descriptive statistics: {table}",
            "body": body,
            "confidence": confidence(rows, worst_missing, kept_outliers),
        }
        return section, final

    def _ask_about_outliers(self, table: str, undecided: list[str], described: dict[str, dict]) -> None:
        """Note the table's undecided outliers that no earlier round asked about; ``ask_pending`` asks
        about all of them at once."""
        self.pending_outliers += [
            outliers.Pending(table, name, described[name]["outliers"], described[name]["mean"])
            for name in undecided
            if f"{table}.{name}" not in self.asked_before
        ]

    def ask_pending(self) -> None:
        """One short question for every outlying value found, however many columns and tables have
        them, with the bounds and how to answer column by column folded into its details."""
        if not self.pending_outliers:
            return
        targets = [p.target for p in self.pending_outliers]
        text, details = outliers.question(self.pending_outliers)
        self.questions.append(text)
        self.asked.append(
            {"about": "outliers", "targets": targets, "key": "outliers:" + ",".join(targets), "details": details}
        )

    def _comparison(self, table: str, group: dict, numeric: list[dict], kept: list[dict]) -> dict:
        name = group["name"]
        select = [name, {"fn": "count", "as": "n"}] + [
            {"fn": "avg", "column": c["name"], "as": f"mean_{c['name']}"} for c in numeric
        ]
        request = {"table": table, "select": select, **_filters(kept), "group_by": [name],
                   "order_by": [{"column": name}]}  # fmt: skip
        words = f"the count and the mean of each number column for each {name}{_rows_words(kept)}"
        answer = self.query(table, request, words)
        header = "| " + " | ".join(answer["columns"]) + " |"
        lines = [header, "|" + "---|" * len(answer["columns"])]
        lines += [
            "| " + " | ".join(str(v) if i < 2 else two_decimals(v) for i, v in enumerate(row)) + " |"
            for row in answer["rows"]
        ]
        for row in answer["rows"]:
            self.figure(f"{table}|group|{name}|{row[0]}|n", f"{table}, {name} {row[0]}: rows", row[1])
            for index, c in enumerate(numeric, start=2):
                self.figure(
                    f"{table}|group|{name}|{row[0]}|{c['name']}",
                    f"{table}, {name} {row[0]}: mean {c['name']}",
                    row[index],
                )
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
            "body": "\n".join(lines) + _rows_note(kept),
            "confidence": confidence(smallest * len(answer["rows"]), 0, 0),
        }


def _person_filters(conditions: list[dict]) -> list[dict]:
    """The filters a person asked for (the outlier ranges the analyst adds are said separately)."""
    return [c for c in conditions if "outliers_of" not in c]


def _rows_words(conditions: list[dict]) -> str:
    stated = _person_filters(conditions)
    left_out = len(conditions) - len(stated)
    words = [condition_words(c) for c in stated]
    if left_out:
        words.append("outliers left out")
    return f", over the rows where {' and '.join(words)}" if words else ""


def _rows_note(conditions: list[dict]) -> str:
    stated = _person_filters(conditions)
    return f"\n\nOnly the rows where {' and '.join(condition_words(c) for c in stated)}." if stated else ""


class AnalysisRefused(TaskFailure):
    """SAP refused a step of the analysis (a missing permission, say): the analyst stops and says so."""

    def __init__(self, operation: str, answer: Block):
        body = answer.body
        if answer.type == "event":  # the step waits for a human's approval
            body = {"code": "PERMISSION_DENIED", "message": f"{operation} waits for approval {body.get('approval_id')}"}
        super().__init__(
            ProtocolError(body["code"], f"{operation}: {body['message']}", details=body.get("details") or {})
        )


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
    earlier = reports(run)
    previous = earlier[-1] if earlier else None
    stated = (previous["payload"].get("provenance") or {}) if previous else {}
    analysis.settings = settings_of(stated.get("settings"))
    analysis.asked_before = {
        key for e in earlier for q in (e["payload"]["provenance"].get("questions") or []) for key in asked_keys(q)
    }
    request = request_of(run)
    proposal = proposal_behind(run, run.message(run.task.source_message_id))
    goal = proposal["payload"]["goal"] if proposal else stated.get("goal", "")
    question = stated.get("question") or goal
    understood = None
    if request is not None:
        understood = understand(request.text, analysis.columns(tables), analysis.settings, question=request.question)
        asked = {"answer": question, "new_direction": request.text}.get(request.kind, f"{question} {request.text}")
        # Words the settings took in whole ("use the sample SD") change how, not what, is asked.
        fully_a_setting = understood.changed and not understood.not_understood and request.kind != "new_direction"
        reread = previous is not None and not fully_a_setting and analysis.reads_differently(tables, question, asked)
        new_data = previous is not None and set(tables) != set(stated.get("tables") or [])
        if previous is not None and not understood.changed and not new_data and not reread:
            return honest_reply(run, request, understood)
        if reread:
            question = asked
            understood.done.append("answered the question again with your words taken in")
            understood.not_understood.clear()
        analysis.settings = understood.settings
    chosen = analysis.chosen_tables(tables)
    answered = analysis.findings(question, chosen)
    sections = [answered[0]]
    for table in chosen:
        run.check()
        sections += analysis.table_report(table)
    analysis.ask_pending()
    overall = round(sum(s["confidence"] for s in sections) / len(sections), 2)
    if request is not None and previous is not None:
        change = what_changed(
            request, understood, stated.get("figures") or {}, analysis.figures, stated.get("tables") or [], tables
        )
        sections.insert(0, change)
    body = "\n\n".join(f"## {s['title']}\n\n{s['body']}" for s in sections)
    questions = analysis.questions[:20]
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": f"# Analysis of {', '.join(chosen)}\n\n{body}", "sections": sections},
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
        "open_questions_for_human": questions,
        "provenance": {
            "behaviour": "analyst",
            "settings": analysis.settings,
            "goal": goal,
            "question": question,
            "findings": answered[1],
            "tables": tables,
            "figures": analysis.figures,
            "questions": [{**record, "index": index} for index, record in enumerate(analysis.asked[: len(questions)])],
        },
    }
    return run.post("report", "collaborative_response", payload, in_reply_to=run.task.source_message_id or None)
