"""The stats.* operations that test whether a difference is more than chance."""

from __future__ import annotations

from dataclasses import replace

from agents.operations.datasets.operations import TABLE
from agents.operations.stats import inference
from agents.operations.stats.manual import COLUMN, CYCLE, FILTERS, OPTIONAL_COLUMN, STATISTIC, query
from agents.sap import Param

ABOVE = Param("number", "a threshold", minimum=-1e15, maximum=1e15)  # a number column read as yes/no by it
INFERENCE = (
    query(
        "stats.significance",
        "Whether a measure differs between groups more than chance would explain, at the 5% level: two groups, "
        "Welch's t-test (the difference in means with its 95% interval, Cohen's d with its interval) checked by "
        "Mann-Whitney U; several groups, one-way ANOVA (eta squared) checked by Kruskal-Wallis, with the pairs "
        "Tukey's HSD separates; a yes/no measure, or share_of one value of a measure, a chi-square test of each "
        "group's share of it. Paired data gets "
        "the paired t-test checked by Wilcoxon's signed-rank test: pair_by names each row's subject (used when "
        "two groups hold the same subjects once each), or versus names a second measure of the same rows "
        "(before and after) instead of group_by. Says which test and why. Comes with box plots or a bar chart "
        "(Vega-Lite).",
        inference.significance,
        {
            "table": TABLE,
            "measure": COLUMN,
            "group_by": OPTIONAL_COLUMN,
            "versus": OPTIONAL_COLUMN,
            "pair_by": OPTIONAL_COLUMN,
            "share_of": Param(
                "string", "a value of the measure: each group's share of the rows that have it", max_length=200
            ),
            "group_above": replace(
                ABOVE, description="read group_by, a number column, as two groups: whether each value is above this"
            ),
            "cycle": CYCLE,
            "filters": FILTERS,
        },
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
    query(
        "stats.crosstab",
        "Two categorical columns crossed: the count of each pair of values, the shares within each group_by "
        "value, a chi-square test of independence (Yates-corrected for a 2x2 table) and Cramér's V, the pair "
        "most over-represented against independence, and whether the table is too sparse for the test. Comes "
        "with a heat map (Vega-Lite).",
        inference.crosstab,
        {
            "table": TABLE,
            "group_by": COLUMN,
            "and_by": COLUMN,
            "and_above": replace(
                ABOVE,
                description="read and_by, a number column, as yes/no: whether each value is above this (any rain: 0)",
            ),
            "cycle": CYCLE,
            "filters": FILTERS,
        },
        {"table": "monthly", "group_by": "shop", "and_by": "month"},
        {
            "table": "monthly",
            "rows": 2,
            "group_by": "shop",
            "and_by": "month",
            "n": 2,
            "cells": [
                {
                    "row": "A",
                    "counts": {"2026-01-01": 1, "2026-02-01": 1},
                    "percent": {"2026-01-01": 50.0, "2026-02-01": 50.0},
                }
            ],
            "test": None,
            "associated": None,
            "cramers_v": None,
            "why": "one of them has one value",
            "chart": {"layer": []},
        },
    ),
    query(
        "stats.two-way",
        "A measure over every combination of two groupings (the statistic per cell, highest or lowest first) and a "
        "two-way ANOVA (type II): each grouping's effect and their interaction, that is whether one's effect "
        "depends on the other. Comes with a bar chart (Vega-Lite).",
        inference.two_way,
        {
            "table": TABLE,
            "measure": COLUMN,
            "group_by": COLUMN,
            "and_by": COLUMN,
            "statistic": STATISTIC,
            "direction": Param("string", "highest or lowest first", default="high", enum=("high", "low")),
            "cycle": CYCLE,
            "filters": FILTERS,
        },
        {"table": "monthly", "measure": "sales", "group_by": "shop", "and_by": "month"},
        {
            "table": "monthly",
            "rows": 2,
            "measure": "sales",
            "first": "shop",
            "second": "month",
            "statistic": "mean",
            "cells": [
                {"first": "A", "second": "2026-02-01", "n": 1, "value": 15.0},
                {"first": "A", "second": "2026-01-01", "n": 1, "value": 10.0},
            ],
            "combinations": 2,
            "anova": None,
            "chart": {"mark": {}},
        },
    ),
)
