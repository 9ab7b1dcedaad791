"""compare, associate, trend and growth on a big table: the aggregates computed in DuckDB, not in pandas.

Past ``IN_ENGINE_FROM_ROWS`` rows the rows stay in the table's columnar copy: one scan gives each
group's (or period's, or entity-and-period's) n, moments and the statistic asked, and SciPy's tests
run on those few rows (Welch's t from the two groups' means and SDs, the ANOVA from the groups'
sums of squares, Pearson's r and its interval from n and r). What needs the rows themselves, a rank
correlation and a chart's points, comes from a stated, bounded, repeatable sample
(``SAMPLE_ROWS``). Each function answers in the same shape as its ``engine``/``timeline`` twin,
with the same figures up to floating-point rounding; below the threshold the twins answer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from agents.operations.datasets.wall import quote_identifier
from agents.operations.stats.engine import MIN_TEST_N, clean, period_label, ranked_groups
from agents.operations.stats.frame import EngineTable

IN_ENGINE_FROM_ROWS = 200_000
SAMPLE_ROWS = 50_000
SAMPLE_SEED = 41


def shown(source: EngineTable, name: str) -> str:
    """A column as ``load_frame`` shows it: a boolean is said yes/no."""
    column = quote_identifier(name)
    if source.types[name] == "boolean":
        return f"CASE WHEN {column} THEN 'yes' WHEN NOT {column} THEN 'no' END"
    return column


def statistic_sql(statistic: str, column: str, *, percentile: float = 50, sd: str = "sample") -> str:
    """``engine.statistic_of`` as a DuckDB aggregate (pandas' quantiles are DuckDB's quantile_cont)."""
    return {
        "mean": f"avg({column})",
        "median": f"quantile_cont({column}, 0.5)",
        "sum": f"sum({column})",
        "count": f"count({column})",
        "min": f"min({column})",
        "max": f"max({column})",
        "sd": f"stddev_{'samp' if sd == 'sample' else 'pop'}({column})",
        "percentile": f"quantile_cont({column}, {float(percentile) / 100!r})",
    }[statistic]


def _figure(value: Any, statistic: str) -> Any:
    if statistic == "count":
        return int(value)
    return None if value is None or pd.isna(value) or not math.isfinite(float(value)) else float(value)


def where(source: EngineTable, *present: str) -> str:
    """The call's filter and the rows that have every one of ``present``."""
    parts = [f"({source.where})"] if source.where else []
    parts += [f"{quote_identifier(name)} IS NOT NULL" for name in present]
    return f" WHERE {' AND '.join(parts)}" if parts else ""


def grouped(source: EngineTable, keys: dict[str, str], extra: dict[str, str], *present: str) -> pd.DataFrame:
    """One row per combination of ``keys`` (name: expression) with the aggregates ``extra`` names."""
    table = quote_identifier(source.table)
    selected = ", ".join([*(f"{sql} AS {quote_identifier(k)}" for k, sql in keys.items()),
                          *(f"{sql} AS {quote_identifier(k)}" for k, sql in extra.items())])  # fmt: skip
    grouping = ", ".join(str(i + 1) for i in range(len(keys)))
    return source.frame(f"SELECT {selected} FROM {table}{where(source, *present)} GROUP BY {grouping}")


def sample(source: EngineTable, columns: list[str]) -> pd.DataFrame:
    """About ``SAMPLE_ROWS`` of the filtered rows (each kept with the same chance, seeded), as
    ``load_frame`` shows them; every row when there are no more."""
    names = ", ".join(f"{shown(source, c)} AS {quote_identifier(c)}" for c in dict.fromkeys(columns))
    rows = source.rows()
    sql = f"SELECT {names} FROM {source.source}"
    if rows > SAMPLE_ROWS:
        sql = f"SELECT * FROM ({sql}) USING SAMPLE {100 * SAMPLE_ROWS / rows:.6f} PERCENT (bernoulli, {SAMPLE_SEED})"
    frame = source.frame(sql)
    frame.attrs["types"] = source.types
    return frame


def sample_note(rows: int, used_for: list[str]) -> dict[str, Any]:
    """What the report says of a sample: about how many rows of how many, and which figures came from it."""
    return {"rows": min(rows, SAMPLE_ROWS), "of": rows, "seed": SAMPLE_SEED, "used_for": used_for}


