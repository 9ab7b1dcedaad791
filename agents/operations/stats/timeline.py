"""A measure over time, on a pandas DataFrame: the statistic per period, its slope, each entity's growth.

A date column is bucketed into years, quarters, months, weeks or days (or read as a cycle: the month
of the year, the weekday); a number column such as a year is its own period. Like ``engine``, every
function returns JSON-ready dicts and never raises on thin data.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from agents.operations.stats.engine import clean, period_label, statistic_of

PERIODS = ("year", "quarter", "month", "week", "day")
SEASONAL = {"month_of_year": "%b", "weekday": "%a", "quarter_of_year": "Q%q"}


def seasonal(moments: pd.Series, cycle: str) -> pd.Series:
    """The month of the year ("Mar"), the weekday ("Mon") or the quarter ("Q2") of each date."""
    dates = pd.to_datetime(moments, errors="coerce")
    if cycle == "quarter_of_year":
        return ("Q" + dates.dt.quarter.astype("Int64").astype(str)).where(dates.notna())
    return dates.dt.strftime(SEASONAL[cycle]).where(dates.notna())


def periods(times: pd.Series, period: str) -> pd.Series:
    """The period each moment falls in: the year, quarter, month, week or day of a date, or a
    number column (a year, say) as it is."""
    if pd.api.types.is_numeric_dtype(times):
        return times
    moments = pd.to_datetime(times, errors="coerce")
    code = {"year": "Y", "quarter": "Q", "month": "M", "week": "W", "day": "D"}[period]
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


def growth(frame: pd.DataFrame, entity: str, time: str, measure: str) -> dict[str, Any]:
    """Per entity, the measure at its first and its last moment, the change, the ratio and the
    percentage change, largest growth first."""
    rows = []
    ordered = frame[[entity, time, measure]].dropna().sort_values(time, kind="stable")
    for key, part in ordered.groupby(entity, sort=True):
        if len(part) < 2:
            continue
        first, last = part.iloc[0], part.iloc[-1]
        start, end = float(first[measure]), float(last[measure])
        rows.append(
            {
                "entity": clean(key),
                "first_time": period_label(first[time]),
                "last_time": period_label(last[time]),
                "first": clean(start),
                "last": clean(end),
                "change": clean(end - start),
                "ratio": clean(end / start) if start else None,
                "percent_change": clean((end - start) / abs(start) * 100) if start else None,
            }
        )
    rows.sort(key=lambda r: (r["percent_change"] is None, -(r["percent_change"] or 0)))
    return {"entity": entity, "time": time, "measure": measure, "entities": rows}
