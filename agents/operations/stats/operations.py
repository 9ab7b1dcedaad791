"""The stats.* operations: statistics over the session's own tables, each answer with its chart.

Any agent the session admits (the built-in analyst, an LLM agent, an outside agent over SAP) gets
the same analytical tools; each call reads only its session's tables, under the same permission
check and audit as every other operation.
"""

from __future__ import annotations

from dataclasses import replace

from agents.operations.datasets.operations import TABLE
from agents.operations.stats import handlers, timeline
from agents.operations.stats.inference_operations import INFERENCE
from agents.operations.stats.inspection_operations import INSPECTION
from agents.operations.stats.manual import (
    BUCKET,
    COLUMN,
    COLUMNS,
    CYCLE,
    FILTERS,
    OPTIONAL_COLUMN,
    PERCENTILE,
    STATISTIC,
    period,
    query,
)
from agents.operations.stats.modelling_operations import MODELLING
from agents.sap import Param

OPERATIONS = (
    query(
        "stats.describe",
        "Summary statistics of number columns (pandas): n, missing, mean, SD (sample or population), min, "
        "percentiles, max, sum, and the values more than 3 SDs from the mean (from their own group's mean with "
        "outliers_within; a bound below zero is left out for a column with no negative value).",
        handlers.describe,
        {
            "table": TABLE,
            "columns": COLUMNS,
            "filters": FILTERS,
            "sd": Param(
                "string", "divide by n - 1 (sample) or n (population)", default="sample", enum=("sample", "population")
            ),
            "percentiles": Param(
                "array",
                "percentiles to report",
                default=[25, 50, 75],
                items=Param("number", minimum=0, maximum=100),
                max_items=20,
            ),
            "outliers_within": Param(
                "string",
                "find outliers within each group of this column (groups a question compares)",
                min_length=1,
                max_length=64,
                refers_to="column",
            ),
        },
        {"table": "sales", "columns": ["amount"]},
        {
            "table": "sales",
            "rows": 1,
            "sd": "sample",
            "columns": [
                {
                    "column": "amount",
                    "n": 1,
                    "missing": 0,
                    "mean": 120.5,
                    "sd": None,
                    "min": 120.5,
                    "max": 120.5,
                    "sum": 120.5,
                    "percentiles": {"p25": 120.5, "p50": 120.5, "p75": 120.5},
                    "outliers": {
                        "checked": False,
                        "within": None,
                        "values": [],
                        "farthest": [],
                        "low": None,
                        "high": None,
                    },
                }
            ],
        },
    ),
    query(
        "stats.compare",
        "Compare groups on a measure: the statistic per group (highest first), the gap and ratio between the "
        "highest and lowest, and a test (Welch's t with Cohen's d for two groups, ANOVA with eta squared for more). "
        "Comes with a bar chart (Vega-Lite).",
        handlers.compare,
        {
            "table": TABLE,
            "measure": COLUMN,
            "group_by": COLUMN,
            "statistic": STATISTIC,
            "percentile": PERCENTILE,
            "cycle": CYCLE,
            "filters": FILTERS,
        },
        {"table": "sales", "measure": "amount", "group_by": "region", "statistic": "median"},
        {
            "table": "sales",
            "rows": 1,
            "measure": "amount",
            "group_by": "region",
            "statistic": "median",
            "groups": [{"group": "EU", "n": 1, "value": 120.5}],
            "test": None,
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.rank-differences",
        "Which measures differ most between groups: |Cohen's d| (pooled SD) for two groups, eta squared for more, "
        "largest first, with each group's mean. Comes with a bar chart (Vega-Lite).",
        handlers.rank_differences,
        {"table": TABLE, "group_by": COLUMN, "measures": COLUMNS, "filters": FILTERS},
        {"table": "sales", "group_by": "region"},
        {
            "table": "sales",
            "rows": 1,
            "group_by": "region",
            "groups": ["EU"],
            "measures": [],
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.associate",
        "How strongly each variable goes with an outcome, strongest first: Pearson r with p-value and 95% interval, "
        "Spearman rho and n (a two-valued outcome is coded 0/1; a categorical one is compared by eta). "
        "Comes with a scatter plot and its fit, or box plots (Vega-Lite).",
        handlers.associate,
        {"table": TABLE, "outcome": COLUMN, "variables": COLUMNS, "filters": FILTERS},
        {"table": "sales", "outcome": "amount"},
        {
            "table": "sales",
            "rows": 1,
            "outcome": "amount",
            "outcome_coded_1": None,
            "method": "pearson",
            "variables": [],
        },
    ),
    query(
        "stats.trend",
        "A measure over time: the statistic per period (year, quarter, month, week or day of a date column, or "
        "the values of a number column such as a year), the change from first to last and the linear slope per "
        "period. Comes with a line chart (Vega-Lite).",
        handlers.trend,
        {
            "table": TABLE,
            "time": COLUMN,
            "measure": COLUMN,
            "statistic": STATISTIC,
            "period": BUCKET,
            "filters": FILTERS,
        },
        {"table": "monthly", "time": "month", "measure": "sales", "period": "month"},
        {
            "table": "monthly",
            "rows": 2,
            "time": "month",
            "measure": "sales",
            "period": "month",
            "statistic": "mean",
            "points": [
                {"period": "2026-01", "n": 1, "value": 10.0},
                {"period": "2026-02", "n": 1, "value": 15.0},
            ],
            "change": 5.0,
            "percent_change": 50.0,
            "slope_per_period": 5.0,
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.share",
        "Each category's count and percentage of the rows (or of a measure's total, with weight), most common "
        "first. Comes with a bar chart (Vega-Lite).",
        handlers.share,
        {"table": TABLE, "column": COLUMN, "weight": OPTIONAL_COLUMN, "cycle": CYCLE, "filters": FILTERS},
        {"table": "sales", "column": "region"},
        {
            "table": "sales",
            "rows": 1,
            "column": "region",
            "weight": None,
            "total": 1.0,
            "categories": [{"value": "EU", "amount": 1.0, "percent": 100.0}],
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.growth",
        "Growth per entity between periods: the statistic of the measure over each entity's rows in its first "
        "period and in its last (or in the periods from and to name), with the rows each rests on, the change, "
        "the ratio and the percentage change, largest change first (percent or absolute). A period is one value "
        "of the time column (a year, a date: its rows make one figure), or with period a date column's year, "
        "quarter, month, week or day (auto: the one from or to is written in). "
        "Comes with a bar chart (Vega-Lite).",
        handlers.growth,
        {
            "table": TABLE,
            "entity": COLUMN,
            "time": COLUMN,
            "measure": COLUMN,
            "statistic": STATISTIC,
            "percentile": PERCENTILE,
            "period": BUCKET,
            "change": Param(
                "string", "rank by the percentage or the absolute change", default="percent", enum=timeline.CHANGES
            ),
            "from": period("the start period instead of each entity's first"),
            "to": period("the end period instead of each entity's last"),
            "cycle": replace(CYCLE, description="read the entity, a date column, as its place in this cycle"),
            "filters": FILTERS,
        },
        {"table": "monthly", "entity": "shop", "time": "month", "measure": "sales"},
        {
            "table": "monthly",
            "rows": 2,
            "entity": "shop",
            "time": "month",
            "measure": "sales",
            "period": "day",
            "statistic": "mean",
            "change_by": "percent",
            "from": None,
            "to": None,
            "entities": [
                {
                    "entity": "A",
                    "first_time": "2026-01-01",
                    "last_time": "2026-02-01",
                    "first": 10.0,
                    "last": 15.0,
                    "first_n": 1,
                    "last_n": 1,
                    "change": 5.0,
                    "ratio": 1.5,
                    "percent_change": 50.0,
                }
            ],
            "skipped": 0,
            "chart": {"mark": {}},
        },
    ),
    *INFERENCE,
    *INSPECTION,
    *MODELLING,
)
