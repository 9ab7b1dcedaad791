"""What a person asks the analyst to do differently, read from their own words (plain Python).

A correction ("use the sample standard deviation"), or an answer to one of the analyst's own
questions ("yes, leave them out"), becomes a change to the analysis settings; what cannot be read
as one is returned as said, so the analyst can answer honestly that it did not act on it.

The settings are a JSON object, carried from report to report in the report's provenance:

- ``sd``: ``"population"`` (the default) or ``"sample"``;
- ``outliers``: ``{"table.column": "exclude" | "keep"}``;
- ``columns``: ``{table: [numeric column, …]}``, the only columns to describe;
- ``group_by``: ``{table: [column, …]}``, the only columns to compare groups by;
- ``rows``: ``{table: [{column, op, value}, …]}``, the rows to keep (a filter or a period);
- ``tables``: the only tables to analyse (all when empty);
- ``reading`` and ``roles``: how a table's file is read and what its columns are (data_instructions.py).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from typing import Any

from agents.analysis import outliers
from agents.analysis.condition_words import condition_words
from agents.analysis.filters import number_filters, value_filters
from agents.analysis.value_words import value_mentions
from agents.behaviours.data_instructions import column_facts, file_options

SD_WORDS = r"(?:standard deviations?|std\.?|s\.?d\.?|spread|variance|deviation)"
SAMPLE = re.compile(rf"\b(?:sample|n\s*-\s*1|bessel|unbiased)\b.*\b{SD_WORDS}|\b{SD_WORDS}.*\bsample\b", re.I)
POPULATION = re.compile(rf"\bpopulation\b.*\b{SD_WORDS}|\b{SD_WORDS}.*\bpopulation\b|\bdivide by n\b", re.I)
OUTLIER_WORDS = re.compile(r"\b(?:outliers?|outlying|extreme values?|unusual values?|those values|them)\b", re.I)
KEEP = re.compile(
    r"\b(?:keep|include|retain|leave (?:them |it |those )?in|no\b|don'?t|do not|never)\b"
    r"|\bnot (?:leave|remove|drop|exclude)",
    re.I,
)
EXCLUDE = re.compile(
    r"\b(?:leave (?:them |it |those |the \w+ )?out|exclude|drop|remove|without|ignore|omit|take (?:them )?out|discard"
    r"|yes|yeah|yep|ok(?:ay)?|agreed|please do|go ahead|sure)\b",
    re.I,
)
UNSURE = re.compile(r"\b(?:not sure|unsure|don'?t know|do not know|no idea|maybe|perhaps|hmm+)\b", re.I)
YES = re.compile(r"^\s*(?:yes|yeah|yep|ok(?:ay)?|agreed|sure|please do|go ahead|do it)\b", re.I)
NO = re.compile(r"^\s*(?:no|nope|don'?t|do not|never)\b", re.I)
ONLY = re.compile(r"\b(?:only|just|focus on|limit (?:it |this )?to|restrict (?:it )?to)\b", re.I)
GROUP = re.compile(r"\b(?:by|per|across|between the|group(?:ed)? by|split by|break(?:down| down)? by)\s+$", re.I)
NOT = re.compile(r"\b(?:except|exclude|excluding|without|not|leave out|drop|remove|other than)\b", re.I)
ISO_DAY = r"\d{4}-\d{2}-\d{2}"
ISO_MONTH = r"\d{4}-\d{2}"
MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): number for number, name in enumerate(calendar.month_abbr) if name})
MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+\d{4}"
WHEN = rf"(?:{ISO_DAY}|{ISO_MONTH}|{MONTH}|\d{{4}})"
BETWEEN = re.compile(rf"\b(?:from|between)\s+({WHEN})\s+(?:to|and|until|till|through)\s+({WHEN})\b", re.I)
SINCE = re.compile(rf"\b(since|after|from|starting|on or after)\s+({WHEN})\b", re.I)
UNTIL = re.compile(rf"\b(until|till|before|up to|through|by)\s+({WHEN})\b", re.I)
DURING = re.compile(rf"\b(?:in|during|only|for|of)\s+({WHEN})\b", re.I)
CLAUSES = re.compile(
    r"(?<=[.;!?])\s+|\n+|,\s*(?:and\s+)?(?=(?:use|keep|leave|only|compare|group|exclude|drop)\b)", re.I
)
USE_TABLE = re.compile(
    r"\b(?:use|only|analy[sz]e|switch to|take|instead)\s+(?:the\s+)?(?:table\s+|file\s+|data\s+in\s+)?([\w.-]+)", re.I
)
FILLER = re.compile(r"^\W*(?:please|thanks?|thank you|ok|okay|great|good)?\W*$", re.I)

WHAT_I_CAN_DO = (
    "read a file again with another separator, decimal mark or thousands separator; read a column as a number, "
    "a date or text; take a column as an identifier, a category, a measure, a weight or a time; "
    "use the sample or the population standard deviation; leave out or keep the outlying values of a column; "
    "describe only some columns; compare the groups of another column; keep only some rows "
    "(a value of a column, a comparison such as “amount above 10”, or a period of a date column)"
)


@dataclass(frozen=True)
class Column:
    table: str
    name: str
    type: str
    values: tuple[str, ...] = ()  # the values of a text column with few of them


@dataclass
class Understood:
    """The settings after the instruction, what was done in words, and what could not be acted on."""

    settings: dict[str, Any]
    done: list[str] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.done)


def empty_settings() -> dict[str, Any]:
    return {
        "sd": "population",
        "outliers": {},
        "columns": {},
        "group_by": {},
        "rows": {},
        "tables": [],
        "reading": {},
        "roles": {},
    }


def table_name(path: str) -> str:
    """The table an attached CSV file is imported as (and what a person means by the file's name)."""
    table = re.sub(r"[^a-z0-9_]", "_", path.rsplit("/", 1)[-1].removesuffix(".csv").lower()).strip("_")
    return f"t_{table}" if not table or table[0].isdigit() else table


def settings_of(previous: dict[str, Any] | None) -> dict[str, Any]:
    """The settings a report was made with (its provenance), completed with the defaults."""
    settings = empty_settings()
    for key, value in (previous or {}).items():
        if key in settings and isinstance(value, type(settings[key])):
            settings[key] = value
    return settings


def _mentions(text: str, columns: list[Column]) -> list[tuple[Column, int, int]]:
    """Where the text names a column (as a word; ``unit_price`` also as "unit price")."""
    found = []
    for column in columns:
        spoken = re.escape(column.name.lower()).replace("_", "[ _]")
        match = re.search(rf"(?<![\w]){spoken}(?![\w])", text.lower())
        if match:
            found.append((column, match.start(), match.end()))
    return found


def _mentioned(text: str, columns: list[Column]) -> list[Column]:
    return [column for column, _, _ in _mentions(text, columns)]


def _period(when: str, *, end: bool) -> str:
    """The first (or last) day a date, a month or a year names, as YYYY-MM-DD."""
    when = when.strip().rstrip(".")
    if re.fullmatch(ISO_DAY, when):
        return when
    if re.fullmatch(ISO_MONTH, when):
        year, month = map(int, when.split("-"))
    elif re.fullmatch(r"\d{4}", when):
        return f"{when}-12-31" if end else f"{when}-01-01"
    else:
        name, year_text = when.lower().replace(".", "").split()
        year, month = int(year_text), MONTHS[name]
    day = calendar.monthrange(year, month)[1] if end else 1
    return f"{year:04d}-{month:02d}-{day:02d}"


def _number(text: str) -> int | float:
    number = float(text)
    return int(number) if number.is_integer() else number


class Reader:
    """Reads one person's words against the columns of the session's tables."""

    def __init__(
        self,
        columns: list[Column],
        settings: dict[str, Any],
        *,
        question: dict[str, Any] | None = None,
        asking: bool = False,
    ):
        self.columns = columns
        self.settings = settings_of(settings)
        self.question = question or {}
        self.result = Understood(self.settings)
        how = (self._data, self._sd, self._outliers, self._tables)
        # A new question's period, filters and groups are its own (the question model reads them), not
        # the session's: "the median in the north since 2014?" must not narrow every later answer.
        self.readers = how if asking else (*how, self._period, self._group, self._rows, self._only)

    def read(self, text: str) -> Understood:
        text = (text or "").strip()
        if self.question.get("about") == "outliers" and self._answer_about_outliers(text):
            text = re.sub(r"^\s*(?:yes|no|ok(?:ay)?|sure)\b[\s,.!:;-]*", "", text, flags=re.I)
            if OUTLIER_WORDS.search(text) or KEEP.search(text) or EXCLUDE.search(text):
                return self.result  # the rest of the answer says the same in other words
        for clause in (c.strip() for c in CLAUSES.split(text) if c and c.strip()):
            if not FILLER.match(clause) and not any(reader(clause) for reader in self.readers):
                self.result.not_understood.append(clause)
        return self.result

    def _did(self, words: str) -> None:
        self.result.done.append(words)

    # -- one reader per kind of instruction; each says whether it acted on the clause -------------

    def _data(self, clause: str) -> bool:
        """How the file is read, and what its columns are (data_instructions.py)."""
        done = file_options(clause, self.columns, self.settings) + column_facts(clause, self.columns, self.settings)
        self.result.done += done
        return bool(done)

    def _sd(self, clause: str) -> bool:
        kind = "sample" if SAMPLE.search(clause) else "population" if POPULATION.search(clause) else None
        if kind is None:
            return False
        divisor = "n - 1" if kind == "sample" else "n"
        was = self.settings["sd"]
        self.settings["sd"] = kind
        self._did(f"used the {kind} standard deviation (dividing by {divisor})" + (" as before" if was == kind else ""))
        return True

    def _outlier_targets(self, clause: str) -> list[str]:
        named = [c for c in _mentioned(clause, self.columns) if c.type == "number"]
        if named:
            return [f"{c.table}.{c.name}" for c in named]
        if self.question.get("about") == "outliers":
            return self.question.get("targets") or [
                f"{self.question['table']}.{name}" for name in self.question.get("columns", [])
            ]
        return [f"{c.table}.{c.name}" for c in self.columns if c.type == "number"]

    def _decide_outliers(self, clause: str, decision: str) -> None:
        targets = self._outlier_targets(clause)
        for target in targets:
            self.settings["outliers"][target] = decision
        self._did_outliers(decision, targets)

    def _did_outliers(self, decision: str, targets: list[str]) -> None:
        verb = "left out" if decision == "exclude" else "kept"
        self._did(f"{verb} the outlying values of {outliers.targets_words(targets)}")

    def _outliers(self, clause: str) -> bool:
        if not re.search(r"\b(?:outliers?|outlying|extreme values?|unusual values?)\b", clause, re.I):
            return False
        decision = "keep" if KEEP.search(clause) else "exclude" if EXCLUDE.search(clause) else None
        if decision is not None:
            self._decide_outliers(clause, decision)
        return decision is not None

    @staticmethod
    def _decision(text: str) -> str | None:
        if NO.search(text) or re.search(r"\bkeep\b|\bleave (?:them |it |those )?in\b", text, re.I):
            return "keep"
        if YES.search(text) or EXCLUDE.search(text):
            return "exclude"
        return None

    def _answer_about_outliers(self, text: str) -> bool:
        """An answer to "Should these outlying values be left out?": yes, no, the same in words, or
        column by column ("leave out price, keep the others")."""
        if UNSURE.search(text):
            return False
        targets = self._outlier_targets("")
        if len(targets) > 1 and _mentioned(text, [c for c in self.columns if f"{c.table}.{c.name}" in targets]):
            return self._answer_column_by_column(text, targets)
        decision = self._decision(text)
        if decision is None:
            return False
        self._decide_outliers(text, decision)
        return True

    def _answer_column_by_column(self, text: str, targets: list[str]) -> bool:
        decided: dict[str, str] = {}
        for clause in re.split(r"[,;]|\b(?:and|but)\b", text):
            decision = self._decision(clause)
            named = [f"{c.table}.{c.name}" for c in _mentioned(clause, self.columns)]
            if decision is None:
                continue
            for target in [t for t in named if t in targets] or (
                [t for t in targets if t not in decided] if re.search(r"\b(?:others?|rest)\b", clause, re.I) else []
            ):
                decided[target] = decision
        for decision in ("exclude", "keep"):
            chosen = sorted(t for t, d in decided.items() if d == decision)
            for target in chosen:
                self.settings["outliers"][target] = decision
            if chosen:
                self._did_outliers(decision, chosen)
        return bool(decided)

    def _tables(self, clause: str) -> bool:
        """ "Use sales_corrected.csv", "only the visits table": the tables to analyse."""
        known = {c.table for c in self.columns}
        named = [table_name(word) for word in USE_TABLE.findall(clause)]
        chosen = sorted({t for t in named if t in known})
        if chosen:
            self.settings["tables"] = chosen
            self._did(f"analysed only {' and '.join(chosen)}")
        return bool(chosen)

    def _period(self, clause: str) -> bool:
        dates = [c for c in self.columns if c.type == "date"]
        start = end = None
        if match := BETWEEN.search(clause):
            start, end = _period(match.group(1), end=False), _period(match.group(2), end=True)
        else:
            if match := SINCE.search(clause):
                start = _period(match.group(2), end=match.group(1).lower() == "after")
            if match := UNTIL.search(clause):
                end = _period(match.group(2), end=match.group(1).lower() != "before")
            if start is None and end is None and (match := DURING.search(clause)):
                start, end = _period(match.group(1), end=False), _period(match.group(1), end=True)
        if not dates or (start is None and end is None):
            return False
        for column in _mentioned(clause, dates) or dates:
            kept = [f for f in self.settings["rows"].get(column.table, []) if f["column"] != column.name]
            kept += [{"column": column.name, "op": ">=", "value": start}] if start else []
            kept += [{"column": column.name, "op": "<=", "value": end}] if end else []
            self.settings["rows"][column.table] = kept
            span = f"from {start} to {end}" if start and end else f"from {start} on" if start else f"up to {end}"
            self._did(f"kept only the rows of {column.table} with {column.name} {span}")
        return True

    def _group(self, clause: str) -> bool:
        groupable = [c for c in self.columns if c.type in ("string", "boolean")]
        chosen = [column for column, start, _ in _mentions(clause, groupable) if GROUP.search(clause[:start][-40:])]
        for table in sorted({c.table for c in chosen}):
            names = [c.name for c in chosen if c.table == table]
            self.settings["group_by"][table] = names
            self._did(f"compared the groups of {table} by {' and '.join(names)} only")
        return bool(chosen)

    def _conditions(self, clause: str) -> list[tuple[Column, dict[str, Any]]]:
        """The row filters a clause states: values of text columns, and comparisons of numbers, each
        turned round when the clause leaves them out (agents/analysis/filters.py)."""
        found: list[tuple[Column, dict[str, Any]]] = []
        for table in sorted({c.table for c in self.columns}):
            columns = {c.name: c for c in self.columns if c.table == table}
            said = value_mentions(clause, {c.name: list(c.values) for c in columns.values() if c.values})
            numbers = [c.name for c in columns.values() if c.type == "number"]
            found += [(columns[f.column], f.condition) for f in value_filters(clause, said)]
            found += [(columns[f.column], f.condition) for f in number_filters(clause, numbers)]
        return found

    def _rows(self, clause: str) -> bool:
        """A filter: "only north", "without east", "amount above 10", "rows where units >= 2"."""
        found = self._conditions(clause)
        stated = (
            NOT.search(clause) or ONLY.search(clause) or re.search(r"\b(?:where|with|rows?|filter)\b", clause, re.I)
        )
        if not found or not (stated or any(c.get("op") not in ("=", "in") for _, c in found)):
            return False
        for column, condition in found:
            kept = self.settings["rows"].get(column.table, [])
            if condition.get("op") in ("=", "in"):  # a new choice of values replaces the earlier one
                kept = [f for f in kept if not (f.get("column") == column.name and f.get("op") in ("=", "in"))]
            self.settings["rows"][column.table] = [*(f for f in kept if f != condition), condition]
            self._did(f"kept only the rows of {column.table} where {condition_words(condition)}")
        return True

    def _only(self, clause: str) -> bool:
        named = [c for c in _mentioned(clause, self.columns) if c.type == "number"] if ONLY.search(clause) else []
        for table in sorted({c.table for c in named}):
            names = [c.name for c in named if c.table == table]
            self.settings["columns"][table] = names
            self._did(f"described only {' and '.join(names)} in {table}")
        return bool(named)


def understand(
    text: str,
    columns: list[Column],
    settings: dict[str, Any],
    *,
    question: dict[str, Any] | None = None,
    asking: bool = False,
) -> Understood:
    """The settings after ``text`` (a correction, the answer to ``question``, or with ``asking`` a new
    question), and what was done."""
    return Reader(columns, settings, question=question, asking=asking).read(text)
