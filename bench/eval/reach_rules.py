"""The rules of the "reach" question kinds (holdout8 onward): significance, top, which_row, missing,
outliers, distribution, crosstab, two_factor, rate, adjusted, forecast.

One function per kind gives a Rule, a function of a dataset that returns (answer, also, figure,
figure_is_percent, note). Each asserts that its answer is clear-cut (no p-value between 0.01 and 0.10, the
rank test agreeing with the t-test or ANOVA, no near ties, ...) and records the runner-up and the other
tests in ``note``. The sets that use them (holdout8, holdout9, holdout10) are scored alike; a change here
moves all their answers: rebuild each in the venv its docstring names and look at ``git diff bench/eval``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats as sps

KINDS = {
    "significance",
    "top",
    "which_row",
    "missing",
    "outliers",
    "distribution",
    "crosstab",
    "two_factor",
    "rate",
    "adjusted",
    "forecast",
}
Result = tuple[str, list[str], float, bool, dict]  # answer, also, figure, figure_is_percent, note
Rule = Callable[[pd.DataFrame], Result]
Question = tuple[str, str, str, str, Rule]  # id, dataset, kind, question, rule


def _rows(frame: pd.DataFrame, where: str | None) -> pd.DataFrame:
    return frame.query(where) if where else frame


def _label(value) -> str:
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _clear_p(p: float, what: str) -> None:
    assert not 0.01 <= p <= 0.10, f"{what}: p = {p:.4f} is borderline"


def significance_two(group: str, a: str, b: str, measure: str, where: str | None = None) -> Rule:
    """Welch's t-test between two groups; figure = |mean difference|; Mann-Whitney must agree at 0.05."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where)
        x, y = rows.loc[rows[group] == a, measure].dropna(), rows.loc[rows[group] == b, measure].dropna()
        t = sps.ttest_ind(x, y, equal_var=False)
        mw = sps.mannwhitneyu(x, y, alternative="two-sided")
        _clear_p(t.pvalue, "Welch")
        assert (t.pvalue < 0.05) == (mw.pvalue < 0.05), f"Welch p={t.pvalue:.4f}, Mann-Whitney p={mw.pvalue:.4f}"
        answer = "significant" if t.pvalue < 0.05 else "not significant"
        note = {
            "test": "Welch's t-test",
            "p_value": float(t.pvalue),
            "t": float(t.statistic),
            "mann_whitney_p": float(mw.pvalue),
            f"mean_{a}": float(x.mean()),
            f"mean_{b}": float(y.mean()),
            "n": [len(x), len(y)],
            "figure": "absolute difference of the two means",
        }
        return answer, [], abs(x.mean() - y.mean()), False, note

    return rule


def significance_anova(group: str, measure: str, where: str | None = None) -> Rule:
    """One-way ANOVA over three or more groups; figure = the highest group mean; Kruskal-Wallis must agree."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where)[[group, measure]].dropna()
        samples = [g[measure] for _, g in rows.groupby(group)]
        assert len(samples) >= 3
        f = sps.f_oneway(*samples)
        kw = sps.kruskal(*samples)
        _clear_p(f.pvalue, "ANOVA")
        assert (f.pvalue < 0.05) == (kw.pvalue < 0.05), f"ANOVA p={f.pvalue:.4f}, Kruskal-Wallis p={kw.pvalue:.4f}"
        means = rows.groupby(group)[measure].mean().sort_values(ascending=False)
        answer = "significant" if f.pvalue < 0.05 else "not significant"
        note = {
            "test": "one-way ANOVA",
            "p_value": float(f.pvalue),
            "F": float(f.statistic),
            "kruskal_wallis_p": float(kw.pvalue),
            "group_means": {_label(k): float(v) for k, v in means.items()},
            "highest_group": _label(means.index[0]),
            "n": len(rows),
            "figure": "the highest group mean",
        }
        return answer, [], float(means.iloc[0]), False, note

    return rule


def significance_paired(before: str, after: str, where: str | None = None) -> Rule:
    """A paired design (each row one subject measured twice, in two columns): the paired t-test on the
    rows with both; figure = |mean of the differences|; the Wilcoxon signed-rank test must agree at 0.05."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[before, after])
        t = sps.ttest_rel(rows[after], rows[before])
        wilcoxon = sps.wilcoxon(rows[after], rows[before])
        _clear_p(t.pvalue, "paired t")
        assert (t.pvalue < 0.05) == (wilcoxon.pvalue < 0.05), f"t p={t.pvalue:.4f}, Wilcoxon p={wilcoxon.pvalue:.4f}"
        unpaired = sps.ttest_ind(rows[after], rows[before], equal_var=False)
        note = {
            "test": "paired t-test (the same subjects measured twice)",
            "p_value": float(t.pvalue),
            "t": float(t.statistic),
            "wilcoxon_p": float(wilcoxon.pvalue),
            "unpaired_welch_p": float(unpaired.pvalue),
            f"mean_{before}": float(rows[before].mean()),
            f"mean_{after}": float(rows[after].mean()),
            "n_pairs": len(rows),
            "figure": f"absolute mean of the differences {after} - {before}",
        }
        answer = "significant" if t.pvalue < 0.05 else "not significant"
        return answer, [], abs(float((rows[after] - rows[before]).mean())), False, note

    return rule


