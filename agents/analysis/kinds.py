"""The kinds of question the analyst answers, each declared once: the parts its reading must name, the
reading in words, the stats.* call that answers it and the words of the answer. Plain Python.

A new kind is one entry here, its operation and its prose, and its cue words in kind_words.py when it
is asked over another kind's reading ("is the difference significant" reads as a comparison first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.analysis import looks, model_words, prose, verdicts
from agents.analysis.request import Request
from agents.operations.stats.timeline import above_name, grouping

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Kind:
    """One kind of question: ``needed`` are the parts a sure reading names, ``stated`` says the reading
    (given the statistic's words and the measures'), ``operation`` is the call that answers it (for one
    measure of several when given), ``words`` the answer's lines."""

    needed: tuple[str, ...]
    stated: Callable[[Request, str, str], str]
    operation: Callable[[Request, str | None], Call]
    words: Callable[[Request, dict[str, Any], str], list[str]]
    one_measure: bool = False
    can: str = ""
    certainty: Callable[[Request, dict[str, Any]], float] | None = None  # a cap on the answer's confidence


def rows(request: Request) -> dict[str, Any]:
    """The filters a call carries: every condition the question set."""
    return {"filters": {"and": request.filters}} if request.filters else {}


def _first(request: Request, measure: str | None) -> str | None:
    return measure or (request.measures[0] if request.measures else None)


def _statistic(request: Request) -> dict[str, Any]:
    return {"statistic": request.statistic, "percentile": request.percentile}


def _cycle(request: Request) -> dict[str, Any]:
    """A date grouping read as its place in a cycle ("the seasons of date")."""
    return {"cycle": request.cycle} if request.cycle else {}


def _compare(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "measure": _first(request, measure), "group_by": request.group}
    return "stats.compare", {**body, **_statistic(request), **_cycle(request), **rows(request)}


def _rank_differences(request: Request, measure: str | None) -> Call:
    named = {"measures": request.measures} if len(request.measures) >= 2 else {}
    return "stats.rank-differences", {"table": request.table, "group_by": request.group, **named, **rows(request)}


def _association(request: Request, measure: str | None) -> Call:
    variables = {"variables": request.measures} if request.measures else {}
    return "stats.associate", {"table": request.table, "outcome": request.outcome, **variables, **rows(request)}


def _trend(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "time": request.time, "measure": _first(request, measure), "period": request.period}
    statistic = request.statistic if request.statistic != "percentile" else "median"
    return "stats.trend", {**body, "statistic": statistic, **rows(request)}


def _share(request: Request, measure: str | None) -> Call:
    weight = {"weight": request.weight} if request.weight else {}
    body = {"table": request.table, "column": request.group, **weight}
    return "stats.share", {**body, **_cycle(request), **rows(request)}


def _growth(request: Request, measure: str | None) -> Call:
    period = {"period": request.period} if request.period != "auto" else {}
    parts = {"entity": request.entity, "time": request.time, "measure": _first(request, measure)}
    return "stats.growth", {
        "table": request.table, **parts, "change": request.change, **_statistic(request), **period, **_cycle(request),
        **rows(request),
    }  # fmt: skip


def _statistic_call(request: Request, measure: str | None) -> Call:
    percentiles = sorted({50.0, request.percentile})
    columns = [_first(request, measure)]
    return "stats.describe", {"table": request.table, "columns": columns, "sd": request.sd,
                              "percentiles": percentiles, **rows(request)}  # fmt: skip


def _significance(request: Request, measure: str | None) -> Call:
    body: dict[str, Any] = {"table": request.table, "measure": _first(request, measure)}
    if request.group is None and request.second:
        body["versus"] = request.second
    else:
        body["group_by"] = request.group
        body |= {"pair_by": request.subject} if request.subject not in (None, request.group) else {}
        body |= {"share_of": request.share_of} if request.share_of else {}
        body |= {"group_above": request.above} if request.above is not None else {}
        body |= _cycle(request)
    return "stats.significance", {**body, **rows(request)}


def _top(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "measure": _first(request, measure), "label": request.label, "n": request.n}
    combine = {"statistic": request.combine} if request.combine else {}
    return "stats.top", {**body, "direction": request.direction, **combine, **rows(request)}


def _outliers(request: Request, measure: str | None) -> Call:
    named = {key: value for key, value in (("label", request.label), ("within", request.within)) if value}
    return "stats.outliers", {"table": request.table, "measure": _first(request, measure), **named, **rows(request)}


def _distribution(request: Request, measure: str | None) -> Call:
    return "stats.distribution", {"table": request.table, "measure": _first(request, measure), **rows(request)}


