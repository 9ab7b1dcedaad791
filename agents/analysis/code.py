"""The pandas, SciPy and statsmodels code that reproduces an answer's figures from the attached file,
runnable as it is beside the file. Plain Python: it writes text, it never runs it.

The file is read as the import read it (separator, decimal mark, thousands separator, encoding, the
markers that stood for missing values, each column's type), the call's filters become a pandas mask,
and each stats.* operation becomes the few lines a notebook would hold; the last line prints the figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.operations.stats.timeline import SEASONS, above_name, above_sides, grouping

LIKE_WILDCARDS = {"%": ".*", "_": "."}
COMPARISONS = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
# a yes/no column as the store keeps it (1 and 0), so that its filters (= 1, = true) hold in pandas too
YES_NO = {"yes": 1, "true": 1, "1": 1, "y": 1, "no": 0, "false": 0, "0": 0, "n": 0}


PANDAS_PERIODS = {"year": "Y", "quarter": "Q", "month": "M", "week": "W", "day": "D"}  # as stats.* bucket them
# 411041792 and 0.00008007, never 4.110418e+08 or 8.007e-05 (a person, and the evaluation, read them as written)
FLOATS = (
    "pd.set_option('display.float_format', "
    "lambda v: f'{v:.10g}' if 'e' not in f'{v:.10g}' else f'{v:.15f}'.rstrip('0').rstrip('.'))"
)


def reading(file: dict[str, Any]) -> list[str]:
    """Lines that read the file into ``df`` as the import did."""
    dialect, columns = file["dialect"], file["columns"]
    markers = sorted({m for c in columns for m in c.get("markers") or []})
    lines = [
        f"df = pd.read_csv({file['path']!r}, sep={dialect['separator']!r}, decimal={dialect['decimal']!r},",
        f"                 thousands={dialect['thousands'] or None!r}, encoding={_codec(dialect['encoding'])!r},"
        f" na_values={markers!r})",
        f"df.columns = {[c['name'] for c in columns]!r}  # the table's column names",
    ]
    for column in columns:
        name, kind = column["name"], column["type"]
        if kind == "number" and column.get("sign"):  # "4.98%", "$1,234": the number without its sign
            lines.append(f"df[{name!r}] = pd.to_numeric({_unsigned(name, column['sign'], dialect)}, errors='coerce')")
        elif kind == "number":
            lines.append(f"df[{name!r}] = pd.to_numeric(df[{name!r}], errors='coerce')")
        elif kind == "date" and column.get("quarterly"):  # "1970 Q1", "2010-Q4": the quarter's first day
            quarters = f"df[{name!r}].astype(str).str.replace(r'[\\s-]', '', regex=True)"
            lines.append(f"df[{name!r}] = pd.PeriodIndex({quarters}, freq='Q').to_timestamp()")
        elif kind == "date":
            day_first = ", dayfirst=True" if column.get("day_first") else ""  # "31/12/1988"
            lines.append(f"df[{name!r}] = pd.to_datetime(df[{name!r}]{day_first}, errors='coerce')")
        elif kind == "boolean":
            lines.append(f"df[{name!r}] = df[{name!r}].astype(str).str.strip().str.lower().map({YES_NO!r})")
    melt = file.get("melt")
    if melt:  # a wide table's columns stacked as rows, as dataset.unpivot stacked them
        lines.append(
            f"df = df.melt(id_vars={melt['keep']!r}, value_vars={melt['columns']!r}, var_name={melt['name']!r}, "
            f"value_name={melt['value']!r})"
        )
    return lines


def _unsigned(name: str, sign: str, dialect: dict[str, Any]) -> str:
    """The column's text without its sign and thousands separator, with a decimal point."""
    text = f"df[{name!r}].astype('string').str.replace({sign!r}, '', regex=False)"
    if dialect["thousands"]:
        text += f".str.replace({dialect['thousands']!r}, '', regex=False)"
    if dialect["decimal"] != ".":
        text += f".str.replace({dialect['decimal']!r}, '.', regex=False)"
    return text


def _codec(encoding: str) -> str:
    """The codec pandas reads the import's encoding with ("utf-8 with a byte-order mark" is utf-8-sig)."""
    if encoding.endswith(" with a byte-order mark"):
        return "utf-8-sig" if encoding.startswith("utf-8") else "utf-16"
    return encoding


