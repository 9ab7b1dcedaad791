"""Two groupings crossed: a cross-tab of two categories (counts, shares, a chi-square test of
independence and Cramér's V) and a measure over every combination of two groupings (cell means and
a two-way ANOVA with its interaction). Plain Python over pandas, SciPy and statsmodels.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats as scipy_stats
from statsmodels.stats.anova import anova_lm

from agents.operations.stats.engine import clean, period_label
from agents.operations.stats.significance import ALPHA

MAX_LEVELS = 30
MAX_CELLS = 400
CELLS_LISTED = 50


def _levels(frame: pd.DataFrame, *columns: str) -> None:
    for column in columns:
        levels = frame[column].nunique(dropna=True)
        if levels > MAX_LEVELS:
            raise ValueError(f"{column} has {levels} values; at most {MAX_LEVELS} can be crossed")


def crosstab(frame: pd.DataFrame, rows: str, columns: str) -> dict[str, Any]:
    """Counts of each pair of values, each row's shares (a row: a value of ``rows``), and whether the
    two are independent."""
    both = frame[[rows, columns]].dropna()
    _levels(both, rows, columns)
    table = pd.crosstab(both[rows], both[columns])
    result: dict[str, Any] = {"group_by": rows, "and_by": columns, "n": int(table.to_numpy().sum())}
    shares = table.div(table.sum(axis=1), axis=0) * 100
    result["cells"] = [
        {
            "row": period_label(r),
            "counts": {str(clean(c)): int(table.loc[r, c]) for c in table.columns},
            "percent": {str(clean(c)): clean(float(shares.loc[r, c])) for c in table.columns},
        }
        for r in table.index
    ]
    if min(table.shape) < 2:
        return result | {"test": None, "associated": None, "cramers_v": None, "why": "one of them has one value"}
    test = scipy_stats.chi2_contingency(table.to_numpy())
    n, smaller = result["n"], min(table.shape) - 1
    v = math.sqrt(float(test.statistic) / (n * smaller)) if n and smaller else None
    expected = pd.DataFrame(test.expected_freq, index=table.index, columns=table.columns)
    ratio = (table / expected).stack()
    over = ratio.idxmax()
    correction = " with Yates' continuity correction" if table.shape == (2, 2) else ""
    return result | {
        "test": {
            "name": f"chi-square test of independence{correction}",
            "statistic": clean(float(test.statistic)),
            "p_value": clean(float(test.pvalue)),
            "dof": int(test.dof),
        },
        "associated": bool(test.pvalue < ALPHA),
        "cramers_v": clean(v),
        "over_represented": {
            "row": period_label(over[0]),
            "column": period_label(over[1]),
            "observed_over_expected": clean(float(ratio.max())),
        },
        "sparse": bool((test.expected_freq < 5).mean() > 0.2),
    }


def two_way(
    frame: pd.DataFrame, measure: str, first: str, second: str, statistic: str = "mean", direction: str = "high"
) -> dict[str, Any]:
    """The measure in every combination of two groupings, highest (or lowest) first, and a two-way ANOVA: each
    grouping's effect and their interaction (whether one's effect depends on the other)."""
    both = frame[[first, second, measure]].dropna()
    _levels(both, first, second)
    grouped = both.groupby([first, second], sort=True)[measure]
    cells = [
        {
            "first": period_label(a),
            "second": period_label(b),
            "n": int(part.size),
            "value": clean(float(getattr(part, statistic)())),
        }
        for (a, b), part in grouped
    ]
    sign = -1 if direction == "high" else 1
    cells.sort(key=lambda c: (c["value"] is None, sign * (c["value"] or 0)))  # the asked end first
    result: dict[str, Any] = {
        "measure": measure,
        "first": first,
        "second": second,
        "statistic": statistic,
        "cells": cells[:CELLS_LISTED],
        "combinations": len(cells),
    }
    if len(cells) > MAX_CELLS or both[first].nunique() < 2 or both[second].nunique() < 2 or len(both) <= len(cells):
        return result | {"anova": None}
    data = both.rename(columns={measure: "y", first: "a", second: "b"}).astype({"a": str, "b": str})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = anova_lm(smf.ols("y ~ C(a) * C(b)", data=data).fit(), typ=2)
    p = {
        name: clean(float(table.loc[term, "PR(>F)"]))
        for name, term in (("first", "C(a)"), ("second", "C(b)"), ("interaction", "C(a):C(b)"))
    }
    return result | {
        "anova": {
            "name": "two-way ANOVA (type II)",
            "p_values": p,
            "interaction": p["interaction"] is not None and p["interaction"] < ALPHA,
        }
    }
