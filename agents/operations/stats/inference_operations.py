"""The stats.* operations that test whether a difference is more than chance."""

from __future__ import annotations

from agents.operations.datasets.operations import TABLE
from agents.operations.stats import inference
from agents.operations.stats.manual import COLUMN, FILTERS, query

INFERENCE = (
    query(
        "stats.significance",
        "Whether a measure differs between groups more than chance would explain, at the 5% level: two groups, "
        "Welch's t-test (the difference in means with its 95% interval, Cohen's d with its interval) checked by "
        "Mann-Whitney U; several groups, one-way ANOVA (eta squared) checked by Kruskal-Wallis, with the pairs "
        "Tukey's HSD separates; a yes/no measure, a chi-square test of each group's share. Says which test and "
        "why. Comes with box plots or a bar chart (Vega-Lite).",
        inference.significance,
        {"table": TABLE, "measure": COLUMN, "group_by": COLUMN, "filters": FILTERS},
        {"table": "sales", "measure": "amount", "group_by": "region"},
        {
            "table": "sales",
            "rows": 2,
            "measure": "amount",
            "group_by": "region",
            "alpha": 0.05,
            "groups": [
                {"group": "EU", "n": 1, "mean": 120.5, "sd": None, "median": 120.5},
                {"group": "US", "n": 1, "mean": 80.0, "sd": None, "median": 80.0},
            ],
            "test": None,
            "significant": None,
            "why": "fewer than two groups with two values or more",
            "chart": {"layer": []},
        },
    ),
)
