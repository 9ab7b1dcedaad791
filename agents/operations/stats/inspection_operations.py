"""The stats.* operations that look at the rows themselves: the top N, outliers, a distribution, gaps."""

from __future__ import annotations

from agents.operations.datasets.operations import TABLE
from agents.operations.stats import inspection_handlers
from agents.operations.stats.manual import COLUMN, COLUMNS, FILTERS, OPTIONAL_COLUMN, query
from agents.sap import Param

COMBINED = ("sum", "mean", "median", "count", "min", "max")
DIRECTION = Param("string", "highest or lowest first", default="high", enum=("high", "low"))

INSPECTION = (
    query(
        "stats.top",
        "The N rows with the highest (or lowest) values of a measure, each named by a label column (a name, an "
        "identifier or a date: which row, and when); with statistic, each label's rows are combined first "
        "(the five regions with the most sales in total). Says when a tie straddles the cut. "
        "Comes with a bar chart (Vega-Lite).",
        inspection_handlers.top,
        {
            "table": TABLE,
            "measure": COLUMN,
            "label": COLUMN,
            "n": Param("integer", "how many rows to list", default=5, minimum=1, maximum=100),
            "direction": DIRECTION,
            "statistic": Param("string", "combine each label's rows first", enum=COMBINED),
            "filters": FILTERS,
        },
        {"table": "sales", "measure": "amount", "label": "region", "n": 1},
        {
            "table": "sales",
            "rows": 1,
            "measure": "amount",
            "label": "region",
            "direction": "high",
            "statistic": None,
            "n": 1,
            "ranked": 1,
            "listed": [{"label": "EU", "value": 120.5}],
            "tied_at_the_cut": False,
            "chart": {"mark": {}},
        },
    ),
    query(
        "stats.outliers",
        "The values of a measure beyond Tukey's fences (1.5 IQR below the first quartile or above the third), "
        "within each group of a column when asked, farthest first, each named by a label column, with how many "
        "IQRs it lies beyond and whether the median-absolute-deviation rule (3.5 scaled MADs) flags it too. "
        "Comes with a histogram and its fences, or box plots (Vega-Lite).",
        inspection_handlers.outliers,
        {"table": TABLE, "measure": COLUMN, "label": OPTIONAL_COLUMN, "within": OPTIONAL_COLUMN, "filters": FILTERS},
        {"table": "sales", "measure": "amount", "label": "region"},
        {
            "table": "sales",
            "rows": 1,
            "measure": "amount",
            "label": "region",
            "within": None,
            "rule": "beyond 1.5 IQR from the quartiles (Tukey)",
            "fences": [{"group": None, "n": 1, "q1": 120.5, "q3": 120.5, "low": 120.5, "high": 120.5, "outliers": 0}],
            "count": 0,
            "listed": [],
            "chart": {"layer": []},
        },
    ),
    query(
        "stats.distribution",
        "The shape of a measure: n, missing, mean, SD, percentiles (0, 5, 25, 50, 75, 95, 100), skewness and excess "
        "kurtosis, the shape in words (roughly symmetric under 0.2, skewed past 0.5, strongly past 1) and how many "
        "humps its histogram has. Comes with a histogram (Vega-Lite).",
        inspection_handlers.distribution,
        {"table": TABLE, "measure": COLUMN, "filters": FILTERS},
        {"table": "sales", "measure": "amount"},
        {
            "table": "sales",
            "rows": 1,
            "measure": "amount",
            "n": 1,
            "missing": 0,
            "mean": 120.5,
            "sd": None,
            "percentiles": {
                "p0": 120.5,
                "p5": 120.5,
                "p25": 120.5,
                "p50": 120.5,
                "p75": 120.5,
                "p95": 120.5,
                "p100": 120.5,
            },
            "skewness": None,
            "excess_kurtosis": None,
            "shape": None,
            "peaks": None,
            "distinct": 1,
            "chart": {"layer": []},
        },
    ),
    query(
        "stats.missing",
        "What is missing or suspect: each column's missing values and percentage (most first) and codes such as "
        "-99 or 999 at a number column's edge, the table's complete and duplicated rows and its constant columns. "
        "Comes with a bar chart (Vega-Lite).",
        inspection_handlers.missing,
        {"table": TABLE, "columns": COLUMNS, "filters": FILTERS},
        {"table": "sales", "columns": ["amount"]},
        {
            "table": "sales",
            "rows": 1,
            "columns": [{"column": "amount", "missing": 0, "percent": 0.0, "suspicious_codes": {}}],
            "missing_cells": 0,
            "complete_rows": 1,
            "duplicated_rows": 0,
            "constant_columns": ["amount"],
            "chart": {"mark": {}},
        },
    ),
)
