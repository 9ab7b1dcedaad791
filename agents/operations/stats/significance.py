"""Whether a difference between groups is more than chance: the tests behind ``stats.significance``.

A question of significance gets the test that fits the data and a second, rank-based test as a check
(plain Python over pandas and SciPy): two groups, Welch's t (no equal-variance assumption) checked by
Mann-Whitney U; several groups, one-way ANOVA checked by Kruskal-Wallis, with Tukey's HSD naming the
pairs that differ; a yes/no measure, a chi-square test of the proportions. Paired data (the same subjects
in both groups, or two measures of the same rows) gets the paired t-test checked by Wilcoxon's signed-rank
test, since treating the pairs as independent would throw away what pairing buys. The answer carries the
p-value, the effect size with its 95% interval, and why that test was chosen.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from agents.operations.stats.engine import clean, cohens_d, eta_squared, period_label

ALPHA = 0.05
MIN_N = 2
MAX_GROUPS = 50
Z95 = 1.959963984540054


def significance(
    frame: pd.DataFrame,
    measure: str,
    group: str,
    *,
    numeric: bool,
    pair_by: str | None = None,
    share_of: str | None = None,
) -> dict[str, Any]:
    """The test of ``measure`` between the groups of ``group``; a measure that is not ``numeric``, or is
    coded 1/0, is tested as proportions: of its value ``share_of`` against all its others, or else it
    must have two values (yes/no; of 1/0, the share of 1). With ``pair_by`` naming each row's subject, two
    groups holding the same subjects once each are tested as pairs."""
    result: dict[str, Any] = {"measure": measure, "group_by": group, "alpha": ALPHA}
    zero_one = numeric and set(frame[measure].dropna().unique()) == {0, 1}  # a yes/no coded 1/0: its share of 1
    if not numeric or share_of is not None or zero_one:
        return result | _proportions(frame, measure, group, share_of)
    pairs = _subject_pairs(frame, measure, group, pair_by) if pair_by else None
    if pairs is not None:
        return result | paired(pairs, pair_by=pair_by)
    samples = {
        period_label(key): part.dropna().to_numpy(dtype=float)
        for key, part in frame.groupby(group, sort=True, dropna=True)[measure]
    }
    groups = [_summary(key, values) for key, values in samples.items()]
    groups.sort(key=lambda g: (g["mean"] is None, -(g["mean"] or 0)))
    usable = {key: values for key, values in samples.items() if values.size >= MIN_N}
    result["groups"] = groups
    if len(usable) < 2:
        return result | {"test": None, "significant": None, "why": "fewer than two groups with two values or more"}
    if len(usable) > MAX_GROUPS:
        return result | {"test": None, "significant": None, "why": f"more than {MAX_GROUPS} groups to test"}
    tested = _two_groups(usable) if len(usable) == 2 else _several_groups(usable)
    p = tested["test"]["p_value"]
    return result | tested | {"significant": None if p is None else p < ALPHA}


def paired(pairs: pd.DataFrame, **said: str | None) -> dict[str, Any]:
    """Two measurements of the same subjects (the frame's two columns, a row per subject): the paired
    t-test on their differences, checked by Wilcoxon's signed-rank test; the difference is the higher
    mean's column minus the other's."""
    first, second = sorted(pairs.columns, key=lambda column: -float(pairs[column].mean()))
    a, b = pairs[first].to_numpy(dtype=float), pairs[second].to_numpy(dtype=float)
    groups = [_summary(period_label(first), a), _summary(period_label(second), b)]
    result: dict[str, Any] = {**said, "alpha": ALPHA, "groups": groups, "pairs_tested": int(a.size)}
    if a.size < MIN_N + 1 or np.all(a == b):
        return result | {"test": None, "significant": None, "why": "fewer than three pairs that differ"}
    diff = a - b
    t = scipy_stats.ttest_rel(a, b)
    interval = t.confidence_interval(0.95)
    sd = float(diff.std(ddof=1))
    d = clean(float(diff.mean() / sd)) if sd > 0 else None
    p = clean(float(t.pvalue))
    return result | {
        "test": _outcome("paired t-test", t),
        "check": _outcome("Wilcoxon signed-rank test", scipy_stats.wilcoxon(a, b)),
        "why": f"paired data: the same {a.size} subjects measured twice, so the test is on each one's "
        "difference (paired t-test), checked by Wilcoxon's signed-rank test without assuming normal differences",
        "difference": {
            "higher": groups[0]["group"],
            "lower": groups[1]["group"],
            "value": clean(float(diff.mean())),
            "ci95": [clean(float(interval.low)), clean(float(interval.high))],
        },
        "effect": {"name": "cohens_dz", "size": d, "ci95": _dz_interval(d, a.size)},
        "significant": None if p is None else p < ALPHA,
    }


def _subject_pairs(frame: pd.DataFrame, measure: str, group: str, subject: str) -> pd.DataFrame | None:
    """The measure as a row per subject and a column per group, when the table is paired: two groups,
    no subject twice in one group, and most subjects in both (the incomplete ones are left out)."""
    rows = frame[[subject, group, measure]].dropna()
    if rows[group].nunique() != 2 or rows.duplicated([subject, group]).any():
        return None
    wide = rows.pivot(index=subject, columns=group, values=measure)
    complete = wide.dropna()
    return complete if len(complete) >= MIN_N + 1 and len(complete) * 2 >= len(wide) else None


def _dz_interval(d: float | None, n: int) -> list[float | None] | None:
    """Cohen's d_z's approximate 95% interval."""
    if d is None:
        return None
    se = math.sqrt(1 / n + d * d / (2 * n))
    return [clean(d - Z95 * se), clean(d + Z95 * se)]


def _summary(key: Any, values: np.ndarray) -> dict[str, Any]:
    return {
        "group": key,
        "n": int(values.size),
        "mean": clean(float(values.mean())) if values.size else None,
        "sd": clean(float(values.std(ddof=1))) if values.size >= MIN_N else None,
        "median": clean(float(np.median(values))) if values.size else None,
    }


def _two_groups(samples: dict[Any, np.ndarray]) -> dict[str, Any]:
    """Welch's t with the difference's 95% interval and Cohen's d, checked by Mann-Whitney U; the
    difference is the higher mean's group minus the other's."""
    (first, a), (second, b) = sorted(samples.items(), key=lambda item: -float(item[1].mean()))
    welch = scipy_stats.ttest_ind(a, b, equal_var=False)
    interval = welch.confidence_interval(0.95)
    rank = scipy_stats.mannwhitneyu(a, b, alternative="two-sided")
    return {
        "test": _outcome("Welch's t-test", welch),
        "check": _outcome("Mann-Whitney U test", rank),
        "why": "two groups: Welch's t-test compares their means without assuming equal variances; the "
        "Mann-Whitney U test checks it without assuming normal data",
        "difference": {
            "higher": first,
            "lower": second,
            "value": clean(float(a.mean() - b.mean())),
            "ci95": [clean(float(interval.low)), clean(float(interval.high))],
        },
        "effect": {"name": "cohens_d", "size": cohens_d(a, b), "ci95": _d_interval(cohens_d(a, b), a.size, b.size)},
    }


def _outcome(name: str, found: Any) -> dict[str, Any]:
    """A SciPy test's result as the answer carries it."""
    return {"name": name, "statistic": clean(float(found.statistic)), "p_value": clean(float(found.pvalue))}


def _d_interval(d: float | None, n1: int, n2: int) -> list[float | None] | None:
    """Cohen's d's approximate 95% interval (Hedges and Olkin's standard error)."""
    if d is None:
        return None
    se = math.sqrt((n1 + n2) / (n1 * n2) + d * d / (2 * (n1 + n2)))
    return [clean(d - Z95 * se), clean(d + Z95 * se)]


def _several_groups(samples: dict[Any, np.ndarray]) -> dict[str, Any]:
    """One-way ANOVA and eta squared, checked by Kruskal-Wallis; Tukey's HSD for the pairs that differ."""
    keys, arrays = list(samples), list(samples.values())
    anova = scipy_stats.f_oneway(*arrays)
    rank = scipy_stats.kruskal(*arrays)
    pairs = []
    if all(a.size >= MIN_N for a in arrays):
        tukey = scipy_stats.tukey_hsd(*arrays)
        for i, j in itertools.combinations(range(len(keys)), 2):
            high, low = (i, j) if arrays[i].mean() >= arrays[j].mean() else (j, i)
            pairs.append(
                {
                    "higher": keys[high],
                    "lower": keys[low],
                    "difference": clean(float(arrays[high].mean() - arrays[low].mean())),
                    "p_value": clean(float(tukey.pvalue[i, j])),
                }
            )
    pairs.sort(key=lambda pair: (pair["p_value"] is None, pair["p_value"] or 0))
    return {
        "test": _outcome("one-way ANOVA", anova),
        "check": _outcome("Kruskal-Wallis test", rank),
        "why": f"{len(keys)} groups: a one-way ANOVA asks whether any of their means differ; the "
        "Kruskal-Wallis test checks it without assuming normal data, and Tukey's HSD names the pairs",
        "effect": {"name": "eta_squared", "size": eta_squared(arrays), "ci95": None},
        "pairs": [pair for pair in pairs if pair["p_value"] is not None and pair["p_value"] < ALPHA][:20],
    }


YES_NO_SAID = {"1": "yes", "true": "yes", "t": "yes", "0": "no", "false": "no", "f": "no"}


def _proportions(frame: pd.DataFrame, measure: str, group: str, share_of: str | None) -> dict[str, Any]:
    """Each group's share of one value of the measure (``share_of``, else the second of a yes/no measure's
    two, in sort order or "yes"), and a chi-square test of the table (two groups: the same p as the
    two-proportion z-test)."""
    both = frame[[group, measure]].dropna()
    if share_of is not None and set(both[measure].astype(str)) <= {"yes", "no"}:
        share_of = YES_NO_SAID.get(share_of.casefold(), share_of)  # a yes/no column's 1 is its "yes"
    if share_of is not None:
        said = both[measure].astype(str).str.casefold() == share_of.casefold()
        if not said.any():
            return {"test": None, "significant": None, "groups": [], "share_of": share_of,
                    "why": f"no row has {measure} {share_of}"}  # fmt: skip
        positive = str(both[measure][said].iloc[0])
        both = both.assign(**{measure: said.map({True: positive, False: f"not {positive}"})})
        levels = [f"not {positive}", positive]
    else:
        levels = sorted(both[measure].unique(), key=lambda v: (str(v).lower() != "no", str(v)))
    if len(levels) != 2:
        return {"test": None, "significant": None, "groups": [],
                "why": f"{measure} has {len(levels)} values; a share needs two (yes/no)"}  # fmt: skip
    positive = levels[1]
    table = pd.crosstab(both[group], both[measure])
    if len(table) > MAX_GROUPS:
        return {"test": None, "significant": None, "groups": [], "why": f"more than {MAX_GROUPS} groups to test"}
    groups = [
        {"group": period_label(key), "n": int(row.sum()), "percent": clean(float(row[positive] / row.sum() * 100))}
        for key, row in table.iterrows()
    ]
    groups.sort(key=lambda g: -(g["percent"] or 0))
    result: dict[str, Any] = {"share_of": clean(positive), "groups": groups}
    if len(table) < 2:
        return result | {"test": None, "significant": None, "why": "only one group has rows"}
    chi2 = scipy_stats.chi2_contingency(table.to_numpy(), correction=False)
    p = clean(float(chi2.pvalue))
    result |= {
        "test": {"name": "chi-square test", "statistic": clean(float(chi2.statistic)), "p_value": p},
        "check": None,
        "why": "a yes/no measure: a chi-square test of each group's share (two groups: the two-proportion z-test)",
        "significant": None if p is None else p < ALPHA,
    }
    if len(groups) == 2:
        (high, low) = groups
        gap = (high["percent"] or 0) - (low["percent"] or 0)
        shares = [(g["percent"] or 0) / 100 for g in groups]
        se = math.sqrt(sum(s * (1 - s) / g["n"] for s, g in zip(shares, groups, strict=True)))
        result["difference"] = {"higher": high["group"], "lower": low["group"], "value": clean(gap),
                                "ci95": [clean(gap - Z95 * se * 100), clean(gap + Z95 * se * 100)]}  # fmt: skip
    return result