def significance_share(group: str, a: str, b: str, outcome: str, yes: str, where: str | None = None) -> Rule:
    """Chi-square test of the 2x2 table (no continuity correction); figure = the higher share of ``yes``, %."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where)
        rows = rows[rows[group].isin([a, b])].dropna(subset=[outcome])
        table = pd.crosstab(rows[group], rows[outcome] == yes)
        chi2, p, _, _ = sps.chi2_contingency(table, correction=False)
        _, p_yates, _, _ = sps.chi2_contingency(table, correction=True)
        fisher = sps.fisher_exact(table.to_numpy())
        _clear_p(p, "chi-square")
        assert (p < 0.05) == (p_yates < 0.05) == (fisher.pvalue < 0.05)
        shares = (rows[outcome] == yes).groupby(rows[group]).mean() * 100
        answer = "significant" if p < 0.05 else "not significant"
        note = {
            "test": "chi-square 2x2, no continuity correction",
            "p_value": float(p),
            "chi2": float(chi2),
            "p_with_yates": float(p_yates),
            "fisher_p": float(fisher.pvalue),
            "shares_pct": {_label(k): float(v) for k, v in shares.items()},
            "higher_group": _label(shares.idxmax()),
            "n": len(rows),
            "figure": f"the higher group's share of {outcome} == {yes}, percent",
        }
        return answer, [], float(shares.max()), True, note

    return rule


def _no_ties(values: pd.Series, count: int) -> None:
    head = values.iloc[:count].to_numpy()
    assert len(np.unique(head)) == len(head), f"ties among the first {count}: {head}"


def top(
    key: str, measure: str, n: int, *, largest: bool = True, where: str | None = None, agg: str | None = None
) -> Rule:
    """The ``n`` rows (or groups of ``key`` by ``agg``) with the largest/smallest measure; no ties among n+1."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[measure])
        if agg:
            values = rows.groupby(key)[measure].agg(agg)
        else:
            assert rows[key].is_unique, f"{key} is no key"
            values = rows.set_index(key)[measure]
        values = values.sort_values(ascending=not largest, kind="stable")
        _no_ties(values, n + 1)
        names = [_label(k) for k in values.index[:n]]
        note = {
            "ranked": {_label(k): float(v) for k, v in values.iloc[: n + 1].items()},
            "next_after_top": _label(values.index[n]),
            "by": f"{agg} of {measure} per {key}" if agg else f"{measure} per row",
            "n_rows": len(rows),
        }
        return names[0], names[1:], float(values.iloc[0]), False, note

    return rule