def compare(source: EngineTable, measure: str, group: str, statistic: str, *, percentile: float) -> dict[str, Any]:
    """``engine.compare`` from each group's n, mean, variance and statistic."""
    m = quote_identifier(measure)
    moments = {"n": f"count({m})", "mean": f"avg({m})", "var": f"var_samp({m})", "pop": f"var_pop({m})",
               "value": statistic_sql(statistic, m, percentile=percentile)}  # fmt: skip
    groups = grouped(source, {"group": shown(source, group)}, moments, group)
    groups = groups.sort_values("group", kind="stable").reset_index(drop=True)
    rows = [{"group": period_label(g.group), "n": int(g.n), "value": _figure(g.value, statistic) if g.n else None}
            for g in groups.itertuples()]  # fmt: skip
    if statistic == "count":
        rows = [{**r, "value": r["n"]} for r in rows]
    rows.sort(key=lambda r: (r["value"] is None, -(r["value"] or 0)))
    return {**ranked_groups(measure, group, statistic, rows), "test": _test(groups[groups["n"] > 0])}


def _test(groups: pd.DataFrame) -> dict[str, Any] | None:
    """``engine._test`` from the groups' moments: Welch's t and Cohen's d, or the ANOVA and eta squared."""
    usable = groups[groups["n"] >= MIN_TEST_N]
    if len(usable) < 2:
        return None
    if len(usable) == 2:
        a, b = usable.iloc[0], usable.iloc[1]
        welch = scipy_stats.ttest_ind_from_stats(
            a["mean"], math.sqrt(a["var"]), a["n"], b["mean"], math.sqrt(b["var"]), b["n"], equal_var=False
        )
        pooled = ((a["n"] - 1) * a["var"] + (b["n"] - 1) * b["var"]) / (a["n"] + b["n"] - 2)
        d = clean(float((a["mean"] - b["mean"]) / math.sqrt(pooled))) if pooled > 0 else None
        return {"name": "Welch's t-test", "statistic": clean(float(welch.statistic)),
                "p_value": clean(float(welch.pvalue)), "effect": "cohens_d", "effect_size": d}  # fmt: skip
    k, n = len(usable), float(usable["n"].sum())
    grand = float((usable["n"] * usable["mean"]).sum()) / n
    between = float((usable["n"] * (usable["mean"] - grand) ** 2).sum())
    within = float(((usable["n"] - 1) * usable["var"]).sum())
    f = (between / (k - 1)) / (within / (n - k)) if within > 0 and n > k else float("nan")
    p = float(scipy_stats.f.sf(f, k - 1, n - k)) if math.isfinite(f) else float("nan")
    return {"name": "one-way ANOVA", "statistic": clean(f), "p_value": clean(p), "effect": "eta_squared",
            "effect_size": eta_squared(groups)}  # fmt: skip


def eta_squared(groups: pd.DataFrame) -> float | None:
    """``engine.eta_squared`` from each group's n, mean and population variance."""
    if groups.empty:
        return None
    n = float(groups["n"].sum())
    grand = float((groups["n"] * groups["mean"]).sum()) / n
    between = float((groups["n"] * (groups["mean"] - grand) ** 2).sum())
    total = between + float((groups["n"] * groups["pop"].fillna(0)).sum())
    return clean(between / total) if total > 0 else None


def associate(source: EngineTable, outcome: str, variables: list[str]) -> tuple[dict[str, Any], pd.DataFrame]:
    """``engine.associate`` from one scan: each variable's n, r, slope and intercept against the outcome
    (coded 0/1 when it has two values), or its groups' moments per outcome value (eta); Spearman's rho
    and nothing else from the sample, which ``sample_note`` states."""
    numeric_target = source.types[outcome] == "number"
    coded_as, target = None, quote_identifier(outcome)
    if not numeric_target:
        levels = source.frame(f"SELECT DISTINCT {shown(source, outcome)} AS v FROM {source.source} LIMIT 3")["v"]
        levels = sorted(levels.dropna().tolist(), key=str)
        if len(levels) == 2:
            coded_as = clean(levels[1])
            target = f"CASE WHEN {shown(source, outcome)} = ? THEN 1.0 WHEN {shown(source, outcome)} = ? THEN 0.0 END"
    others = [v for v in variables if v != outcome]
    drawn = sample(source, [*others, outcome])  # Spearman's rho and the chart
    if numeric_target or coded_as is not None:
        marks = [levels[1], levels[0]] if coded_as is not None else []
        ranked = _correlations(source, target, others, marks, outcome, drawn)
    else:
        ranked = _etas(source, outcome, others)
    ranked.sort(key=lambda r: -r["strength"])
    method = "pearson" if numeric_target else "point_biserial" if coded_as is not None else "eta"
    return {"outcome": outcome, "outcome_coded_1": coded_as, "method": method, "variables": ranked}, drawn


