"""One analysis of the session's tables, as the analyst does it: through SAP only, every query cited.

An ``Analysis`` finds the session's tables (importing the CSV files the humans attached first), reads
their profiles and answers the question from the table it names most; table_sections.py writes each
table's sections from it. It keeps what the report carries besides its sections: the figures "What
changed" compares, the sources, what it is unsure of and the questions it asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.analysis import outliers
from agents.analysis.question_parts import two_questions
from agents.analysis.schema import Schema
from agents.analysis.two_tables import without_joins
from agents.behaviours import answering, joining, stacking
from agents.behaviours.instructions import Column, settings_of, table_name
from agents.runtime import TaskFailure, TaskRun
from agents.sap import Block
from protocol.errors import ProtocolError

COMPARING = ("compare", "rank_differences")  # questions whose groups outliers are measured within
OPERATION_WORDS = {
    "dataset.query": "a query",
    "dataset.describe-table": "the table's profile",
    "dataset.unpivot": "its columns stacked as rows",
}
MATERIAL_TYPES = {"dataset.query": "dataset_query", "dataset.describe-table": "dataset_describe"}


@dataclass
class Evidence:
    """The queries behind a report, each cited with the table and, in words, what it computes."""

    materials: list[dict[str, Any]] = field(default_factory=list)

    def cite(
        self, source: str, request: dict[str, Any], words: str, operation: str = "dataset.query"
    ) -> dict[str, Any]:
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


def import_summary(report: dict[str, Any], path: str, options: dict[str, Any]) -> dict[str, Any]:
    """What the next rounds keep of an import's result (the report's provenance carries it); the
    "Data as read" section says it (import_sections.py)."""
    return {
        "path": path,
        "options": options,
        "rows_in_file": report["rows_in_file"],
        "rows_loaded": report["rows_loaded"],
        "rejected": report["rejected"][:10],
        "rows_rejected": report["rows_rejected"],
        "dialect": report["dialect"],
        "guessed": report["guessed"],
        "columns": {
            c["name"]: {
                key: c[key] for key in ("missing_markers", "stray_values", "numbered_evenly", "repeated_evenly")
            }
            | {key: c[key] for key in ("sign", "date_format") if key in c}  # how the code must read it again
            for c in report["columns"]
        },
    }


def rows_read(path: str, table: str, in_file: int, loaded: int) -> str:
    """An import's outcome in a person's words: the rows in the file against the rows loaded."""
    same = "all of them loaded" if in_file == loaded else f"{loaded:,} loaded, {in_file - loaded:,} not"
    return f"{path} → table {table}: {in_file:,} rows in the file, {same}"


class Analysis:
    def __init__(self, run: TaskRun, settings: dict[str, Any] | None = None):
        self.run = run
        self.settings = settings_of(settings)
        self.evidence = Evidence()
        self.uncertainties: list[dict[str, Any]] = []
        self.questions: list[str] = []
        self.asked: list[dict[str, Any]] = []  # what each question is about, in the order of ``questions``
        self.asked_before: set[str] = set()  # the keys of questions asked before, and the columns they were about
        self.pending_outliers: list[outliers.Pending] = []
        self.compared: dict[str, str] = {}  # table -> the text column whose groups the question compares
        self.figures: dict[str, list[Any]] = {}  # key -> [label, value]: what "What changed" compares
        self.described: dict[str, dict[str, Any]] = {}
        self.schemas: dict[str, Schema] = {}
        self.files: dict[str, str] = {}  # table -> the attached file it was imported from
        self.imports: dict[str, dict[str, Any]] = {}  # table -> how its file was read (import_sections.summary)
        self.stacks: dict[str, tuple[str, dict[str, Any]]] = {}  # stacked table -> (wide table, dataset.unpivot body)
        self.assumptions: list[str] = []

    def source(self, table: str) -> str:
        """Where a table's figures come from, in a person's words."""
        path = self.files.get(table)
        return f"{path} (table {table})" if path else f"the table {table}"

    def ask(self, name: str, body: dict[str, Any], kind: str = "query") -> dict[str, Any]:
        [answer] = self.run.sap(Block(kind, name, "a", body))
        if answer.type != "result":
            raise AnalysisRefused(name, answer)
        return answer.body

    def query(
        self, table: str, request: dict[str, Any], words: str, operation: str = "dataset.query"
    ) -> dict[str, Any]:
        answer = self.ask(operation, request)
        self.evidence.cite(self.source(table), request, words, operation)
        return answer

    def figure(self, key: str, label: str, value: float | None) -> None:
        self.figures[key] = [label, None if value is None else round(float(value), 2)]

    def tables(self) -> list[str]:
        """The session's tables, after importing every attached CSV that has none yet, and importing
        again the files a person said to read otherwise (the ``reading`` settings)."""
        existing = {t["table"] for t in self.ask("dataset.list-tables", {})["tables"]}
        files = self.ask("file.list", {"pattern": "*.csv", "recursive": True, "format": "bare"})["files"]
        for path in files:
            table = table_name(path)
            self.files.setdefault(table, path)
            reading = self.settings["reading"].get(table)
            if table not in existing:
                self._import(path, table, reading or {}, replace=False)
                existing.add(table)
            elif table in self.imports and reading is not None and reading != self.imports[table]["options"]:
                self._import(path, table, reading, replace=True)
        return without_joins(sorted(existing))  # a join made for an earlier question is no table of the data's

    def _import(self, path: str, table: str, reading: dict[str, Any], *, replace: bool) -> None:
        told = {"delimiter": "separator", "decimal": "decimal", "thousands": "thousands", "types": "types"}
        options = {key: reading[said] for key, said in told.items() if said in reading}
        body = {"path": path, "table": table, **options, **({"replace": True} if replace else {})}
        report = self._imported(path, table, body)
        dialect = report["dialect"]
        used = {"separator": dialect["separator"], "decimal": dialect["decimal"], "thousands": dialect["thousands"]}
        used["types"] = reading.get("types") or {}
        self.settings["reading"][table] = used
        self.imports[table] = import_summary(report, path, used)
        self.described.pop(table, None)
        self.schemas.pop(table, None)

    def _imported(self, path: str, table: str, body: dict[str, Any]) -> dict[str, Any]:
        """The import's result; while a big file imports, its progress is the analyst's status (the
        operation paces it: a few times however big), and the last status says what was loaded."""
        answer, reported = None, False
        for answer in self.run.sap_stream(Block("action", "dataset.import-csv", "a", body)):
            event = answer.body
            if answer.type == "event" and "progress" in event:
                done = event["progress"]
                self.run.status(
                    event["message"], done=done["done"] if "total" in done else None, total=done.get("total")
                )
                reported = True
        assert answer is not None  # every request gets a result, an error or an approval request
        if answer.type != "result":
            raise AnalysisRefused("dataset.import-csv", answer)
        report = answer.body
        if reported:
            self.run.status(f"imported {rows_read(path, table, report['rows_in_file'], report['rows_loaded'])}")
        return report

    def take_settings(self, settings: dict[str, Any], tables: list[str]) -> list[str]:
        """Work with a person's settings from here on: the tables as they now read (a file they said
        to read otherwise is imported again; a role they named shows in ``schema``)."""
        self.settings = settings
        stale = [
            t
            for t, imported in self.imports.items()
            if settings["reading"].get(t, imported["options"]) != imported["options"]
        ]
        return self.tables() if stale else tables

    def file_reading(self, table: str) -> dict[str, Any] | None:
        """How the table's file was read (its path, dialect, columns with their types and missing markers):
        what the code that reproduces an answer needs; None for a table no file made."""
        if table in self.stacks:  # the wide table's file, stacked as dataset.unpivot stacked it
            wide, body = self.stacks[table]
            file = self.file_reading(wide)
            return file and file | {"melt": {key: body[key] for key in ("keep", "columns", "name", "value")}}
        imported = self.imports.get(table)
        if imported is None:
            return None
        types = {c["name"]: c["type"] for c in self.describe(table)["columns"]}
        columns = [{"name": name, "type": types.get(name, "string"), "markers": list(facts["missing_markers"] or {}),
                    "sign": facts.get("sign", ""), "day_first": facts.get("date_format", "").startswith("day"),
                    "quarterly": facts.get("date_format", "").startswith("year-quarter")}
                   for name, facts in imported["columns"].items()]  # fmt: skip
        return {"path": imported["path"], "dialect": imported["dialect"], "columns": columns}

    def describe(self, table: str) -> dict[str, Any]:
        if table not in self.described:
            self.described[table] = self.ask("dataset.describe-table", {"table": table})
        return self.described[table]

    def schema(self, table: str) -> Schema:
        """The table's columns with their roles as the settings now say (the profile is read once)."""
        if table not in self.schemas:
            self.schemas[table] = answering.schema_of(self, table)
        imported = (self.imports.get(table) or {}).get("columns") or {}
        return answering.with_roles(self.schemas[table], self.settings["roles"].get(table, {}), imported)

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

    def reading_options(self, question: str, tables: list[str]) -> list[dict[str, str]]:
        """The readings of the question to offer the person before answering it, if it has several."""
        schema = answering.best_table(question, [self.schema(t) for t in tables])
        return answering.reading_options(question, schema, self.settings["rows"].get(schema.table, []))

    def cite_stack(self, body: dict[str, Any], words: str) -> None:
        self.evidence.cite(self.source(body["table"]), body, words, "dataset.unpivot")

    def cite_join(self, body: dict[str, Any], words: str) -> None:
        self.evidence.cite(f"{self.source(body['left'])} and {self.source(body['right'])}", body, words, "dataset.join")

    def findings(self, question: str, tables: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The section that answers the question (its first, when one sentence asks two: the second is
        said to be left for a question of its own, never answered by a reading of both at once)."""
        first, second = two_questions(question)
        if second is None or self._one_kind(question, first, tables):
            return self._findings(question, tables)
        section, request = self._findings(first, tables)
        lead, _, rest = section["body"].partition("\n")
        left = (
            f"- This answers the first part of your question; “{second}” needs a question of its own: ask it "
            "and I will answer it."
        )
        return {**section, "body": f"{lead}\n{left}\n{rest}"}, request | {"second_question": second}

    def _one_kind(self, whole: str, first: str, tables: list[str]) -> bool:
        """Whether two questions read as one ("which shop has the highest mean basket value, and how do the
        shops differ in items?": one comparison of two measures): the same kind over the same groups."""
        schema = answering.best_table(whole, [self.schema(t) for t in tables])
        rows = self.settings["rows"].get(schema.table, [])
        both, alone = (answering.request_for(text, schema, rows) for text in (whole, first))
        return (both.kind, both.group) == (alone.kind, alone.group)

    def _findings(self, question: str, tables: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The section that answers one question, from the table it names most, or from two joined when
        it needs both (joining.py), or from a wide table's columns stacked (stacking.py)."""
        joined = joining.findings(self, question, tables)
        if joined is not None:
            return joined
        schema = answering.best_table(question, [self.schema(t) for t in tables])
        stacked = stacking.findings(self, question, schema)
        if stacked is not None:
            return stacked
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

    def ask_pending(self, answered: set[str]) -> None:
        """One short question for every outlying value found in the columns the answer used (``answered``;
        every column when it used none), however many tables have them, with the bounds and how to
        answer column by column folded into its details. A column the answer did not use is left alone:
        a price series' recent highs asked about in every session are noise, not a question."""
        pending = [p for p in self.pending_outliers if not answered or p.column in answered]
        if not pending:
            return
        targets = [p.target for p in pending]
        text, details = outliers.question(pending)
        self.questions.append(text)
        self.asked.append(
            {"about": "outliers", "targets": targets, "key": "outliers:" + ",".join(targets), "details": details}
        )


class AnalysisRefused(TaskFailure):
    """SAP refused a step of the analysis (a missing permission, say): the analyst stops and says so."""

    def __init__(self, operation: str, answer: Block):
        body = answer.body
        if answer.type == "event":  # the step waits for a human's approval
            body = {"code": "PERMISSION_DENIED", "message": f"{operation} waits for approval {body.get('approval_id')}"}
        super().__init__(
            ProtocolError(body["code"], f"{operation}: {body['message']}", details=body.get("details") or {})
        )