def which_row(key: str, measure: str, *, highest: bool = True, where: str | None = None) -> Rule:
    """The key (a date as written, a name) of the row with the extreme value; no tie with the next."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[measure])
        values = rows.set_index(key)[measure].sort_values(ascending=not highest, kind="stable")
        assert values.iloc[0] != values.iloc[1], "tie"
        note = {
            "runner_up": _label(values.index[1]),
            "runner_up_value": float(values.iloc[1]),
            "n_rows": len(rows),
        }
        return _label(values.index[0]), [], float(values.iloc[0]), False, note

    return rule


def missing(column: str | None = None) -> Rule:
    """The column with the most missing values (or the column asked about); figure = its count."""

    def rule(frame: pd.DataFrame) -> Result:
        counts = frame.isna().sum().sort_values(ascending=False, kind="stable")
        note = {"missing_per_column": {k: int(v) for k, v in counts.items() if v}, "n_rows": len(frame)}
        if column is None:
            assert counts.iloc[0] > counts.iloc[1], "tie"
            note["runner_up"] = counts.index[1]
            return counts.index[0], [], float(counts.iloc[0]), False, note
        return column, [], float(counts[column]), False, note

    return rule


def outliers(key: str, measure: str, *, group: str | None = None, where: str | None = None) -> Rule:
    """The IQR rule's most extreme outlier (farthest outside its fence; fences per group if asked); the
    MAD rule (|x - median| > 3.5 * 1.4826 * MAD) must flag the same row as its most extreme."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[measure])
        parts = [g for _, g in rows.groupby(group)] if group else [rows]
        found, mad_found = [], []
        for part in parts:
            x = part[measure]
            q1, q3 = x.quantile(0.25), x.quantile(0.75)
            low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
            beyond = np.maximum(low - x, x - high)
            found.append(beyond[beyond > 0])
            mad = 1.4826 * (x - x.median()).abs().median()
            gap = (x - x.median()).abs() - 3.5 * mad
            mad_found.append(gap[gap > 0] / mad)
        beyond = pd.concat(found).sort_values(ascending=False)
        mad_beyond = pd.concat(mad_found).sort_values(ascending=False)
        assert len(beyond) >= 1 and (len(beyond) == 1 or beyond.iloc[0] > beyond.iloc[1]), "no clear extreme"
        top_row = beyond.index[0]
        assert len(mad_beyond) and mad_beyond.index[0] == top_row, "the MAD rule picks another row"
        note = {
            "rule": "IQR fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR)" + (f" within each {group}" if group else ""),
            "outlier_count": len(beyond),
            "farthest_beyond_fence": float(beyond.iloc[0]),
            "runner_up": _label(rows.loc[beyond.index[1], key]) if len(beyond) > 1 else None,
            "mad_rule_count": len(mad_beyond),
            "mad_rule_same_most_extreme": True,
            "n_rows": len(rows),
        }
        return _label(rows.loc[top_row, key]), [], float(rows.loc[top_row, measure]), False, note

    return rule


def distribution(measure: str, where: str | None = None) -> Rule:
    """right-/left-skewed (pandas skew beyond +-0.5) or roughly symmetric (|skew| < 0.2); figure = median."""

    def rule(frame: pd.DataFrame) -> Result:
        x = _rows(frame, where)[measure].dropna()
        skew = float(x.skew())
        assert abs(skew) > 0.5 or abs(skew) < 0.2, f"skew {skew:.3f} is in between"
        answer = "right-skewed" if skew > 0.5 else "left-skewed" if skew < -0.5 else "roughly symmetric"
        note = {"skew": skew, "mean": float(x.mean()), "median": float(x.median()), "n": len(x)}
        return answer, [], float(x.median()), False, note

    return rule


def crosstab(a: str, b: str, where: str | None = None) -> Rule:
    """Chi-square test of independence (scipy's default: Yates' correction for a 2x2 table only);
    figure = Cramer's V from the same chi2."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[a, b])
        table = pd.crosstab(rows[a], rows[b])
        chi2, p, dof, expected = sps.chi2_contingency(table)
        _clear_p(p, "chi-square")
        v = float(np.sqrt(chi2 / (len(rows) * (min(table.shape) - 1))))
        note = {
            "test": "scipy chi2_contingency"
            + (" (Yates-corrected, 2x2)" if table.shape == (2, 2) else " (no correction)"),
            "p_value": float(p),
            "chi2": float(chi2),
            "dof": int(dof),
            "table_shape": list(table.shape),
            "min_expected": float(expected.min()),
            "n": len(rows),
        }
        return ("associated" if p < 0.05 else "independent"), [], v, False, note

    return rule


def two_factor(a: str, b: str, measure: str, *, highest: bool = True, where: str | None = None) -> Rule:
    """The (a, b) cell with the highest (lowest) mean (of two rows or more); the runner-up cell at least 3%
    apart."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where)
        means = rows.groupby([a, b])[measure].mean().sort_values(ascending=not highest)
        first, second = means.iloc[0], means.iloc[1]
        assert abs(first - second) >= 0.03 * abs(first), f"runner-up {second} too close to {first}"
        sizes = rows.groupby([a, b])[measure].count()
        assert sizes[means.index[0]] >= 2, "a one-row cell"
        note = {
            "cell_n": int(sizes[means.index[0]]),
            "runner_up": [_label(v) for v in means.index[1]],
            "runner_up_mean": float(second),
            "cells": len(means),
        }
        return _label(means.index[0][0]), [_label(means.index[0][1])], float(first), False, note

    return rule