def fits(source: EngineTable, columns: list[str], *, time: str | None = None) -> bool:
    """Whether the in-engine path answers: the table is big, every column is the table's (else the row
    path names the mistake) and a time column is a date or a number (text dates are parsed by pandas)."""
    if any(name not in source.types for name in columns):
        return False
    if time is not None and source.types.get(time) not in ("date", "number"):
        return False
    return source.rows() >= IN_ENGINE_FROM_ROWS


def _correlations(
    source: EngineTable, target: str, variables: list[str], marks: list[Any], outcome: str, drawn: pd.DataFrame
) -> list[dict[str, Any]]:
    """Pearson's r, its p-value and Fisher-z interval, the least-squares line and Spearman's rho (sampled)."""
    if not variables:
        return []
    parts = []
    for i, variable in enumerate(variables):
        both = f"chap_outcome, {quote_identifier(variable)}"  # the rows with both: pandas' dropna()
        parts += [f"regr_count({both}) AS n{i}", f"corr({both}) AS r{i}", f"regr_slope({both}) AS b{i}",
                  f"regr_intercept({both}) AS a{i}", f"regr_sxx({both}) > 0 AS vx{i}",
                  f"regr_syy({both}) > 0 AS vy{i}"]  # fmt: skip
    inner = f"SELECT *, {target} AS chap_outcome FROM {source.source}"
    row = source.frame(f"SELECT {', '.join(parts)} FROM ({inner})", [*marks, *source.values]).iloc[0]
    y = drawn[outcome] if not marks else drawn[outcome].map({marks[0]: 1.0, marks[1]: 0.0})
    ranked = []
    for i, variable in enumerate(variables):
        n = int(row[f"n{i}"])
        if n < 3 or not row[f"vx{i}"] or not row[f"vy{i}"]:
            continue
        r = float(row[f"r{i}"])
        pair = pd.concat([drawn[variable].astype(float), y], axis=1).dropna()
        rho = scipy_stats.spearmanr(pair.iloc[:, 0], pair.iloc[:, 1]).statistic if len(pair) >= 3 else float("nan")
        found = {"n": n, "pearson_r": clean(r), "p_value": clean(_pearson_p(r, n)), "ci95": _fisher(r, n),
                 "spearman_rho": clean(float(rho)), "slope": clean(float(row[f"b{i}"])),
                 "intercept": clean(float(row[f"a{i}"]))}  # fmt: skip
        ranked.append({"variable": variable, "strength": abs(found["pearson_r"] or 0), **found})
    return ranked


def _pearson_p(r: float, n: int) -> float:
    """SciPy's pearsonr p-value: r's exact distribution under no correlation (a beta on [-1, 1])."""
    dist = scipy_stats.beta(n / 2 - 1, n / 2 - 1, loc=-1, scale=2)
    return float(2 * dist.sf(abs(r)))


def _fisher(r: float, n: int) -> list[Any] | None:
    """SciPy's 95% interval for r: Fisher's z, with a standard error of 1/sqrt(n - 3)."""
    if n <= 3:
        return None
    z, spread = np.arctanh(r), scipy_stats.norm.ppf(0.975) / math.sqrt(n - 3)
    return [clean(float(np.tanh(z - spread))), clean(float(np.tanh(z + spread)))]


def _etas(source: EngineTable, outcome: str, variables: list[str]) -> list[dict[str, Any]]:
    """Each variable's eta against an outcome of many values, from the variable's moments per value."""
    ranked = []
    for variable in variables:
        x = quote_identifier(variable)
        moments = {"n": f"count({x})", "mean": f"avg({x})", "pop": f"var_pop({x})"}
        groups = grouped(source, {"group": shown(source, outcome)}, moments, outcome, variable)
        eta = eta_squared(groups[groups["n"] > 0])
        if eta is not None:
            ranked.append({"variable": variable, "strength": math.sqrt(eta), "eta": math.sqrt(eta), "eta_squared": eta})
    return ranked
