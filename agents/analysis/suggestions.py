"""Questions a table can answer, offered when a CSV is attached, in the spirit of LIDA's goals. Plain Python.

From the columns' roles (agents/analysis/column_roles.py: the measures, the groups, the time) a few
short questions in plain words, each of a different kind the analyst answers (agents/analysis/kinds.py),
naming columns as the report does. Each is read back through the question reader before it is offered:
a suggestion the analyst would read as another kind, or about other columns, is never offered.
Identifiers, constants and weights are never asked about.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.analysis.prose import spoken
from agents.analysis.question import read_question
from agents.analysis.schema import CODED_MAX, Schema
from agents.analysis.words import split_name

MOST = 6
# Words that name what a table is usually about: its outcome rather than what explains it.
OUTCOME_WORDS = {
    "sales", "price", "revenue", "income", "profit", "score", "cost", "total", "amount", "salary", "wage",
    "value", "mass", "yield", "spend", "spending", "outcome", "result", "charges", "earnings", "output",
    "recovery", "survival", "response", "satisfaction", "rating", "rent", "fare", "weight",
}  # fmt: skip


@dataclass(frozen=True)
class Suggestion:
    """A question to offer: its words, the kind the analyst reads it as and the columns it names."""

    question: str
    kind: str
    columns: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"question": self.question, "kind": self.kind, "columns": list(self.columns)}


@dataclass(frozen=True)
class Parts:
    """What a table offers to ask about: its main measure and the others, its groups (text columns of a
    few values first, yes/no-like pairs after them) and the two values of those that have two, its yes/no
    columns (an outcome when nothing is measured: survived, relapsed), its time column and the last year
    it reaches."""

    main: str | None
    others: list[str]
    groups: list[str]
    pairs: dict[str, tuple[str, str]]
    flags: list[str]
    time: str | None
    last_year: int | None


def suggested_questions(schema: Schema, most: int = MOST) -> list[Suggestion]:
    """Up to ``most`` questions of different kinds the table answers, the likeliest first (of two ways
    to ask a kind, the first that reads back)."""
    parts = parts_of(schema)
    offered: list[Suggestion] = []
    for write in WRITERS:
        suggestion = write(parts)
        if suggestion is None or suggestion.kind in {s.kind for s in offered}:
            continue
        if reads_as_suggested(suggestion, schema):
            offered.append(suggestion)
        if len(offered) == most:
            break
    return offered


def parts_of(schema: Schema) -> Parts:
    roles = {c["name"]: c.get("role") for c in schema.columns}
    measures = [name for name in schema.measures if roles.get(name) == "measure"]
    main = next((m for m in measures if OUTCOME_WORDS.intersection(split_name(m))), measures[-1] if measures else None)
    groups = sorted(
        (c for c in schema.columns if c.get("role") == "category" and 2 <= (c.get("distinct") or 0) <= CODED_MAX),
        key=lambda c: (c["type"] != "string", c.get("distinct") == 2, c.get("distinct") or 0),
    )
    pairs = {c["name"]: (str(c["values"][0]), str(c["values"][1])) for c in groups if len(c.get("values") or []) == 2}
    times = [name for name in schema.times if roles.get(name) == "time"]
    time = times[0] if times else None
    others = [m for m in measures if m != main]
    flags = [c["name"] for c in schema.columns if c.get("role") == "yes/no"]
    return Parts(main, others, [c["name"] for c in groups], pairs, flags, time, _last_year(schema, time))


def _last_year(schema: Schema, time: str | None) -> int | None:
    """The last year the time column reaches (a year column's maximum, a date's year), if it says one."""
    column = next((c for c in schema.columns if c["name"] == time), None)
    latest = str((column or {}).get("max") or "")[:4]
    return int(latest) if latest.isdigit() and 1800 <= int(latest) <= 2200 else None


def _compare(parts: Parts) -> Suggestion | None:
    if not (parts.main and parts.groups):
        return None
    group, measure = parts.groups[0], parts.main
    question = f"Which {spoken(group)} has the highest average {spoken(measure)}?"
    return Suggestion(question, "compare", (measure, group))


def _trend(parts: Parts) -> Suggestion | None:
    if not (parts.main and parts.time):
        return None
    question = f"How did the average {spoken(parts.main)} change over time?"
    return Suggestion(question, "trend", (parts.main, parts.time))


def _association(parts: Parts) -> Suggestion | None:
    if not (parts.main and parts.others):
        return None
    return Suggestion(f"Which measure goes most with {spoken(parts.main)}?", "association", (parts.main,))


def _tested(parts: Parts) -> str | None:
    """What a test of a difference is about: the main measure, or a yes/no outcome when nothing is measured."""
    return parts.main or (parts.flags[0] if parts.flags else None)


def _significance_between(parts: Parts) -> Suggestion | None:
    """The textbook test between two groups named by their values ("between drug and placebo")."""
    tested = _tested(parts)
    if not (tested and parts.pairs):
        return None
    group, (first, second) = next(iter(parts.pairs.items()))
    question = f"Is the difference in {spoken(tested)} between {first} and {second} statistically significant?"
    return Suggestion(question, "significance", (tested, group))


def _significance(parts: Parts) -> Suggestion | None:
    tested = _tested(parts)
    if not (tested and parts.groups):
        return None
    group = parts.groups[0]
    question = f"Is the difference in {spoken(tested)} by {spoken(group)} statistically significant?"
    return Suggestion(question, "significance", (tested, group))


def _outliers(parts: Parts) -> Suggestion | None:
    measure = parts.others[0] if parts.others else parts.main
    if measure is None:
        return None
    return Suggestion(f"Are there any outliers in {spoken(measure)}?", "outliers", (measure,))


def _share(parts: Parts) -> Suggestion | None:
    if not parts.groups:
        return None
    group = parts.groups[-1]  # another grouping than the comparison's, when there is one
    return Suggestion(f"What share of the rows does each {spoken(group)} account for?", "share", (group,))


def _forecast(parts: Parts) -> Suggestion | None:
    if not (parts.main and parts.time and parts.last_year):
        return None
    year = parts.last_year + 2
    question = f"If the trend continues, what will the average {spoken(parts.main)} be in {year}?"
    return Suggestion(question, "forecast", (parts.main, parts.time))


def _crosstab(parts: Parts) -> Suggestion | None:
    """A grouping against a yes/no outcome when there is one (class and survived), else two groupings."""
    pair = [*parts.groups[:1], *parts.flags[:1]] if parts.flags else parts.groups[:2]
    if len(pair) < 2:
        return None
    first, second = pair
    return Suggestion(f"Are {spoken(first)} and {spoken(second)} related?", "crosstab", (first, second))


def _distribution(parts: Parts) -> Suggestion | None:
    if parts.main is None:
        return None
    return Suggestion(f"How is {spoken(parts.main)} distributed?", "distribution", (parts.main,))


def _median(parts: Parts) -> Suggestion | None:
    if parts.main is None:
        return None
    return Suggestion(f"What is the median {spoken(parts.main)}?", "statistic", (parts.main,))


def _missing(parts: Parts) -> Suggestion | None:
    return Suggestion("Which columns have missing values?", "missing", ())


WRITERS: tuple[Callable[[Parts], Suggestion | None], ...] = (
    _compare,
    _trend,
    _association,
    _significance_between,
    _significance,
    _outliers,
    _share,
    _forecast,
    _crosstab,
    _distribution,
    _median,
    _missing,
)


PARTS = ("group", "outcome", "time", "entity", "second", "within")


def columns_read(request: dict[str, Any]) -> set[str]:
    """Every column a reading (a request as its dict) gives a part to."""
    return {*(request.get("measures") or []), *(str(request[p]) for p in PARTS if request.get(p))}


def answered_by(suggestion: Suggestion, request: dict[str, Any]) -> bool:
    """Whether a question already read as ``request`` asks what the suggestion asks."""
    return request.get("kind") == suggestion.kind and set(suggestion.columns) <= columns_read(request)


def reads_as_suggested(suggestion: Suggestion, schema: Schema) -> bool:
    """Whether the question reader reads the suggestion as its kind, about its columns, needing nothing more."""
    request = read_question(suggestion.question, schema)
    every_row = all(_keeps_every_row(f, schema) for f in request.filters)
    return answered_by(suggestion, request.as_dict()) and not request.missing and every_row


def _keeps_every_row(condition: dict[str, Any], schema: Schema) -> bool:
    """A filter that lists every value of its column ("between female and male"): it keeps every row."""
    column = next((c for c in schema.columns if c["name"] == condition.get("column")), None)
    values = {str(v) for v in (column or {}).get("values") or []}
    return condition.get("op") == "in" and bool(values) and {str(v) for v in condition["value"]} == values