def mask(condition: dict[str, Any]) -> str:
    """A filter of the dataset store's language as a pandas boolean expression over ``df``."""
    if "and" in condition or "or" in condition:
        joined = " & " if "and" in condition else " | "
        parts = condition.get("and") or condition.get("or") or []
        return "(" + joined.join(mask(part) for part in parts) + ")" if parts else "True"
    if "not" in condition:
        return f"~{mask(condition['not'])}"
    column, op, value = f"df[{condition['column']!r}]", condition.get("op", "="), condition.get("value")
    if op == "in":
        return f"{column}.isin({list(value or [])!r})"
    if op == "is_null":
        return f"{column}.isna()" if value in (None, True) else f"{column}.notna()"
    if op == "like":
        pattern = "".join(LIKE_WILDCARDS.get(ch, _escaped(ch)) for ch in str(value))
        return f"{column}.astype(str).str.fullmatch({pattern!r}, case=False)"
    return f"({column} {COMPARISONS[op]} {value!r})"


def _escaped(ch: str) -> str:
    return "\\" + ch if ch in ".^$*+?{}[]\\|()" else ch


def reproduction(operation: str, body: dict[str, Any], file: dict[str, Any]) -> str | None:
    """The script that recomputes ``operation``'s figures from the file (None for an operation it
    cannot write)."""
    writer = WRITERS.get(operation)
    if writer is None:
        return None
    lines = ["import pandas as pd", *writer.imports, "", FLOATS, *reading(file)]
    if body.get("filters"):
        lines.append(f"df = df[{mask(body['filters'])}]  # the rows the question keeps")
    if body.get("cycle"):
        body = _cycled(body, file, lines)
    for role, threshold in (("and_by", "and_above"), ("group_by", "group_above")):
        if body.get(threshold) is not None:
            body = _above(body, role, threshold, lines)
    return "\n".join([*lines, *writer.write(body)]) + "\n"


