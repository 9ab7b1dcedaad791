"""The statistics behind the stats.* operations, on a pandas DataFrame (plain Python: no Django).

pandas computes the summaries, SciPy the tests and correlations: the field's maintained libraries,
so a figure here is the figure a notebook gives. Every function returns JSON-ready dicts and never
raises on thin data: a group too small for a test gets ``None`` there and the caller says so.
A measure over time (periods, trends, growth) is ``timeline``'s.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

STATISTICS = ("mean", "median", "sum", "count", "min", "max", "sd", "percentile")
MIN_TEST_N = 2
OUTLIER_SDS = 3
MIN_OUTLIER_N = 8
OUTLIERS_LISTED = 100
FARTHEST = 3


def clean(value: Any) -> Any:
    """A value JSON can carry: NaN and infinities become None, numpy scalars plain Python."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date().isoformat()
    return value


def statistic_of(values: pd.Series, statistic: str, *, percentile: float = 50, sd: str = "sample") -> float | None:
    """One statistic of a numeric column's present values."""
    present = values.dropna()
    if statistic == "count":
        return int(present.size)
    if present.empty:
        return None
    computed = {
        "mean": present.mean,
        "median": present.median,
        "sum": present.sum,
        "min": present.min,
        "max": present.max,
        "sd": lambda: present.std(ddof=1 if sd == "sample" else 0),
        "percentile": lambda: present.quantile(percentile / 100),
    }[statistic]()
    return float(computed) if math.isfinite(computed) else None


def describe(
    frame: pd.DataFrame,
    columns: list[str],
    *,
    percentiles: tuple[float, ...] = (25, 50, 75),
    sd: str = "sample",
    within: str | None = None,
) -> list[dict[str, Any]]:
    """Per numeric column: n, missing, mean, SD, min, percentiles, max, sum, and its outliers
    (``far_values``, within each group of ``within`` when given)."""
    described = []
    for name in columns:
        values = frame[name].dropna().astype(float)
        row: dict[str, Any] = {"column": name, "n": int(values.size), "missing": int(frame[name].isna().sum())}
        for statistic in ("mean", "sd", "min", "max", "sum"):
            row[statistic] = statistic_of(values, statistic, sd=sd)
        row["percentiles"] = {f"p{p:g}": statistic_of(values, "percentile", percentile=p) for p in percentiles}
        row["outliers"] = far_values(frame, name, sd=sd, within=within)
        described.append(row)
    return described


def far_values(frame: pd.DataFrame, column: str, *, sd: str = "sample", within: str | None = None) -> dict[str, Any]:
    """The values more than three SDs from the mean (checked from 8 values on), all of them in
    ascending order and the ``farthest`` few. With ``within`` (the column whose groups a question
    compares) each value is measured against its own group's mean and SD: against the pooled mean,
    the gap between the groups, which is the finding, would look like outliers. A bound the column
    cannot reach (below zero when no value is negative) is None: "above 12" says it all."""
    values = frame[column].astype(float)
    floor = 0.0 if values.min() >= 0 else None
    if within is None:
        parts: list[tuple[Any, pd.Series]] = [(None, values.dropna())]
    else:
        parts = [(period_label(key), part.dropna()) for key, part in values.groupby(frame[within], sort=True)]
    groups, found = [], []
    for key, part in parts:
        group = _far_in(part, sd, floor)
        far = group.pop("far")
        found += [{**f, "group": key} for f in far]
        groups.append({"group": key, **group, "outliers": len(far)})
    found.sort(key=lambda far: -far["sds"])
    result: dict[str, Any] = {
        "checked": any(g["checked"] for g in groups),
        "within": within,
        "values": sorted(far["value"] for far in found[:OUTLIERS_LISTED]),
        "farthest": [{"value": far["value"], "group": far["group"]} for far in found[:FARTHEST]],
    }
    if within is None:
        return {**result, "low": groups[0]["low"], "high": groups[0]["high"]}
    return {**result, "low": None, "high": None, "groups": groups}


def _far_in(values: pd.Series, sd: str, floor: float | None) -> dict[str, Any]:
    """One group's outlier bounds and the values beyond them, each with its distance in SDs."""
    mean, spread = statistic_of(values, "mean"), statistic_of(values, "sd", sd=sd)
    if mean is None or not spread or values.size < MIN_OUTLIER_N:
        return {"checked": False, "n": int(values.size), "low": None, "high": None, "far": []}
    low, high = mean - OUTLIER_SDS * spread, mean + OUTLIER_SDS * spread
    far = values[(values < low) | (values > high)]
    return {
        "checked": True,
        "n": int(values.size),
        "low": None if floor is not None and low < floor else clean(low),
        "high": clean(high),
        "far": [{"value": clean(v), "sds": abs(v - mean) / spread} for v in far],
    }


