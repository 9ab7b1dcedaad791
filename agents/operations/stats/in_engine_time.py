"""trend and growth on a big table: each period's (and entity's) figure computed in DuckDB.

The periods are written as ``timeline.periods`` writes them (pandas' Period strings: "2000",
"2000Q1", "2000-03", "2000-03-13/2000-03-19", "2000-03-15"), so the answers read the same; only
the few figures come back, and ``timeline``'s own code fits the slope and picks first and last.
A time column that is neither a date nor a number is read by the row path (``in_engine.fits``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats as scipy_stats

from agents.operations.datasets.wall import quote_identifier
from agents.operations.stats.engine import clean, period_label
from agents.operations.stats.frame import EngineTable
from agents.operations.stats.in_engine import grouped, shown, statistic_sql
from agents.operations.stats.timeline import check_named, growth_period_of, growth_row, ranked_growth

YEAR_DAYS, MONTH_DAYS = 3 * 365, 62


def period_sql(source: EngineTable, time: str, period: str) -> str:
    """The period each row falls in, as pandas writes it; a number column is its own period."""
    t = quote_identifier(time)
    if source.types[time] == "number" or period == "value":
        return t
    week = f"date_trunc('week', {t})"
    return {
        "year": f"strftime({t}, '%Y')",
        "quarter": f"strftime({t}, '%Y') || 'Q' || quarter({t})",
        "month": f"strftime({t}, '%Y-%m')",
        "week": f"strftime({week}, '%Y-%m-%d') || '/' || strftime({week} + INTERVAL 6 DAY, '%Y-%m-%d')",
        "day": f"strftime({t}, '%Y-%m-%d')",
    }[period]


def auto_period(source: EngineTable, time: str) -> str:
    """``timeline.auto_period`` from the column's first and last date."""
    if source.types[time] == "number":
        return "value"
    t = quote_identifier(time)
    span = source.frame(f"SELECT date_diff('day', min({t}), max({t})) AS days FROM {source.source}")["days"].iloc[0]
    if span is None or span != span:
        return "year"
    return "year" if span > YEAR_DAYS else "month" if span > MONTH_DAYS else "day"


def trend(source: EngineTable, time: str, measure: str, *, period: str, statistic: str) -> dict[str, Any]:
    """``timeline.trend`` from each period's n and statistic."""
    chosen = auto_period(source, time) if period == "auto" else period
    m = quote_identifier(measure)
    figures = {"n": f"count({m})", "value": statistic_sql(statistic, m)}
    per = grouped(source, {"period": period_sql(source, time, chosen)}, figures, time)
    per = per.sort_values("period", kind="stable")
    points = [
        {"period": period_label(p.period), "n": int(p.n), "value": _figure(p.value, p.n, statistic)}
        for p in per.itertuples()
    ]
    points = [p for p in points if p["value"] is not None]
    result: dict[str, Any] = {"time": time, "measure": measure, "period": chosen, "statistic": statistic,
                              "points": points}  # fmt: skip
    if len(points) >= 2:
        first, last = points[0]["value"], points[-1]["value"]
        result["change"] = clean(last - first)
        result["percent_change"] = clean((last - first) / abs(first) * 100) if first else None
        fit = scipy_stats.linregress(np.arange(len(points), dtype=float), [p["value"] for p in points])
        result["slope_per_period"] = clean(float(fit.slope))
        result["p_value"] = clean(float(fit.pvalue)) if len(points) > 2 else None
        result["r_squared"] = clean(float(fit.rvalue**2)) if len(points) > 2 else None
    return result


def _figure(value: Any, n: Any, statistic: str) -> Any:
    if statistic == "count":
        return int(n)
    return None if not n or value is None or value != value else clean(float(value))


def growth(
    source: EngineTable, entity: str, time: str, measure: str, *, period: str, statistic: str,
    percentile: float, change: str, start: str | None, end: str | None,
) -> dict[str, Any]:  # fmt: skip
    """``timeline.growth`` from each entity's figure in each period (rows with all three values)."""
    chosen = growth_period_of(source.types[time] == "date", period, start or end)
    m = quote_identifier(measure)
    keys = {"entity": shown(source, entity), "period": period_sql(source, time, chosen)}
    figures = {"n": "count(*)", "value": statistic_sql(statistic, m, percentile=percentile)}
    per = grouped(source, keys, figures, entity, time, measure)
    per["period"] = per["period"].map(period_label)
    named = [str(n) if n is not None else None for n in (start, end)]
    check_named(named, per["period"])
    per = per.sort_values(["entity", "period"], kind="stable")
    rows, skipped = [], 0
    for key, part in per.groupby("entity", sort=True):
        figures_in_order = [(p.period, _figure(p.value, p.n, statistic), int(p.n)) for p in part.itertuples()]
        row = growth_row(figures_in_order, named)
        if row is None:
            skipped += 1
        else:
            rows.append({"entity": clean(key), **row})
    return ranked_growth(rows, skipped, change=change, entity=entity, time=time, measure=measure, period=chosen,
                         statistic=statistic, start=start, end=end)  # fmt: skip
