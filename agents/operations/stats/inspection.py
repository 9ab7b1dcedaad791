"""Looking at the rows themselves: the top N, the outliers, a measure's distribution and what is missing.
Plain Python over pandas (no Django): every function returns JSON-ready dicts.

Rows are named by a label column (a name, an identifier or a date) so that an answer says which row:
"Osmium, 22.59", "the lowest, on 2010-02-01". Outliers follow Tukey's rule (beyond 1.5 IQR from the
quartiles), each checked against the median-absolute-deviation rule, which the tails move less.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from agents.operations.stats.engine import clean, period_label

MAX_LISTED = 50
IQR_REACH = 1.5
MAD_REACH = 3.5
MAD_SCALE = 1.4826  # the MAD of a normal sample times this is its SD
SUSPICIOUS_CODES = (-9999, -999, -99, -9, 99, 999, 9999, 99999)
PERCENTILES = (0, 5, 25, 50, 75, 95, 100)
MIN_MODE_N = 30


def top(
    frame: pd.DataFrame, measure: str, label: str, *, n: int, direction: str, statistic: str | None = None
) -> dict[str, Any]:
    """The ``n`` highest (or lowest) rows by ``measure``, each named by ``label``; with ``statistic``
    the rows of each label are summed (or averaged...) first: "the five sub-categories with the most
    revenue in total"."""
    both = frame[[label, measure]].dropna(subset=[measure])
    if statistic:
        values = both.groupby(label, sort=False, dropna=True)[measure].agg(_aggregation(statistic))
        ranked = values.sort_values(ascending=direction == "low", kind="stable")
        rows = [{"label": period_label(key), "value": clean(float(v))} for key, v in ranked.items()]
    else:
        ranked_rows = both.sort_values(measure, ascending=direction == "low", kind="stable")
        rows = [
            {"label": period_label(key), "value": clean(float(v))} for key, v in ranked_rows.itertuples(index=False)
        ]
    listed = rows[:n]
    tied = len(rows) > n and listed and rows[n]["value"] == listed[-1]["value"]
    return {
        "measure": measure,
        "label": label,
        "direction": direction,
        "statistic": statistic,
        "n": n,
        "ranked": len(rows),
        "listed": listed,
        "tied_at_the_cut": bool(tied),
    }


def _aggregation(statistic: str) -> str:
    return {"mean": "mean", "median": "median", "sum": "sum", "count": "count", "min": "min", "max": "max"}[statistic]


def outliers(frame: pd.DataFrame, measure: str, label: str | None, *, within: str | None = None) -> dict[str, Any]:
    """The values beyond Tukey's fences (within each group of ``within`` when given), farthest first,
    each with how many IQRs it lies beyond its fence and whether the MAD rule flags it too."""
    columns = [c for c in dict.fromkeys([measure, label, within]) if c]
    rows = frame[columns].dropna(subset=[measure])
    parts = [(None, rows)] if within is None else list(rows.groupby(within, sort=True, dropna=True))
    fences, found = [], []
    for key, part in parts:
        values = part[measure].astype(float)
        q1, median, q3 = (float(q) for q in values.quantile([0.25, 0.5, 0.75]))
        iqr = q3 - q1
        low, high = q1 - IQR_REACH * iqr, q3 + IQR_REACH * iqr
        mad = float((values - median).abs().median()) * MAD_SCALE
        beyond = part[(values < low) | (values > high)]
        fences.append({"group": period_label(key), "n": int(values.size), "q1": clean(q1), "q3": clean(q3),
                       "low": clean(low), "high": clean(high), "outliers": len(beyond)})  # fmt: skip
        for _, row in beyond.iterrows():
            value = float(row[measure])
            past = (low - value) if value < low else (value - high)
            found.append(
                {
                    "label": period_label(row[label]) if label else None,
                    "group": period_label(key),
                    "value": clean(value),
                    "side": "low" if value < low else "high",
                    "iqrs_beyond": clean(past / iqr) if iqr else None,
                    "mad_flags": bool(mad) and abs(value - median) > MAD_REACH * mad,
                }
            )
    found.sort(key=lambda f: -(f["iqrs_beyond"] if f["iqrs_beyond"] is not None else float("inf")))
    return {
        "measure": measure,
        "label": label,
        "within": within,
        "rule": f"beyond {IQR_REACH} IQR from the quartiles (Tukey)",
        "fences": fences,
        "count": len(found),
        "listed": found[:MAX_LISTED],
    }