def by_group(
    frame: pd.DataFrame, measure: str, group: str, statistic: str, *, percentile: float = 50, sd: str = "sample"
) -> list[dict[str, Any]]:
    """The statistic of ``measure`` in each group, with the group's n, highest first."""
    rows = []
    for value, part in frame.groupby(group, sort=True, dropna=True)[measure]:
        rows.append(
            {
                "group": period_label(value),
                "n": int(part.dropna().size),
                "value": statistic_of(part, statistic, percentile=percentile, sd=sd),
            }
        )
    return sorted(rows, key=lambda r: (r["value"] is None, -(r["value"] or 0)))


def compare(
    frame: pd.DataFrame, measure: str, group: str, statistic: str = "mean", *, percentile: float = 50
) -> dict[str, Any]:
    """Groups ranked on a measure, the gap between the top and bottom group, and a test of the
    difference: Welch's t and Cohen's d for two groups, one-way ANOVA and eta squared for more."""
    groups = by_group(frame, measure, group, statistic, percentile=percentile)
    return {**ranked_groups(measure, group, statistic, groups), "test": _test(_samples(frame, measure, group))}


def ranked_groups(measure: str, group: str, statistic: str, groups: list[dict[str, Any]]) -> dict[str, Any]:
    """A comparison's groups, ranked, with the gap and the ratio between the top and the bottom one."""
    present = [g for g in groups if g["value"] is not None]
    result: dict[str, Any] = {"measure": measure, "group_by": group, "statistic": statistic, "groups": groups}
    if len(present) >= 2:
        top, bottom = present[0], present[-1]
        result["difference"] = clean(top["value"] - bottom["value"])
        result["ratio"] = clean(top["value"] / bottom["value"]) if bottom["value"] else None
    return result


def _samples(frame: pd.DataFrame, measure: str, group: str) -> dict[Any, np.ndarray]:
    return {
        clean(value): part.dropna().to_numpy(dtype=float)
        for value, part in frame.groupby(group, sort=True, dropna=True)[measure]
        if part.notna().sum() > 0
    }


def _test(samples: dict[Any, np.ndarray]) -> dict[str, Any] | None:
    usable = {k: v for k, v in samples.items() if v.size >= MIN_TEST_N}
    if len(usable) < 2:
        return None
    arrays = list(usable.values())
    if len(arrays) == 2:
        a, b = arrays
        welch = scipy_stats.ttest_ind(a, b, equal_var=False)
        return {
            "name": "Welch's t-test",
            "statistic": clean(float(welch.statistic)),
            "p_value": clean(float(welch.pvalue)),
            "effect": "cohens_d",
            "effect_size": cohens_d(a, b),
        }
    anova = scipy_stats.f_oneway(*arrays)
    return {
        "name": "one-way ANOVA",
        "statistic": clean(float(anova.statistic)),
        "p_value": clean(float(anova.pvalue)),
        "effect": "eta_squared",
        "effect_size": eta_squared(list(samples.values())),  # a share of variance: every group's rows count
    }