def _missing(request: Request, measure: str | None) -> Call:
    columns = {"columns": request.measures} if request.measures else {}
    return "stats.missing", {"table": request.table, **columns, **rows(request)}


def _crosstab(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "group_by": request.group, "and_by": request.second}
    above = {"and_above": request.above} if request.above is not None else {}
    return "stats.crosstab", {**body, **above, **_cycle(request), **rows(request)}


def _two_factor(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "measure": _first(request, measure), "group_by": request.group}
    statistic = request.statistic if request.statistic in ("mean", "median", "sum", "count", "min", "max") else "mean"
    return "stats.two-way", {**body, "and_by": request.second, "statistic": statistic,
                             "direction": request.direction, **_cycle(request), **rows(request)}  # fmt: skip


def _forecast(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "time": request.time, "measure": _first(request, measure), "to": request.to}
    statistic = request.statistic if request.statistic in ("mean", "median", "sum", "count", "min", "max") else "mean"
    return "stats.forecast", {**body, "period": request.period, "statistic": statistic, **rows(request)}


def _rate(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "time": request.time, "measure": _first(request, measure)}
    period = {"period": request.period} if request.period != "auto" else {}
    return "stats.rates", {**body, "group_by": request.group, **period, **_cycle(request), **rows(request)}


def _adjusted(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "outcome": request.outcome, "variable": _first(request, measure)}
    fixed = {"fixed_effects": request.fixed} if request.fixed else {}
    return "stats.regress", {**body, "controls": request.controls, **fixed, **_cycle(request), **rows(request)}


CYCLES_SAID = {"month_of_year": "the months of the year", "weekday": "the weekdays", "quarter_of_year": "the quarters",
               "season": "the seasons (winter Dec-Feb, spring Mar-May, summer Jun-Aug, autumn Sep-Nov)"}  # fmt: skip


def _groups_said(request: Request) -> str:
    """The groups compared: a column, or a date's place in a cycle ("the seasons of date")."""
    if request.cycle:
        return f"{CYCLES_SAID[request.cycle]} of {prose.spoken(request.group)}"
    if request.above is not None:  # "the quarters where production fell and the others"
        return f"{above_name(prose.spoken(request.group), request.above)} or not"
    return prose.spoken(request.group)


def _group_said(request: Request) -> str:
    """One grouping: a column, or a date's place in a cycle ("season of date"; an adjusted fit's control
    read so is its ``group``)."""
    return grouping(request.as_dict(), prose.spoken(request.group)) if request.group else "?"


def _second_said(request: Request) -> str:
    """The second grouping: a column, or a number read as yes/no by a threshold ("rain hours above 0")."""
    second = prose.spoken(request.second)
    return above_name(second, request.above) if request.above is not None else second


def _period(request: Request) -> str:
    return request.period if request.period != "auto" else "period"