def distribution(values: pd.Series) -> dict[str, Any]:
    """A measure's shape: its percentiles, mean and SD, skewness and excess kurtosis, in words."""
    present = values.dropna().astype(float)
    result: dict[str, Any] = {"n": int(present.size), "missing": int(values.isna().sum())}
    if present.empty:
        return result | {"shape": None}
    skew = clean(float(present.skew())) if present.size >= 3 else None
    return result | {
        "mean": clean(float(present.mean())),
        "sd": clean(float(present.std(ddof=1))) if present.size >= 2 else None,
        "percentiles": {f"p{p}": clean(float(present.quantile(p / 100))) for p in PERCENTILES},
        "skewness": skew,
        "excess_kurtosis": clean(float(present.kurt())) if present.size >= 4 else None,
        "shape": shape_words(skew),
        "peaks": peaks(present) if present.size >= MIN_MODE_N else None,
        "distinct": int(present.nunique()),
    }


def shape_words(skew: float | None) -> str | None:
    """Skewness in words: under 0.2 either way roughly symmetric, past 0.5 skewed, past 1 strongly."""
    if skew is None:
        return None
    size, side = abs(skew), "right" if skew > 0 else "left"
    if size < 0.2:
        return "roughly symmetric"
    if size < 0.5:
        return f"slightly {side}-skewed"
    return f"{'strongly ' if size >= 1 else ''}{side}-skewed"


def peaks(values: pd.Series) -> int:
    """How many humps a histogram of the values has (Freedman-Diaconis bins, smoothed over three):
    two or more says the rows may mix groups."""
    counts, _ = np.histogram(values.to_numpy(), bins="fd" if values.nunique() > 20 else "auto")
    if counts.size > 60:
        counts, _ = np.histogram(values.to_numpy(), bins=60)
    smooth = np.convolve(counts, np.ones(3) / 3, mode="same")
    tallest = smooth.max()
    humps = [
        i
        for i in range(smooth.size)
        if smooth[i] >= 0.25 * tallest
        and (i == 0 or smooth[i] > smooth[i - 1])
        and (i == smooth.size - 1 or smooth[i] >= smooth[i + 1])
    ]
    return max(1, len(humps))


def missing(frame: pd.DataFrame) -> dict[str, Any]:
    """What is missing or suspect in each column, the columns with most gaps first, and the table's
    duplicated rows and constant columns."""
    rows = len(frame)
    columns = []
    for name in frame.columns:
        values = frame[name]
        gaps = int(values.isna().sum())
        codes = _codes(values) if frame.attrs["types"].get(name) == "number" else {}
        columns.append({"column": name, "missing": gaps, "percent": clean(gaps / rows * 100) if rows else None,
                        "suspicious_codes": codes})  # fmt: skip
    columns.sort(key=lambda c: -c["missing"])
    return {
        "rows": rows,
        "columns": columns,
        "missing_cells": sum(c["missing"] for c in columns),
        "complete_rows": int(frame.notna().all(axis=1).sum()),
        "duplicated_rows": int(frame.duplicated().sum()),
        "constant_columns": [name for name in frame.columns if frame[name].nunique(dropna=True) <= 1],
    }


def _codes(values: pd.Series) -> dict[str, int]:
    """Codes such as -99 or 999 that stand for "unknown": counted when they sit at the column's edge."""
    present = values.dropna()
    if present.empty:
        return {}
    edges = {present.min(), present.max()}
    return {str(int(code)): int((present == code).sum()) for code in SUSPICIOUS_CODES if code in edges}