def cohens_d(a: np.ndarray, b: np.ndarray) -> float | None:
    """(mean a - mean b) over the SD pooled from both samples' n - 1 variances."""
    if a.size < 2 or b.size < 2:
        return None
    pooled = ((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2)
    return clean(float((a.mean() - b.mean()) / math.sqrt(pooled))) if pooled > 0 else None


def eta_squared(arrays: list[np.ndarray]) -> float | None:
    """The share of the measure's variance that lies between the groups (None without any values)."""
    if not arrays:
        return None
    every = np.concatenate(arrays)
    total = ((every - every.mean()) ** 2).sum()
    between = sum(a.size * (a.mean() - every.mean()) ** 2 for a in arrays)
    return clean(float(between / total)) if total > 0 else None


def rank_differences(frame: pd.DataFrame, group: str, measures: list[str]) -> dict[str, Any]:
    """Every measure's difference between the groups, largest first: |Cohen's d| for two groups,
    eta squared for more."""
    ranked = []
    for measure in measures:
        samples = _samples(frame, measure, group)
        test = _test(samples)
        if test is None or test["effect_size"] is None:
            continue
        means = {str(k): clean(float(v.mean())) for k, v in samples.items()}
        ranked.append(
            {
                "measure": measure,
                "effect": test["effect"],
                "effect_size": test["effect_size"],
                "p_value": test["p_value"],
                "means": means,
            }
        )
    ranked.sort(key=lambda r: -abs(r["effect_size"]))
    groups = sorted(str(v) for v in frame[group].dropna().unique())
    return {"group_by": group, "groups": groups, "measures": ranked}


def coded(values: pd.Series) -> tuple[pd.Series, Any] | None:
    """A two-valued column as 0/1 (1 for the later value in sort order), and the value coded 1."""
    levels = sorted(values.dropna().unique(), key=str)
    if len(levels) != 2:
        return None
    return values.map({levels[0]: 0.0, levels[1]: 1.0}), clean(levels[1])


def correlation(x: pd.Series, y: pd.Series) -> dict[str, Any] | None:
    """Pearson r with its p-value and 95% interval (Fisher z), Spearman rho, and n."""
    both = pd.concat([x.astype(float), y.astype(float)], axis=1).dropna()
    n = len(both)
    if n < 3 or both.iloc[:, 0].nunique() < 2 or both.iloc[:, 1].nunique() < 2:
        return None
    pearson = scipy_stats.pearsonr(both.iloc[:, 0], both.iloc[:, 1])
    spearman = scipy_stats.spearmanr(both.iloc[:, 0], both.iloc[:, 1])
    r = float(pearson.statistic)
    interval = pearson.confidence_interval(0.95) if n > 3 else None
    slope, intercept = np.polyfit(both.iloc[:, 0], both.iloc[:, 1], 1)
    return {
        "n": n,
        "pearson_r": clean(r),
        "p_value": clean(float(pearson.pvalue)),
        "ci95": [clean(float(interval.low)), clean(float(interval.high))] if interval else None,
        "spearman_rho": clean(float(spearman.statistic)),
        "slope": clean(float(slope)),
        "intercept": clean(float(intercept)),
    }


def associate(frame: pd.DataFrame, outcome: str, variables: list[str]) -> dict[str, Any]:
    """How strongly each variable goes with the outcome, strongest first. A two-valued outcome is
    coded 0/1 (point-biserial r); one with more categories is compared by eta (the correlation ratio)."""
    target = frame[outcome]
    numeric_target = pd.api.types.is_numeric_dtype(target) and not pd.api.types.is_bool_dtype(target)
    coded_as = None
    if not numeric_target:
        two = coded(target)
        if two is not None:
            target, coded_as = two[0], two[1]
    ranked = []
    for variable in variables:
        if variable == outcome:
            continue
        if numeric_target or coded_as is not None:
            found = correlation(frame[variable], target)
            if found is not None:
                ranked.append({"variable": variable, "strength": abs(found["pearson_r"] or 0), **found})
        else:
            eta = eta_squared(list(_samples(frame, variable, outcome).values()))
            if eta is not None:
                ranked.append(
                    {"variable": variable, "strength": math.sqrt(eta), "eta": math.sqrt(eta), "eta_squared": eta}
                )
    ranked.sort(key=lambda r: -r["strength"])
    return {
        "outcome": outcome,
        "outcome_coded_1": coded_as,
        "method": _method(numeric_target, coded_as),
        "variables": ranked,
    }


def _method(numeric_target: bool, coded_as: Any) -> str:
    if numeric_target:
        return "pearson"
    return "point_biserial" if coded_as is not None else "eta"


def period_label(key: Any) -> Any:
    """A year read as a float (1947.0) is said as the year it is."""
    key = clean(key)
    return int(key) if isinstance(key, float) and key.is_integer() else key


def share(frame: pd.DataFrame, column: str, *, weight: str | None = None) -> dict[str, Any]:
    """Each category's count (or total of ``weight``) and its percentage, most common first."""
    values = frame[column]
    totals = frame[weight].groupby(values, dropna=False).sum() if weight else values.value_counts(dropna=False)
    whole = float(totals.sum())
    rows = [
        {
            "value": "(missing)" if pd.isna(key) else clean(key),
            "amount": clean(float(amount)),
            "percent": clean(float(amount) / whole * 100) if whole else None,
        }
        for key, amount in totals.items()
    ]
    rows.sort(key=lambda r: -(r["amount"] or 0))
    return {"column": column, "weight": weight, "total": clean(whole), "categories": rows}
