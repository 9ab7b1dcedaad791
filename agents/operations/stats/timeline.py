"""A measure over time, on a pandas DataFrame: the statistic per period, its slope, each entity's growth.

A date column is bucketed into years, quarters, months, weeks or days (or read as a cycle: the month
of the year, the weekday); a number column such as a year is its own period. Like ``engine``, every
function returns JSON-ready dicts and never raises on thin data (only on a period named that the rows lack).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from agents.operations.stats.engine import clean, period_label, statistic_of
from protocol.errors import ProtocolError

PERIODS = ("year", "quarter", "month", "week", "day")
PERIOD_CODES = {"year": "Y", "quarter": "Q", "month": "M", "week": "W", "day": "D"}  # pandas' names of them
# How a period is written, as ``periods`` writes it: "2000", "2000Q1", "2000-03", "2000-03-15".
PERIOD_SHAPES = {
    "year": re.compile(r"\d{4}"),
    "quarter": re.compile(r"\d{4}Q[1-4]"),
    "month": re.compile(r"\d{4}-\d{2}"),
    "day": re.compile(r"\d{4}-\d{2}-\d{2}"),
}
CHANGES = ("percent", "absolute")
SEASONAL = {"month_of_year": "%B", "weekday": "%A", "quarter_of_year": "Q%q", "season": "the season"}
CYCLE_WORDS = {"month_of_year": "month", "weekday": "weekday", "quarter_of_year": "quarter", "season": "season"}
# the meteorological seasons of the northern hemisphere, as weather services count them: Dec-Feb is winter
SEASONS = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring", 6: "summer",
           7: "summer", 8: "summer", 9: "autumn", 10: "autumn", 11: "autumn"}  # fmt: skip


def grouping(params: dict[str, Any], column: str) -> str:
    """The name a grouping column goes by in a call's frame: "season of date" when read as a cycle."""
    cycle = params.get("cycle")
    return f"{CYCLE_WORDS[cycle]} of {column}" if cycle else column


def above_name(column: str, threshold: float) -> str:
    """The name a number column read as yes/no by a threshold goes by in a call's frame ("rain_hours above 0")."""
    return f"{column} above {threshold:g}"


def above_sides(column: str, threshold: float, sides: bool) -> dict[bool, str]:
    """The two values of a number column read as yes/no by a threshold: yes and no, or each side by name."""
    if not sides:
        return {True: "yes", False: "no"}
    return {True: above_name(column, threshold), False: f"{column} at most {threshold:g}"}


def seasonal(moments: pd.Series, cycle: str) -> pd.Series:
    """The month of the year ("Mar"), the weekday ("Mon"), the quarter ("Q2") or the season ("winter")
    of each date."""
    dates = pd.to_datetime(moments, errors="coerce")
    if cycle == "quarter_of_year":
        return ("Q" + dates.dt.quarter.astype("Int64").astype(str)).where(dates.notna())
    if cycle == "season":
        return dates.dt.month.map(SEASONS).where(dates.notna())
    return dates.dt.strftime(SEASONAL[cycle]).where(dates.notna())


def periods(times: pd.Series, period: str) -> pd.Series:
    """The period each moment falls in: the year, quarter, month, week or day of a date, or a
    number column (a year, say) as it is."""
    if pd.api.types.is_numeric_dtype(times):
        return times
    moments = pd.to_datetime(times, errors="coerce")
    code = PERIOD_CODES[period]
    return moments.dt.to_period(code).astype(str).where(moments.notna())


def auto_period(times: pd.Series) -> str:
    """Years over a long span, months over a shorter one, days within two months."""
    if pd.api.types.is_numeric_dtype(times):
        return "value"
    moments = pd.to_datetime(times, errors="coerce").dropna()
    if moments.empty:
        return "year"
    days = (moments.max() - moments.min()).days
    return "year" if days > 3 * 365 else "month" if days > 62 else "day"


def trend(
    frame: pd.DataFrame, time: str, measure: str, *, period: str = "auto", statistic: str = "mean"
) -> dict[str, Any]:
    """The statistic per period, the change from the first period to the last, and the linear slope
    per period step with its p-value."""
    chosen = auto_period(frame[time]) if period == "auto" else period
    keys = periods(frame[time], chosen if chosen != "value" else "year")
    points = []
    for key, part in frame[measure].groupby(keys, sort=True):
        points.append(
            {"period": period_label(key), "n": int(part.notna().sum()), "value": statistic_of(part, statistic)}
        )
    points = [p for p in points if p["value"] is not None]
    result: dict[str, Any] = {
        "time": time,
        "measure": measure,
        "period": chosen,
        "statistic": statistic,
        "points": points,
    }
    if len(points) >= 2:
        first, last = points[0]["value"], points[-1]["value"]
        result["change"] = clean(last - first)
        result["percent_change"] = clean((last - first) / abs(first) * 100) if first else None
        steps = np.arange(len(points), dtype=float)
        fit = scipy_stats.linregress(steps, [p["value"] for p in points])
        result["slope_per_period"] = clean(float(fit.slope))
        result["p_value"] = clean(float(fit.pvalue)) if len(points) > 2 else None
        result["r_squared"] = clean(float(fit.rvalue**2)) if len(points) > 2 else None
    return result