def _cycled(body: dict[str, Any], file: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """The call's grouping date columns read as their place in its cycle, under the names the operation
    gives them ("season of date"): a line that adds each, and the body naming them."""
    dates = {c["name"] for c in file["columns"] if c["type"] == "date"}
    read = {}
    for column in [body.get("group_by"), body.get("column"), body.get("entity"), *(body.get("controls") or [])]:
        if column in dates and column not in read:
            read[column] = grouping(body, column)
            key = CYCLE_KEYS[body["cycle"]].replace("{d}", f"df[{_q(column)}]")
            lines.append(f"df[{_q(read[column])}] = {key}  # the {read[column]}")
    named = {key: read.get(body[key], body[key]) for key in ("group_by", "column", "entity") if body.get(key)}
    lists = {key: [read.get(c, c) for c in body[key]] for key in ("controls", "fixed_effects") if body.get(key)}
    return {**body, **named, **lists}


def _above(body: dict[str, Any], role: str, key: str, lines: list[str]) -> dict[str, Any]:
    """A number column read as yes/no by its threshold, under the name the operation gives it."""
    column, threshold = body[role], body[key]
    name = above_name(column, threshold)
    values = f"df[{_q(column)}]"
    sides = above_sides(column, threshold, sides=role == "group_by")
    lines.append(f"df[{_q(name)}] = ({values} > {threshold!r}).map({sides!r}).where({values}.notna())")
    return {**body, role: name}


@dataclass(frozen=True)
class Writer:
    """An operation's lines (from its call's body) and the imports they need beyond pandas."""

    write: Callable[[dict[str, Any]], list[str]]
    imports: tuple[str, ...] = ()


def _q(name: str) -> str:
    return json.dumps(name)


# a date's place in a cycle, as the stats.* ``cycle`` reads it (agents/operations/stats/timeline.py)
CYCLE_KEYS = {
    "month_of_year": "{d}.dt.strftime('%B')",
    "weekday": "{d}.dt.strftime('%A')",
    "quarter_of_year": "'Q' + {d}.dt.quarter.astype(str)",
    "season": "{d}.dt.month.map(" + repr(SEASONS) + ")",
}


def _compare(b: dict[str, Any]) -> list[str]:
    stat = _agg(b.get("statistic", "mean"), b.get("percentile", 50))
    group = _q(b["group_by"])
    return [f"print(df.groupby({group})[{_q(b['measure'])}].agg({stat}).sort_values(ascending=False))"]


def _agg(statistic: str, percentile: float = 50) -> str:
    if statistic == "percentile":
        return f"lambda s: s.quantile({percentile / 100!r})"
    return {"sd": "'std'", "sum": "'sum'", "count": "'count'"}.get(statistic, repr(statistic))


def _describe(b: dict[str, Any]) -> list[str]:
    percentiles = [p / 100 for p in b.get("percentiles") or [25, 50, 75]]
    ddof = 0 if b.get("sd") == "population" else 1
    return [
        f"s = df[{_q(b['columns'][0])}]",
        f"print(s.describe(percentiles={percentiles!r}))",
        f"print('median', s.median(), 'sum', s.sum(), 'sd', s.std(ddof={ddof}), 'min', s.min(), 'max', s.max())",
    ]


def _significance(b: dict[str, Any]) -> list[str]:
    m = _q(b["measure"])
    if b.get("versus"):
        v = _q(b["versus"])
        return [
            f"pairs = df[[{m}, {v}]].dropna()",
            "print(pairs.mean(), 'mean difference', (pairs.iloc[:, 0] - pairs.iloc[:, 1]).mean())",
            "print(stats.ttest_rel(pairs.iloc[:, 0], pairs.iloc[:, 1]))",
            "print(stats.wilcoxon(pairs.iloc[:, 0], pairs.iloc[:, 1]))",
        ]
    g = _q(b["group_by"])
    if b.get("share_of"):
        return [
            f"has_it = df[{m}].astype(str).str.casefold() == {_q(b['share_of'])}.casefold()",
            f"table = pd.crosstab(df[{g}], has_it)",
            "print((table.div(table.sum(axis=1), axis=0) * 100).round(2))",
            "print(stats.chi2_contingency(table, correction=False))",
        ]
    independent = [
        f"zero_one = set(df[{m}].dropna().unique()) == {{0, 1}}  # a yes/no coded 1/0: tested as shares",
        f"if pd.api.types.is_numeric_dtype(df[{m}]) and not zero_one:",
        f"    samples = [part.dropna() for _, part in df.groupby({g})[{m}]]",
        f"    print(df.groupby({g})[{m}].agg(['count', 'mean', 'std', 'median']))",
        "    if len(samples) == 2:",
        "        print('difference of the means', abs(samples[0].mean() - samples[1].mean()))",
        "        print(stats.ttest_ind(*samples, equal_var=False), stats.mannwhitneyu(*samples))",
        "    else:",
        "        print(stats.f_oneway(*samples), stats.kruskal(*samples))",
        "else:",
        f"    table = pd.crosstab(df[{g}], df[{m}])",
        "    print((table.div(table.sum(axis=1), axis=0) * 100).round(2))",
        "    print(stats.chi2_contingency(table, correction=False))",
    ]
    if not b.get("pair_by"):
        return independent
    subject = _q(b["pair_by"])
    return [
        f"measured = df.dropna(subset=[{m}, {g}, {subject}])",
        "try:  # the same subjects in two groups, each once: tested as pairs",
        f"    every = measured.pivot(index={subject}, columns={g}, values={m})",
        "    pairs = every.dropna()",
        "    paired = every.shape[1] == 2 and len(pairs) > 2 and 2 * len(pairs) >= len(every)",
        "except ValueError:  # a subject twice in one group: not paired",
        "    paired = False",
        "if paired:",
        "    print(pairs.mean(), 'mean difference', (pairs.iloc[:, 0] - pairs.iloc[:, 1]).mean())",
        "    print(stats.ttest_rel(pairs.iloc[:, 0], pairs.iloc[:, 1]))",
        "    print(stats.wilcoxon(pairs.iloc[:, 0], pairs.iloc[:, 1]))",
        "else:",
        *(f"    {line}" for line in independent),
    ]


def _top(b: dict[str, Any]) -> list[str]:
    m, label, n, low = _q(b["measure"]), _q(b["label"]), b.get("n", 5), b.get("direction") == "low"
    if b.get("statistic"):
        return [f"print(df.groupby({label})[{m}].agg({_agg(b['statistic'])}).sort_values(ascending={low}).head({n}))"]
    return [f"print(df.dropna(subset=[{m}]).sort_values({m}, ascending={low})[[{label}, {m}]].head({n}))"]


def _outliers(b: dict[str, Any]) -> list[str]:
    m, within = _q(b["measure"]), b.get("within")
    of = f"df.groupby({_q(within)})[{m}].transform(lambda s: s.quantile({{}}))" if within else f"df[{m}].quantile({{}})"
    shown = ", ".join([*([_q(b["label"])] if b.get("label") else []), m, _q("iqrs_beyond")])
    return [
        f"q1, q3 = {of.format(0.25)}, {of.format(0.75)}",
        "low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)",
        f"iqrs_beyond = ((df[{m}] - high).clip(lower=0) + (low - df[{m}]).clip(lower=0)) / (q3 - q1)",
        "beyond = df[iqrs_beyond > 0].assign(iqrs_beyond=iqrs_beyond).sort_values('iqrs_beyond', ascending=False)",
        f"print(len(beyond), 'outliers, the farthest first'); print(beyond[[{shown}]].head(10))",
    ]


def _distribution(b: dict[str, Any]) -> list[str]:
    m = _q(b["measure"])
    return [f"s = df[{m}].dropna()", "print(s.describe(percentiles=[0.05, 0.25, 0.5, 0.75, 0.95]))",
            "print('median', s.median(), 'skewness', s.skew(), 'excess kurtosis', s.kurt())"]  # fmt: skip


def _missing(b: dict[str, Any]) -> list[str]:
    columns = f"[[{', '.join(_q(c) for c in b['columns'])}]]" if b.get("columns") else ""
    return [f"print(df{columns}.isna().sum().sort_values(ascending=False), len(df), 'rows')"]


def _crosstab(b: dict[str, Any]) -> list[str]:
    return [
        f"table = pd.crosstab(df[{_q(b['group_by'])}], df[{_q(b['and_by'])}])",
        "chi2, p, dof, expected = stats.chi2_contingency(table)",
        "v = (chi2 / (table.to_numpy().sum() * (min(table.shape) - 1))) ** 0.5",
        "print(table); print('chi-square', chi2, 'p', p, \"Cramér's V\", v)",
    ]


def _two_way(b: dict[str, Any]) -> list[str]:
    low = b.get("direction") == "low"
    cells = f"df.groupby([{_q(b['group_by'])}, {_q(b['and_by'])}])[{_q(b['measure'])}]"
    return [f"print({cells}.agg({_agg(b.get('statistic', 'mean'))}).sort_values(ascending={low}).head(10))"]


def _rates(b: dict[str, Any]) -> list[str]:
    """Each group's slope; of a longer period than a day, of each period's mean (stats.rates' ``period``)."""
    t, m, g = _q(b["time"]), _q(b["measure"]), _q(b["group_by"])
    period = b.get("period", "day")
    if period == "day":
        x = f"x = (df[{t}] - pd.Timestamp('1970-01-01')).dt.days if df[{t}].dtype.kind == 'M' else df[{t}]"
        means = []
    else:
        x = f"x = df[{t}].dt.to_period({PANDAS_PERIODS[period]!r}).map(lambda p: p.ordinal)  # one more each period"
        means = [f"both = both.groupby([{g}, '_x'])[{m}].mean().reset_index()  # each period's mean"]
    return [
        x,
        f"both = df.assign(_x=x).dropna(subset=['_x', {m}])",
        *means,
        f"groups = both.groupby({g})",
        f"slopes = {{key: stats.linregress(part['_x'], part[{m}]).slope for key, part in groups}}",
        "print(pd.Series(slopes).sort_values(ascending=False))",
    ]


def _regress(b: dict[str, Any]) -> list[str]:
    names = [b["outcome"], b["variable"], *(b.get("controls") or [])]
    fixed = set(b.get("fixed_effects") or [])  # a year held fixed: one intercept per year
    terms = " + ".join(f"C(Q({_q(c)}))" if c in fixed else f"Q({_q(c)})" for c in names[1:])
    return [
        f"data = df[{names!r}].dropna()",
        f"y = data[{_q(b['outcome'])}]",
        "if not pd.api.types.is_numeric_dtype(y):  # a yes/no outcome: logistic regression",
        "    yes = sorted(y.unique(), key=lambda v: (str(v).lower() != 'no', str(v)))[1]",
        "    data = data.assign(**{" + _q(b["outcome"]) + ": (y == yes).astype(float)})",
        f"    fit = smf.logit('Q({_q(b['outcome'])}) ~ {terms}', data).fit(disp=0)",
        "else:",
        f"    fit = smf.ols('Q({_q(b['outcome'])}) ~ {terms}', data).fit(cov_type='HC3')",
        "print(fit.params, fit.pvalues)",
    ]  # fmt: skip


def _period_keys(time: str, period: str) -> str:
    if period == "value":  # each date (or number) its own period
        return f"df[{time}]"
    code = PANDAS_PERIODS.get(period, "Y")
    return f"(df[{time}].dt.to_period({code!r}).astype(str) if df[{time}].dtype.kind == 'M' else df[{time}])"


def _trend(b: dict[str, Any]) -> list[str]:
    t = _q(b["time"])
    keys = _period_keys(t, b.get("period", "auto"))
    return [f"print(df.groupby({keys})[{_q(b['measure'])}].agg({_agg(b.get('statistic', 'mean'))}))"]


def _forecast(b: dict[str, Any]) -> list[str]:
    t = _q(b["time"])
    keys = f"(df[{t}].dt.year if df[{t}].dtype.kind == 'M' else df[{t}])"
    return [
        f"per = df.groupby({keys})[{_q(b['measure'])}].agg({_agg(b.get('statistic', 'mean'))}).dropna()",
        "slope, intercept = np.polyfit(per.index.astype(float), per.to_numpy(), 1)",
        f"print(per); print('forecast for {b['to']}:', slope * {float(b['to'])!r} + intercept)",
    ]


def _share(b: dict[str, Any]) -> list[str]:
    column = _q(b["column"])
    if b.get("weight"):
        amounts = f"df.groupby({column}, dropna=False)[{_q(b['weight'])}].sum().sort_values(ascending=False)"
    else:
        amounts = f"df[{column}].value_counts(dropna=False)"
    shares = "shares = amounts / amounts.sum() * 100"
    return [f"amounts = {amounts}", shares, "print(pd.DataFrame({'amount': amounts, 'percent': shares}))"]


def _numbers(named: list[str] | None, besides: str) -> str:
    """The number columns a call names, or every one but ``besides``."""
    if named:
        return f"df[{named!r}]"
    return f"df.select_dtypes('number').drop(columns=[{_q(besides)}], errors='ignore')"


def _associate(b: dict[str, Any]) -> list[str]:
    outcome = _q(b["outcome"])
    return [
        f"y = df[{outcome}]",
        "if not pd.api.types.is_numeric_dtype(y):  # a two-valued outcome as 0/1",
        "    y = (y == sorted(y.dropna().unique(), key=str)[-1]).astype(float).where(y.notna())",
        f"numbers = {_numbers(b.get('variables'), b['outcome'])}",
        "print(numbers.corrwith(y).sort_values(key=abs, ascending=False))",
    ]


def _growth(b: dict[str, Any]) -> list[str]:
    t = _q(b["time"])
    keys = _period_keys(t, b.get("period", "auto"))
    per = f"df.groupby([{_q(b['entity'])}, {keys}])[{_q(b['measure'])}].agg({_agg(b.get('statistic', 'mean'))})"
    return [
        f"per = {per}.unstack()",
        "per = per[per.notna().sum(axis=1) >= 2]  # an entity seen at one moment has no growth",
        f"first = per[{b['from']!r}]" if b.get("from") else "first = per.apply(lambda r: r.dropna().iloc[0], axis=1)",
        f"last = per[{b['to']!r}]" if b.get("to") else "last = per.apply(lambda r: r.dropna().iloc[-1], axis=1)",
        "print(((last - first) / first.abs() * 100).sort_values(ascending=False), (last - first))",
    ]


def _rank_differences(b: dict[str, Any]) -> list[str]:
    """Eta squared of each measure over the groups, and for two groups Cohen's d (as the answer gives)."""
    g = _q(b["group_by"])
    return [
        "def eta_squared(s):",
        f"    groups = s.groupby(df[{g}])",
        "    return (groups.count() * (groups.mean() - s.mean()) ** 2).sum() / ((s - s.mean()) ** 2).sum()",
        "def cohens_d(s):",
        f"    (_, a), (_, b) = list(s.dropna().groupby(df[{g}]))[:2]",
        "    pooled = ((len(a) - 1) * a.var() + (len(b) - 1) * b.var()) / (len(a) + len(b) - 2)",
        "    return abs(a.mean() - b.mean()) / pooled ** 0.5",
        f"numbers = {_numbers(b.get('measures'), b['group_by'])}",
        "print(numbers.apply(eta_squared).sort_values(ascending=False))",
        f"if df[{g}].nunique() == 2:",
        "    print(numbers.apply(cohens_d).sort_values(ascending=False))",
    ]


WRITERS = {
    "stats.compare": Writer(_compare),
    "stats.describe": Writer(_describe),
    "stats.significance": Writer(_significance, ("from scipy import stats",)),
    "stats.top": Writer(_top),
    "stats.outliers": Writer(_outliers),
    "stats.distribution": Writer(_distribution),
    "stats.missing": Writer(_missing),
    "stats.crosstab": Writer(_crosstab, ("from scipy import stats",)),
    "stats.two-way": Writer(_two_way),
    "stats.rates": Writer(_rates, ("from scipy import stats",)),
    "stats.regress": Writer(_regress, ("import statsmodels.formula.api as smf",)),
    "stats.trend": Writer(_trend),
    "stats.forecast": Writer(_forecast, ("import numpy as np",)),
    "stats.share": Writer(_share),
    "stats.associate": Writer(_associate),
    "stats.growth": Writer(_growth),
    "stats.rank-differences": Writer(_rank_differences),
}