KINDS: dict[str, Kind] = {
    "compare": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: f"the {statistic} {measure} compared across {_groups_said(r)}",
        _compare,
        lambda r, result, text: prose.compare(r, result),
        one_measure=True,
        can="which group is highest or lowest on a measure",
    ),
    "rank_differences": Kind(
        ("group",),
        lambda r, statistic, measure: f"which measure differs most between the {prose.spoken(r.group)} groups",
        _rank_differences,
        lambda r, result, text: prose.rank_differences(r, result),
        can="which measures differ most between groups",
    ),
    "association": Kind(
        ("outcome",),
        lambda r, statistic, measure: (
            f"how {measure if r.measures else 'each number column'} goes with {prose.spoken(r.outcome)}"
        ),
        _association,
        lambda r, result, text: prose.association(r, result),
        can="how strongly two measures are related or which variable goes most with an outcome",
    ),
    "trend": Kind(
        ("measure",),
        lambda r, statistic, measure: (
            f"the {statistic} {measure} per {_period(r)} of {prose.spoken(r.time)}, and its direction"
        ),
        _trend,
        lambda r, result, text: prose.trend(r, result),
        one_measure=True,
        can="a trend over time",
    ),
    "share": Kind(
        ("group",),
        lambda r, statistic, measure: (
            f"each {_group_said(r)}'s share of " + (f"the total {prose.spoken(r.weight)}" if r.weight else "the rows")
        ),
        _share,
        prose.share,
        can="the share of each category",
    ),
    "growth": Kind(
        ("measure", "entity"),
        lambda r, statistic, measure: (
            f"which {grouping(r.as_dict(), prose.spoken(r.entity))} changed most in {measure}"
            f"{' in absolute terms' if r.change == 'absolute' else ', in percent'}, from its first to its last "
            f"{r.period if r.period != 'auto' else prose.spoken(r.time)}"
        ),
        _growth,
        prose.growth,
        one_measure=True,
        can="which entity grew most",
    ),
    "statistic": Kind(
        ("measure",),
        lambda r, statistic, measure: f"the {statistic} {measure}",
        _statistic_call,
        lambda r, result, text: prose.statistic(r, result),
        one_measure=True,
        can="a median, percentile, total, count, minimum, maximum or standard deviation",
    ),
    "significance": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: (
            f"whether {measure} and {prose.spoken(r.second)} differ more than chance would explain, row by row"
            if r.group is None and r.second
            else f"whether {measure} differs across {_groups_said(r)} more than chance would explain"
        ),
        _significance,
        lambda r, result, text: verdicts.significance(r, result),
        one_measure=True,
        can="whether a difference between groups is statistically significant",
        certainty=verdicts.certainty,
    ),
    "top": Kind(
        ("measure",),
        lambda r, statistic, measure: (
            f"the {r.n} {prose.plural(prose.spoken(r.label), r.n)} with the "
            f"{'highest' if r.direction == 'high' else 'lowest'} {looks.combined(r, measure)}"
        ),
        _top,
        lambda r, result, text: looks.top(r, result),
        one_measure=True,
        can="the top or bottom N rows or groups",
    ),
    "which_row": Kind(
        ("measure",),
        lambda r, statistic, measure: (
            f"the {prose.spoken(r.label)} of the row with the "
            f"{'highest' if r.direction == 'high' else 'lowest'} {measure}"
        ),
        _top,
        lambda r, result, text: looks.which_row(r, result),
        one_measure=True,
        can="which row (or when) a measure peaked",
    ),
    "outliers": Kind(
        ("measure",),
        lambda r, statistic, measure: (
            f"the outliers in {measure}"
            + (f" within each {prose.spoken(r.within)}" if r.within else "")
            + (f", named by {prose.spoken(r.label)}" if r.label else "")
        ),
        _outliers,
        lambda r, result, text: looks.outliers(r, result),
        one_measure=True,
        can="outliers",
    ),
    "distribution": Kind(
        ("measure",),
        lambda r, statistic, measure: f"the shape of the distribution of {measure}",
        _distribution,
        lambda r, result, text: looks.distribution(r, result),
        one_measure=True,
        can="a distribution's shape",
    ),
    "missing": Kind(
        (),
        lambda r, statistic, measure: "the missing values of " + (measure if r.measures else "each column"),
        _missing,
        lambda r, result, text: looks.missing(r, result),
        can="missing values",
    ),
    "crosstab": Kind(
        ("group",),
        lambda r, statistic, measure: (
            f"whether {_group_said(r)} and {_second_said(r)} are related (a cross-tab and a test of independence)"
        ),
        _crosstab,
        lambda r, result, text: verdicts.crosstab(r, result),
        can="whether two categories are related (a cross-tab)",
    ),
    "two_factor": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: (
            f"the {statistic} {measure} in each combination of {_group_said(r)} and {prose.spoken(r.second)}"
        ),
        _two_factor,
        lambda r, result, text: verdicts.two_factor(r, result),
        one_measure=True,
        can="which combination of two groupings is highest",
    ),
    "forecast": Kind(
        ("measure",),
        lambda r, statistic, measure: (
            f"{measure} in {r.to}, if the straight-line trend over {prose.spoken(r.time)} continues"
        ),
        _forecast,
        lambda r, result, text: model_words.forecast(r, result),
        one_measure=True,
        can="a forecast along the trend",
    ),
    "rate": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: (
            f"how fast {measure} changes per unit of {prose.spoken(r.time)} in each {_group_said(r)}"
            if r.period in ("auto", "day")
            else f"how fast the mean {measure} of each {r.period} changes per {r.period} in each {_group_said(r)}"
        ),
        _rate,
        lambda r, result, text: model_words.rate(r, result),
        one_measure=True,
        can="how fast a measure changes in each group",
        certainty=model_words.rate_certainty,
    ),
    "adjusted": Kind(
        ("outcome",),
        lambda r, statistic, measure: (
            f"how {measure} goes with {prose.spoken(r.outcome)} after accounting for "
            + ", ".join(_group_said(r) if c == r.group else prose.spoken(c) for c in r.controls)
        ),
        _adjusted,
        lambda r, result, text: model_words.adjusted(r, result),
        can="whether an association holds after accounting for other columns",
    ),
}
WHAT_I_ANSWER = "; ".join(kind.can for kind in KINDS.values()) + ", within any filters"

# "Is the gap real or could it be chance?": a comparison whose answer is a test, not a ranking.
