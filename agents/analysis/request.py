"""What the analyst is asked, once a question is read (agents/analysis/question.py reads it): the
kind of question, the columns in their parts, the statistic, the filters. Plain Python.

Its own module so that what reads a request (prose, the stated reading, the readings offered) need not
import the reader."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.analysis.words import Mention


@dataclass
class Said:
    """Where the question's words went: each column it names (where, and how fully) and the spans its
    filters took. How sure the reading is follows from it (agents/analysis/reading.py)."""

    columns: list[Mention] = field(default_factory=list)
    filters: list[tuple[int, int, str]] = field(default_factory=list)


@dataclass
class Request:
    """What the analyst is asked: one kind, the columns in their parts, the statistic, the filters."""

    kind: str
    table: str
    measures: list[str] = field(default_factory=list)
    group: str | None = None
    outcome: str | None = None
    time: str | None = None
    entity: str | None = None
    weight: str | None = None
    statistic: str = "mean"
    percentile: float = 50
    direction: str = "high"
    period: str = "auto"
    change: str = "percent"  # growth ranked by the percentage change, or "absolute": by how much
    sd: str = "sample"
    filters: list[dict[str, Any]] = field(default_factory=list)
    pair: bool = False
    cycle: str | None = None  # "the warmest month of the year": groups are a date column's months
    n: int = 5  # how many rows a top-N list names
    label: str | None = None  # the column that names the rows a list, an outlier or "which row" names
    combine: str | None = None  # a top-N of groups: how each group's rows are combined first
    within: str | None = None  # outliers within each group of this column
    second: str | None = None  # a second grouping: a cross-tab's columns, a two-factor comparison's other factor,
    # or a paired test's second measure of the same rows ("from pre to post")
    subject: str | None = None  # what each row measures (a patient): two groups of the same subjects are paired
    to: str | None = None  # the period a forecast is asked for
    # a number grouping read as two groups, whether each value is above this (a cross-tab's second column, a
    # test's groups: "the quarters where production fell and the others")
    above: float | None = None
    share_of: str | None = None  # a significance test of each group's share of this value of the measure
    controls: list[str] = field(default_factory=list)  # what an adjusted association accounts for
    fixed: list[str] = field(default_factory=list)  # the controls that are numbers held fixed (a year's own intercept)
    missing: list[str] = field(default_factory=list)  # what the question needs and the table lacks
    said: Said = field(default_factory=Said, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key != "said"}
