"""The stats.* operations that fit a model: a forecast, rates per group, an adjusted association."""

from __future__ import annotations

from dataclasses import replace

from agents.operations.datasets.operations import TABLE
from agents.operations.stats import modelling_handlers
from agents.operations.stats.manual import (
    BUCKET,
    COLUMN,
    COLUMNS,
    CYCLE,
    FILTERS,
    RATE_PERIOD,
    STATISTIC,
    period,
    query,
)
from agents.sap import Param

FIXED_EFFECTS = Param(
    "array",
    "controls that are numbers to take as categories, one intercept each (a year held fixed, not a line through "
    "the years); each must be among controls",
    items=Param("string", refers_to="column"),
    max_items=20,
)

MODELLING = (
    query(
        "stats.forecast",
        "Extrapolates a measure's per-period values (the statistic per year, quarter, month, week or day, or per "
        "value of a number column such as a year) to a later period with a straight least-squares line: its value "
        "there with a 95% prediction interval, the slope per period and R squared, Holt's linear exponential "
        "smoothing's value beside it, and whether the horizon is long against the history (past a third of it). "
        "Comes with a line chart (Vega-Lite).",
        modelling_handlers.forecast,
        {
            "table": TABLE,
            "time": COLUMN,
            "measure": COLUMN,
            "to": period("the period to forecast", required=True),
            "period": BUCKET,
            "statistic": STATISTIC,
            "filters": FILTERS,
        },
        {"table": "monthly", "time": "month", "measure": "sales", "to": "2026-06", "period": "month"},
        {
            "table": "monthly",
            "rows": 2,
            "time": "month",
            "measure": "sales",
            "period": "month",
            "statistic": "mean",
            "to": "2026-06",
            "points": [
                {"period": "2026-01", "n": 1, "value": 10.0},
                {"period": "2026-02", "n": 1, "value": 15.0},
            ],
            "forecast": None,
            "why": "only 2 periods; a line needs 3 or more",
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.rates",
        "How fast a measure changes over time in each group: the least-squares slope of the measure on the time "
        "column (per day for a date, per unit of a number column such as a year or a day count) per group, with its "
        "95% interval, n and R squared, steepest first; on a date with a longer period, each period's mean per "
        "period. Comes with a bar chart (Vega-Lite).",
        modelling_handlers.rates,
        {
            "table": TABLE,
            "time": COLUMN,
            "measure": COLUMN,
            "group_by": COLUMN,
            "cycle": CYCLE,
            "filters": FILTERS,
            "period": RATE_PERIOD,
        },
        {"table": "monthly", "time": "month", "measure": "sales", "group_by": "shop"},
        {
            "table": "monthly",
            "rows": 2,
            "time": "month",
            "measure": "sales",
            "group_by": "shop",
            "per": "day",
            "groups": [{"group": "A", "n": 2, "slope": 0.16, "ci95": [None, None], "r_squared": 1.0}],
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.regress",
        "Whether a variable is still associated with an outcome after accounting for other columns: its coefficient "
        "alone and with the controls (a category as fixed effects), OLS with HC3 robust standard errors, or "
        "logistic regression (log-odds) for a yes/no outcome; each with its 95% interval and p-value, and whether "
        "the sign turns once adjusted (Simpson's paradox). Comes with a scatter plot or box plots (Vega-Lite).",
        modelling_handlers.regress,
        {
            "table": TABLE,
            "outcome": COLUMN,
            "variable": COLUMN,
            "controls": COLUMNS,
            "fixed_effects": FIXED_EFFECTS,
            "cycle": replace(CYCLE, description="read the date columns among controls as their place in this cycle"),
            "filters": FILTERS,
        },
        {"table": "monthly", "outcome": "sales", "variable": "visits", "controls": ["shop"]},
        {
            "table": "monthly",
            "rows": 2,
            "outcome": "sales",
            "variable": "visits",
            "controls": ["shop"],
            "n": 2,
            "model": "OLS, HC3 robust errors",
            "unadjusted": {"coefficient": 0.25, "ci95": [None, None], "p_value": None},
            "adjusted": {"coefficient": 0.25, "ci95": [None, None], "p_value": None},
            "sign_reversed": False,
            "chart": {"layer": []},
        },
    ),
)