def rate(group: str, time: str, measure: str, *, highest: bool = True, where: str | None = None, only=None) -> Rule:
    """Per-group OLS slope of the measure on the (numeric) time column; the group with the highest slope
    (the fastest rise) or the lowest (the fastest fall, or the slowest rise when all rise); the runner-up
    at least 5% apart."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[time, measure])
        if only:
            rows = rows[rows[group].isin(only)]
        slopes = rows.groupby(group).apply(lambda g: np.polyfit(g[time], g[measure], 1)[0], include_groups=False)
        slopes = slopes.sort_values(ascending=not highest)
        first, second = slopes.iloc[0], slopes.iloc[1]
        assert abs(first - second) >= 0.05 * abs(first), f"runner-up slope {second} too close to {first}"
        note = {
            "slopes": {_label(k): float(v) for k, v in slopes.items()},
            "runner_up": _label(slopes.index[1]),
            "n_rows": len(rows),
        }
        return _label(slopes.index[0]), [], float(first), False, note

    return rule


def adjusted(x: str, y: str, z: str, *, categorical: bool, where: str | None = None) -> Rule:
    """Sign of x's coefficient in OLS of y on x plus z (dummies when categorical); the pooled slope and
    both p-values in the note."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[x, y, z])
        term = f"C({z})" if categorical else z
        fit = smf.ols(f"{y} ~ {x} + {term}", data=rows).fit()
        pooled = smf.ols(f"{y} ~ {x}", data=rows).fit()
        coef, p = float(fit.params[x]), float(fit.pvalues[x])
        assert p < 0.01, f"adjusted coefficient not clearly nonzero (p={p:.4f})"
        note = {
            "model": f"OLS {y} ~ {x} + {term}",
            "adjusted_p": p,
            "unadjusted_coef": float(pooled.params[x]),
            "unadjusted_p": float(pooled.pvalues[x]),
            "sign_flips": bool(np.sign(coef) != np.sign(pooled.params[x])),
            "n": len(rows),
        }
        return ("positive" if coef > 0 else "negative"), [], coef, False, note

    return rule


def forecast(
    time: str, measure: str, target: int, *, stat: str = "mean", where: str | None = None, period=None
) -> Rule:
    """A straight line through the per-period statistic against the period number, read at ``target``."""

    def rule(frame: pd.DataFrame) -> Result:
        rows = _rows(frame, where).dropna(subset=[measure])
        periods = period(rows[time]) if period else rows[time]
        series = rows[measure].groupby(periods).agg(stat)
        slope, intercept = np.polyfit(series.index.to_numpy(dtype=float), series.to_numpy(dtype=float), 1)
        span = series.index.max() - series.index.min() + 1
        assert 0 < target - series.index.max() <= span / 3, f"horizon too long for {span} periods"
        note = {
            "periods": [int(series.index.min()), int(series.index.max())],
            "per_period": stat,
            "slope_per_period": float(slope),
            "last_actual": float(series.iloc[-1]),
        }
        return str(target), [], float(intercept + slope * target), False, note

    return rule


def year_of(dates: pd.Series) -> pd.Series:
    return pd.to_datetime(dates).dt.year


def expected(questions: list[Question], frames: dict[str, pd.DataFrame]) -> list[dict]:
    """Each question's entry in questions.json; every failed check is named with its question."""
    entries, failed = [], []
    for qid, dataset, kind, question, rule in questions:
        assert kind in KINDS, qid
        try:
            answer, also, figure, is_percent, note = rule(frames[dataset])
        except AssertionError as exc:
            failed.append(f"{qid}: {exc}")
            continue
        entry = {"id": qid, "dataset": dataset, "kind": kind, "question": question, "answer": answer}
        if also:
            entry["also"] = also
        entry.update({"figure": round(float(figure), 6), "figure_is_percent": is_percent, "note": note})
        entries.append(entry)
    assert not failed, "\n".join(failed)
    return entries
