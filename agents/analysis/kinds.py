"""The kinds of question the analyst answers, each declared once: the parts its reading must name, the
reading in words, the stats.* call that answers it and the words of the answer. Plain Python.

A new kind is one entry here (with its cue words, when it is asked over another kind's reading: "is
the difference significant" reads as a comparison first), its operation and its prose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.analysis import looking, looks, model_words, modelled, prose, verdicts
from agents.analysis.phrases import ASSOCIATION, CHANGE_WORDS, DIFFER
from agents.analysis.request import Request

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
    certainty: Callable[[dict[str, Any]], float] | None = None  # a cap on the answer's confidence


def rows(request: Request) -> dict[str, Any]:
    """The filters a call carries: every condition the question set."""
    return {"filters": {"and": request.filters}} if request.filters else {}


def _first(request: Request, measure: str | None) -> str | None:
    return measure or (request.measures[0] if request.measures else None)


def _statistic(request: Request) -> dict[str, Any]:
    return {"statistic": request.statistic, "percentile": request.percentile}


def _compare(request: Request, measure: str | None) -> Call:
    cycle = {"cycle": request.cycle} if request.cycle else {}
    body = {"table": request.table, "measure": _first(request, measure), "group_by": request.group}
    return "stats.compare", {**body, **_statistic(request), **cycle, **rows(request)}


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
    return "stats.share", {"table": request.table, "column": request.group, **weight, **rows(request)}


def _growth(request: Request, measure: str | None) -> Call:
    period = {"period": request.period} if request.period != "auto" else {}
    parts = {"entity": request.entity, "time": request.time, "measure": _first(request, measure)}
    return "stats.growth", {
        "table": request.table, **parts, "change": request.change, **_statistic(request), **period, **rows(request)
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
    return "stats.crosstab", {**body, **rows(request)}


def _two_factor(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "measure": _first(request, measure), "group_by": request.group}
    statistic = request.statistic if request.statistic in ("mean", "median", "sum", "count", "min", "max") else "mean"
    return "stats.two-way", {**body, "and_by": request.second, "statistic": statistic,
                             "direction": request.direction, **rows(request)}  # fmt: skip


def _forecast(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "time": request.time, "measure": _first(request, measure), "to": request.to}
    statistic = request.statistic if request.statistic in ("mean", "median", "sum", "count", "min", "max") else "mean"
    return "stats.forecast", {**body, "period": request.period, "statistic": statistic, **rows(request)}


def _rate(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "time": request.time, "measure": _first(request, measure)}
    period = {"period": request.period} if request.period != "auto" else {}
    return "stats.rates", {**body, "group_by": request.group, **period, **rows(request)}


def _adjusted(request: Request, measure: str | None) -> Call:
    body = {"table": request.table, "outcome": request.outcome, "variable": _first(request, measure)}
    return "stats.regress", {**body, "controls": request.controls, **rows(request)}


def _period(request: Request) -> str:
    return request.period if request.period != "auto" else "period"


KINDS: dict[str, Kind] = {
    "compare": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: f"the {statistic} {measure} compared across {prose.spoken(r.group)}",
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
            f"each {prose.spoken(r.group)}'s share of "
            + (f"the total {prose.spoken(r.weight)}" if r.weight else "the rows")
        ),
        _share,
        prose.share,
        can="the share of each category",
    ),
    "growth": Kind(
        ("measure", "entity"),
        lambda r, statistic, measure: (
            f"which {prose.spoken(r.entity)} changed most in {measure}"
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
            else f"whether {measure} differs between the {prose.spoken(r.group)} groups more than chance would explain"
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
            f"{'highest' if r.direction == 'high' else 'lowest'} {(r.combine + ' ') if r.combine else ''}{measure}"
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
            f"whether {prose.spoken(r.group)} and {prose.spoken(r.second)} are related "
            "(a cross-tab and a test of independence)"
        ),
        _crosstab,
        lambda r, result, text: verdicts.crosstab(r, result),
        can="whether two categories are related (a cross-tab)",
    ),
    "two_factor": Kind(
        ("measure", "group"),
        lambda r, statistic, measure: (
            f"the {statistic} {measure} in each combination of {prose.spoken(r.group)} and {prose.spoken(r.second)}"
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
            f"how fast {measure} changes per unit of {prose.spoken(r.time)} in each {prose.spoken(r.group)}"
            if r.period in ("auto", "day")
            else f"how fast the mean {measure} of each {r.period} changes per {r.period} "
            f"in each {prose.spoken(r.group)}"
        ),
        _rate,
        lambda r, result, text: model_words.rate(r, result),
        one_measure=True,
        can="how fast a measure changes in each group",
    ),
    "adjusted": Kind(
        ("outcome",),
        lambda r, statistic, measure: (
            f"how {measure} goes with {prose.spoken(r.outcome)} after accounting for "
            + ", ".join(prose.spoken(c) for c in r.controls)
        ),
        _adjusted,
        lambda r, result, text: model_words.adjusted(r, result),
        can="whether an association holds after accounting for other columns",
    ),
}
WHAT_I_ANSWER = "; ".join(kind.can for kind in KINDS.values()) + ", within any filters"

# "Is the gap real or could it be chance?": a comparison whose answer is a test, not a ranking.
SIGNIFICANCE = re.compile(
    r"\b(?:statistically|significan(?:t|ce|tly)|p[- ]?values?|t[- ]?tests?|anova|chi[- ]?squared?"
    r"|(?:by|due to|down to|just|mere|pure|random|from|be|is|was|only|within|explained by)"
    r" (?:just |only |merely |down to |due to )?"
    r"(?:random |pure |blind )?(?:chance|luck|noise|coincidence)"
    r"|chance alone|(?:a )?fluke|real (?:diff\w*|gap|effect)|genuine(?:ly)?|reliabl[ey] different"
    r"|(?:more than|beyond) (?:chance|noise|luck)|test(?:ing)? (?:whether|if)|makes? (?:a|any) (?:real )?difference"
    r"|(?:does|do|did) [\w ]{1,40} (?:really |actually )?matter|sampling (?:variation|error|noise)|formally"
    r"|(?:a |an )?(?:proper|formal|statistical|hypothesis) test"
    r"|(?:does|do|would|can) (?:a |the )?(?:\w+ )?tests? (?:back|bear))\b",
    re.I,
)
TESTABLE = ("compare", "rank_differences", "statistic", "share")
ADJUSTABLE = ("association", "compare", "statistic", "rank_differences", "trend")
OWN_WORDS = {
    "significance": (SIGNIFICANCE,),
    "missing": (looking.MISSING, looking.NA_SAID),
    "outliers": (looking.OUTLIERS,),
    "distribution": (looking.DISTRIBUTION, looking.SPREAD),
    "top": (looking.TOP_N,),
    "share": (looking.TOP_N,),  # "which three makers have the most models": the three most common
    "which_row": (looking.WHEN,),
    "two_factor": (looking.COMBINATION,),
    "crosstab": (looking.RELATED,),
    "forecast": (modelled.FORECAST,),
    "rate": (modelled.RATE_UNIT, modelled.SPEED, modelled.CHANGING, modelled.SLOPE),
    "adjusted": (modelled.ADJUSTED,),
}  # the words that ask for a kind: a reading of that kind takes them as said, no other reading does
PAIRED_CHANGE = re.compile(r"\b(?:change|improv\w*|worsen\w*)\b", re.I)
CROSS_TABBED = re.compile(r"\bcross-?tab\w*|\bcontingency table", re.I)  # a cross-tab asked by name
SIGNED = re.compile(r"\b(?:positive|negative)\w*", re.I)
APART = re.compile(r"\bapart\b|\bseparat\w*|\bdistinguish\w*", re.I)
SPREAD_OVER_GROUPS = re.compile(r"\bdistribut\w*\s+(?:across|among|between|by|over|per)\b", re.I)


def _paired_change(request: Request, text: str) -> bool:
    """Two measures read as an association, asked about their difference ("the change from pressure before
    to pressure after"): a paired test, not a correlation."""
    return (
        request.kind == "association"
        and bool(DIFFER.search(text) or CHANGE_WORDS.search(text) or PAIRED_CHANGE.search(text))
        and not ASSOCIATION.search(text)
    )


def asked_of(
    request: Request, text: str, said: str = "", *, group_named: bool = True, measure_named: bool = False
) -> str | None:
    """The kind a question asks over its first reading, when its words ask for one ("significant",
    "missing", "unusual", "skewed", "the five largest", "when was it lowest"); ``text`` has the columns
    it names blanked out, ``said`` is as it was said ("per day" of a day column is a unit)."""
    said = said or text
    if SIGNIFICANCE.search(text) and (request.kind in TESTABLE or _paired_change(request, text)):
        return "significance"
    if modelled.FORECAST.search(said) and modelled.YEAR.search(said):
        return "forecast"
    if looking.OUTLIERS.search(text):
        return "outliers"
    if modelled.ADJUSTED.search(text) and request.kind in (
        "association",
        "compare",
        "statistic",
        "rank_differences",
        "trend",
        "share",  # "once you account for X": no share that X accounts for
    ):
        return "adjusted"
    changing = modelled.RATE_UNIT.search(said) and modelled.SPEED.search(text) and modelled.CHANGING.search(said)
    if changing or (modelled.SLOPE.search(said) and not modelled.FIRST_TO_LAST.search(said)):
        return "rate"  # "the steepest percentage fall from the first year to the last" is a growth
    if looking.MISSING.search(text) or looking.NA_SAID.search(text):
        return "missing"
    shape = looking.DISTRIBUTION.search(text) or (
        looking.SPREAD.search(text) and not looking.SPREAD_STATISTIC.search(text)
    )
    # "tumour grade distribution": shares; "how is TV watching distributed", of a number named alone: its shape
    categories_shared = request.kind == "share" and request.weight is None and (group_named or not measure_named)
    over_groups = SPREAD_OVER_GROUPS.search(text) and group_named  # "across regions", not "among respondents"
    if shape and not categories_shared and not over_groups:
        return "distribution"
    if looking.MIX_DIFFERS.search(text) and not measure_named:
        return "crosstab"
    if looking.COMBINATION.search(text) and (looking.ranks(text) or request.kind == "compare"):
        return "two_factor"
    signed = SIGNED.search(text) and request.kind == "association"  # "positively or negatively": a correlation
    if CROSS_TABBED.search(text) or (
        looking.RELATED.search(text) and request.kind in ("association", "compare", "share", "rank_differences")
    ):
        return None if signed else "crosstab"
    return ranked_kind(request, text, said)


def ranked_kind(request: Request, text: str, said: str) -> str | None:
    """A list of rows ("the five densest": the superlative may name the measure too) or the one row."""
    listed = looking.how_many(text) and not (DIFFER.search(text) or APART.search(text))  # "the three species apart"
    if looking.ranks(said) and listed and request.kind in ("compare", "statistic", "share"):
        return "top"
    if looking.ranks(said):
        return "which_row"
    return None
