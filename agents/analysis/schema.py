"""A table's columns as the question model reads them: measures, categories, timelines. Plain Python."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from agents.analysis.words import split_name

MAX_GROUPS = 50
NOT_MEASURES = ("identifier", "constant")  # roles (agents/analysis/column_roles.py) never measured


CODED_MAX = 12  # a number column with this few distinct whole values may be a coded category


IDENTIFIER = re.compile(
    # "customer_id", "PassengerId", "row index"; never a word that ends so ("turkey", "paid", "price_index")
    r"(?i:(?:^|[_ .])(?:id|idx|key|uuid)$|^(?:row[_ ]?)?index$)|[a-z](?:ID|Id|Key|Idx|UUID)$"
    r"|^(?:row|record)_?(?:no|num|number)$"
    # "RANDID", "CUSTID": a name in capitals ending in ID, never a word that ends so ("PAID", "HUMID")
    r"|^(?!(?:UN|PRE)?PAID$|AVOID$|(?:IN)?VALID$|SOLID$|LIQUID$|HUMID$|RAPID$|ACID$|FLUID$|HYBRID$|RIGID$|LIPID$)[A-Z]{2,}ID$"
    r"|[A-Za-z][ _.](?:[Nn]o|[Nn]r|#)\.?$"  # "Instructor No", "store_nr": numbered things ("Sunspot Number" counts)
    r"|(?i:(?:^|[_ ])(?:fips|zip|zipcode|postcode|isbn|ssn)(?:[_ ]?code)?$)"  # "County FIPS": a code names places
)


# A number column that is a timeline: "year", "model_year", "Season"; not "steps_per_day" or "Year_Built".
# A unit in the plural counts a span ("weeks" of remission, "days" survived, "Years" in the majors): a measure.
TIMELINE_ENDS = {"year", "yr", "decade", "season", "period", "series", "wave", "edition"}


TIMELINE_ONLY = {"month", "quarter", "week", "day"}
# A column that says how long something lasted: "wait_days", "delay", "weeks", "response_time_s".
DURATION = re.compile(
    r"time|delay|duration|latency|wait|(?:^|_)(?:s|ms|secs?|seconds|minutes|mins|hours|days|weeks|months|years)(?:_|$)",
    re.I,
)


def is_timeline(name: str) -> bool:
    """A number column that is a timeline: "year", "model_year", "FiscalYear"; not "steps_per_day" or "Year_Built"."""
    words = split_name(name)
    return bool(words) and (words[-1] in TIMELINE_ENDS or words in ([w] for w in TIMELINE_ONLY)) and "per" not in words


GRAINS = (("day", 1), ("week", 7), ("month", 30.4), ("quarter", 91.3), ("year", 365.25))  # a step in days


@dataclass(frozen=True)
class Schema:
    """A table's columns as the question model reads them."""

    table: str
    columns: list[dict[str, Any]]  # name, type, distinct, min, max, values (few-valued columns)
    rows: int = 0

    def names(self, *kinds: str) -> list[str]:
        return [c["name"] for c in self.columns if c["type"] in kinds]

    @property
    def numbers(self) -> list[str]:
        """Number columns that measure something: an identifier (traveller_id, RowID, numbered subjects)
        or a constant measures nothing, unless a person said it does (``told``)."""
        return [
            c["name"]
            for c in self.columns
            if c["type"] == "number"
            and c.get("role") not in NOT_MEASURES
            and (c.get("told") or not IDENTIFIER.search(c["name"]))
        ]

    @property
    def sole_measure(self) -> str | None:
        """The table's one measure, when it has only one: a question need not name it ("wine sales" of a
        table whose only measure is kilolitres); a 0/1 column beside it ("financial_aid") is who the rows are."""
        flags = {c["name"] for c in self.columns if c["type"] == "number" and 0 < len(c.get("values") or []) <= 2
                 and set(c["values"]) <= {0, 1}}  # fmt: skip
        choices = [m for m in self.measures if m not in flags]
        return choices[0] if len(choices) == 1 else None

    @property
    def lasting(self) -> str | None:
        """The table's one measure of how long something lasted, which "how long" asks for unnamed."""
        spans = [m for m in self.measures if DURATION.search(m) and "per" not in split_name(m)]
        return spans[0] if len(spans) == 1 else None

    @property
    def measures(self) -> list[str]:
        """Number columns that measure and are no timeline."""
        return [n for n in self.numbers if n not in self.times]

    @property
    def categories(self) -> list[str]:
        """Text and yes/no columns with few values, and number columns that code a few categories."""
        return [
            c["name"]
            for c in self.columns
            if (c["type"] in ("string", "boolean") and 1 <= (c.get("distinct") or 0) <= min(MAX_GROUPS, self._unique()))
            or (c["type"] == "number" and coded(c))
            if c.get("role") != "identifier"
        ]

    @property
    def row_names(self) -> list[str]:
        """Text columns with a value for (nearly) every row: the names of the things the rows are."""
        categories = set(self.categories)
        return [c["name"] for c in self.columns if c["type"] == "string" and c["name"] not in categories]

    @property
    def rows_named_by(self) -> list[str]:
        """The columns whose name is what the rows are ("how many patients" of a patient number column)."""
        return [*self.row_names, *(c["name"] for c in self.columns if c.get("role") == "identifier")]

    def grain(self, column: str) -> str | None:
        """How far apart a date column's values lie, one a row: "month" for a monthly series."""
        c = next((c for c in self.columns if c["name"] == column), None)
        span = _days_between_ends(c) if c is not None else None
        if c is None or span is None or (c.get("distinct") or 0) < 2:
            return None
        step = span / (c["distinct"] - 1)
        return next((name for name, days in GRAINS if 0.8 * days <= step <= 1.2 * days), None)

    def one_a_row(self, column: str) -> bool:
        """Whether (nearly) every row has its own value of ``column``: a table of years, of quarters."""
        return next((c.get("distinct") or 0 for c in self.columns if c["name"] == column), 0) >= 0.9 * self.rows

    def _unique(self) -> int:
        """A text column with a value for every row names the rows (students, states): it groups nothing."""
        return self.rows - 1 if self.rows > 2 else MAX_GROUPS

    @property
    def daily(self) -> bool:
        """One row a day: a date column whose values are (nearly) every day between its first and last."""
        for c in self.columns:
            between = _days_between_ends(c)
            if between is None:
                continue
            span = between + 1
            if (c.get("distinct") or 0) >= 0.9 * max(self.rows, 1) and 0.9 * span <= (c.get("distinct") or 0) <= span:
                return True
        return False

    @property
    def times(self) -> list[str]:
        dates = self.names("date")
        years = [
            c["name"]
            for c in self.columns
            if c["type"] == "number" and (is_timeline(c["name"]) or c.get("role") == "time")
        ]
        return dates + years

    def ranges(self) -> dict[str, tuple[float, float]]:
        return {
            c["name"]: (float(c["min"]), float(c["max"]))
            for c in self.columns
            if c["type"] == "number" and isinstance(c.get("min"), int | float) and isinstance(c.get("max"), int | float)
        }

    def years_spanned(self) -> dict[str, tuple[int, int]]:
        """Each date column's first and last year."""
        spanned = {}
        for c in self.columns:
            first, last = str(c.get("min") or "")[:4], str(c.get("max") or "")[:4]
            if c["type"] == "date" and first.isdigit() and last.isdigit():
                spanned[c["name"]] = (int(first), int(last))
        return spanned

    def values(self) -> dict[str, list[str]]:
        return {c["name"]: [str(v) for v in c.get("values") or []] for c in self.columns if c["type"] == "string"}


def coded(column: dict[str, Any]) -> bool:
    """A number column that codes categories: 0/1, or a few whole values under a name that says so
    (region, sex, EducationLevel, PartyID); a few whole values alone (qty, rooms) still measure."""
    values = column.get("values") or []
    if not (2 <= (column.get("distinct") or 0) <= CODED_MAX and all(float(v).is_integer() for v in values)):
        return False
    named = column.get("coded") or CODE_NAMES.search(column["name"])
    return {float(v) for v in values} == {0.0, 1.0} or bool(named)


CODE_NAMES = re.compile(
    r"code|level|class|type|group|region|sex|gender|status|categor|flag|tier|zone|segment|cluster|cohort|bracket"
    r"|party|band|quintile|decile|kind|origin|species|area_id|district|site|store|branch|clinic|cent(?:er|re)|station"
    r"|hospital|team|stage|grade|educ",
    re.I,
)


def _days_between_ends(column: dict[str, Any]) -> int | None:
    """The days from a date column's first value to its last (None for any other column)."""
    if column["type"] != "date" or not column.get("min") or not column.get("max"):
        return None
    try:
        return (date.fromisoformat(str(column["max"])[:10]) - date.fromisoformat(str(column["min"])[:10])).days
    except ValueError:
        return None