def growth(
    frame: pd.DataFrame,
    entity: str,
    time: str,
    measure: str,
    *,
    period: str = "auto",
    statistic: str = "mean",
    percentile: float = 50,
    change: str = "percent",
    start: str | None = None,
    end: str | None = None,
) -> dict[str, Any]:
    """Per entity, the statistic of the measure over the rows of its first period and of its last
    (``start`` and ``end`` name the periods instead), the change, the ratio and the percentage change,
    largest ``change`` first. Periods, not rows: the rows of one period (several countries of one
    region in one year) are one figure, so the first and last rows of two different countries are
    never set against each other."""
    present = frame[[entity, time, measure]].dropna()
    chosen = growth_period_of(pd.api.types.is_datetime64_any_dtype(present[time]), period, start or end)
    keys = (present[time] if chosen == "value" else periods(present[time], chosen)).map(period_label)
    named = [str(n) if n is not None else None for n in (start, end)]
    check_named(named, keys)
    rows, skipped = [], 0
    for key, part in present.groupby(entity, sort=True):
        row = _entity_growth(part[measure].groupby(keys.loc[part.index], sort=True), statistic, percentile, named)
        if row is None:
            skipped += 1
        else:
            rows.append({"entity": clean(key), **row})
    return ranked_growth(rows, skipped, change=change, entity=entity, time=time, measure=measure, period=chosen,
                         statistic=statistic, start=start, end=end)  # fmt: skip


def growth_period_of(is_date: bool, period: str, named: str | None) -> str:
    """The period asked; on "auto", the one a named period is written in ("2000" a year, "2000-03" a
    month), else the column's own moments (each date a day, each number or text itself): rows at one moment
    are one figure, and no span is bucketed unasked ("from January 2021 to December 2024" is two months)."""
    if not is_date:  # a year, or text such as "2010-Q4": itself
        return "value"
    if period != "auto":
        return period
    shaped = next((p for p, shape in PERIOD_SHAPES.items() if named is not None and shape.fullmatch(named)), None)
    return shaped or "day"


def check_named(named: list[str | None], keys: pd.Series) -> None:
    """A named period must be one the rows have, and the start must come before the end."""
    ordered = [str(k) for k in sorted(keys.dropna().unique())]
    invalid = {where: f"no rows in the period {name!r}" for where, name in zip(("from", "to"), named, strict=True)
               if name is not None and name not in ordered}  # fmt: skip
    start, end = named
    if not invalid and start is not None and end is not None and ordered.index(start) >= ordered.index(end):
        invalid = {"to": f"{end!r} must be a later period than from ({start!r})"}
    if invalid:
        shown = ordered if len(ordered) <= 20 else [*ordered[:10], "...", *ordered[-10:]]
        raise ProtocolError(
            "VALIDATION_FAILED",
            "; ".join(f"{where}: {why}" for where, why in invalid.items()),
            details={"invalid": invalid, "periods": shown},
            suggestion=[f"name periods the rows have, from {ordered[0]} to {ordered[-1]}"]
            if ordered
            else ["no row has both a time and a value"],
        )


def _entity_growth(per: Any, statistic: str, percentile: float, named: list[str | None]) -> dict[str, Any] | None:
    """One entity's first and last period (or the named ones), each with its figure and the rows behind it."""
    figures = [(key, statistic_of(part, statistic, percentile=percentile), int(part.size)) for key, part in per]
    return growth_row(figures, named)


def ranked_growth(
    rows: list[dict[str, Any]],
    skipped: int,
    *,
    change: str,
    entity: str,
    time: str,
    measure: str,
    period: str,
    statistic: str,
    start: Any,
    end: Any,
) -> dict[str, Any]:
    """A growth result: the entities ranked by their change (absolute or percent), largest first."""
    rank = "percent_change" if change == "percent" else "change"
    rows.sort(key=lambda r: (r[rank] is None, -(r[rank] or 0)))
    return {"entity": entity, "time": time, "measure": measure, "period": period, "statistic": statistic,
            "change_by": change, "from": start, "to": end, "entities": rows, "skipped": skipped}  # fmt: skip


def growth_row(periods_in_order: list[tuple[Any, float | None, int]], named: list[str | None]) -> dict[str, Any] | None:
    """The growth of one entity from its periods in order, each (key, figure, rows): from the first with
    a figure to the last, or between the named ones; None when there are not two."""
    figures = {str(key): (key, value, n) for key, value, n in periods_in_order if value is not None}
    ordered = list(figures.values())
    first = figures.get(named[0]) if named[0] is not None else (ordered[0] if ordered else None)
    last = figures.get(named[1]) if named[1] is not None else (ordered[-1] if ordered else None)
    if first is None or last is None or first is last:
        return None
    (start_key, begin, start_n), (end_key, finish, end_n) = first, last
    return {
        "first_time": start_key,
        "last_time": end_key,
        "first": clean(begin),
        "last": clean(finish),
        "first_n": start_n,
        "last_n": end_n,
        "change": clean(finish - begin),
        "ratio": clean(finish / begin) if begin else None,
        "percent_change": clean((finish - begin) / abs(begin) * 100) if begin else None,
    }
