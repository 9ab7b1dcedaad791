"""The answer rules the analyst's question sets share (bench/eval/questions, holdout, holdout2-4).

Each set's make.py builds its own datasets and writes its own questions; how an expected ``answer`` and
its ``figure`` follow from the data lives here once, so that the sets are scored alike. A change here
moves the answers of all of them: run every make.py (holdout3's and holdout4's in the venvs their docstrings name) and
look at ``git diff bench/eval`` after one.

Every answer is computed with pandas/scipy from the CSV as written and read back from disk, as the
analyst will read it, never by hand:

- compare: the group with the highest (lowest) statistic of a measure; figure = that group's statistic;
- rank_differences: the measure that differs most between the groups; figure = |Cohen's d| for two
  groups (pooled SD from the n-1 weighted sample variances), eta squared for three or more;
- association: the column with the largest |Pearson r| with an outcome (a two-valued text outcome
  coded 0/1 in sorted order: the point-biserial r), figure = that r; or the direction and r of a pair;
- trend: "rose" or "fell" (first vs last period, checked to agree with the least-squares slope);
  figure = the last period's statistic (mean per period unless a total is asked);
- share: the most common category; figure = its percentage of the rows (or of a measure's total);
- growth: the entity whose measure changed most (rose most, or fell most when asked) from its first to
  its last period, in percent;
- statistic: a statistic other than the mean, of a column (answer = the column) or per group (answer =
  the group);
- filter: a statistic on the rows a condition keeps; answer = the measure's column.

The rules check that an answer is clear-cut. ``strict=True`` (the holdout sets) adds the checks written
after the first set: no "which" answer within 1.5% of its runner-up, no direction of a pair with |r| under
0.1, shares only of columns without missing values, growth only where every entity has its first and
last period, no negated filter over missing values, a filter's figure far from the turned-round one and
from every group's (text groups and 0/1-style codes). The first set keeps its looser checks
(``strict=False``): they pass or fail questions, never change an answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

Answer = tuple[str, float, dict]  # the answer, its figure, notes (runner-up, rows used, ...)
Rule = Callable[[pd.DataFrame], Answer]
Question = tuple[str, str, str, str, Rule]  # id, dataset, kind, question, rule
Ambiguous = tuple[str, str, str, list[tuple[str, str, Rule]]]  # id, dataset, question, [(reading, kind, rule)]

KINDS = {"compare", "rank_differences", "association", "trend", "share", "growth", "statistic", "filter"}
PERCENT_KINDS = {"share", "growth"}
MARGIN = 0.015  # strict: a "which" answer's figure is at least 1.5% from the runner-up's: no near ties

STATISTICS: dict[str, Callable[[pd.Series], float]] = {
    "mean": lambda s: s.mean(),
    "median": lambda s: s.median(),
    "sum": lambda s: s.sum(),
    "count": lambda s: float(s.count()),
    "min": lambda s: s.min(),
    "max": lambda s: s.max(),
    "sd": lambda s: s.std(ddof=1),  # the sample standard deviation
    "p10": lambda s: s.quantile(0.10),  # percentiles by linear interpolation (SQL percentile_cont)
    "p25": lambda s: s.quantile(0.25),
    "p75": lambda s: s.quantile(0.75),
    "p90": lambda s: s.quantile(0.90),
}


# ---------------------------------------------------------------------------------------------------
# Writing and reading the datasets


def statsmodels_data(name: str) -> pd.DataFrame:
    """A dataset statsmodels ships, as its loader gives it (its deprecation warnings kept quiet)."""
    import warnings

    import statsmodels.api as sm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sm.datasets, name).load_pandas().data


def write_datasets(frames: dict[str, pd.DataFrame], directory: Path, max_bytes: int = 200_000) -> list[str]:
    """Each frame as ``<directory>/<name>.csv``, small enough to ship; the names in order."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        path = directory / f"{name}.csv"
        frame.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
        assert path.stat().st_size < max_bytes, f"{path} is {path.stat().st_size} bytes"
    return list(frames)


def imported_names(header: list[str]) -> list[str]:
    """The column names the workbench's importer makes of a CSV header (agents/operations/datasets/
    csv_io.py): characters outside [A-Za-z0-9_] become ``_``, a leading digit gets ``c_``, repeats ``_``."""
    names: list[str] = []
    for index, title in enumerate(header):
        clean = re.sub(r"[^A-Za-z0-9_]", "_", title.strip()) or f"column_{index + 1}"
        clean = f"c_{clean}" if clean[0].isdigit() else clean
        while clean in names:
            clean += "_"
        names.append(clean)
    return names


def read_back(directory: Path, name: str, *, as_imported: bool = True) -> pd.DataFrame:
    """A dataset as the analyst reads it: from disk, with the importer's column names (``as_imported``)."""
    frame = pd.read_csv(directory / f"{name}.csv")
    if as_imported:
        frame.columns = imported_names(list(frame.columns))
    return frame


# ---------------------------------------------------------------------------------------------------
# The rules: each returns a Rule, a function of the dataset that gives (answer, figure, notes)


def _numeric(frame: pd.DataFrame, but: tuple[str, ...] = ()) -> list[str]:
    return [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and c not in but]


def _ranked(values: dict, *, high: bool = True, key=None, strict: bool = True) -> list[tuple]:
    """The values best first; strict: the first two far enough apart that the answer is no near tie."""
    ranked = sorted(values.items(), key=lambda item: (key or (lambda v: v))(item[1]), reverse=high)
    if strict and len(ranked) > 1:
        first, second = (abs(float(v)) if key else float(v) for _, v in ranked[:2])
        assert abs(first - second) > MARGIN * abs(first), f"near tie: {ranked[:2]}"
    return ranked


def _runner_up(ranked: list[tuple]) -> dict:
    if len(ranked) < 2:
        return {}
    return {"runner_up": str(ranked[1][0]), "runner_up_figure": round(float(ranked[1][1]), 6)}


def _label(value) -> str:
    """A group's name as the answer: numeric codes as whole numbers ("4", never "4.0")."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def compare(
    group: str, measure: str, *, stat: str = "mean", high: bool = True, where: str = "", strict: bool = True
) -> Rule:
    def rule(frame: pd.DataFrame) -> Answer:
        rows = frame.query(where) if where else frame
        per_group = rows.groupby(group)[measure].agg(STATISTICS[stat]).dropna().to_dict()
        ranked = _ranked(per_group, high=high, strict=strict)
        notes = {"statistic": stat, "groups": {_label(k): round(float(v), 6) for k, v in per_group.items()}}
        notes |= _runner_up(ranked) | ({"rows": where} if where else {})
        return _label(ranked[0][0]), float(ranked[0][1]), notes

    return rule


def cohens_d(a: pd.Series, b: pd.Series) -> float:
    """|Cohen's d| with the pooled SD of the two samples' n-1 variances (missing values left out)."""
    a, b = a.dropna(), b.dropna()
    pooled = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1)) / (len(a) + len(b) - 2))
    return float(abs(a.mean() - b.mean()) / pooled)


def eta_squared(values: pd.Series, groups: pd.Series) -> float:
    """The share of the variance between the groups: Cohen's d has no single value for three or more."""
    kept = values.notna() & groups.notna()
    values, groups = values[kept], groups[kept]
    total = ((values - values.mean()) ** 2).sum()
    between = sum(len(v) * (v.mean() - values.mean()) ** 2 for _, v in values.groupby(groups))
    return float(between / total)


def rank_differences(group: str, *, only: tuple = (), strict: bool = True) -> Rule:
    """The measure that differs most between the groups (of ``only``, when given)."""

    def rule(frame: pd.DataFrame) -> Answer:
        rows = frame[frame[group].isin(only)] if only else frame
        present = rows[group].dropna().unique()
        measures = _numeric(rows, but=(group,))
        if len(present) == 2:
            a, b = (rows[rows[group] == value] for value in present)
            effect = {m: cohens_d(a[m], b[m]) for m in measures}
            how = f"|Cohen's d| between {_label(present[0])} and {_label(present[1])}"
        else:
            effect = {m: eta_squared(rows[m], rows[group]) for m in measures}
            how = f"eta squared over the {len(present)} groups of {group}"
        ranked = _ranked(effect, strict=strict)
        top = {k: round(v, 4) for k, v in ranked[:5]}
        return ranked[0][0], ranked[0][1], {"effect": how, "top_5": top} | _runner_up(ranked)

    return rule


def _coded(series: pd.Series) -> tuple[pd.Series, str]:
    """A two-valued text column as 0/1 (the point-biserial r), a numeric column as it is."""
    if pd.api.types.is_numeric_dtype(series):
        return series, ""
    values = sorted(series.dropna().unique())
    assert len(values) == 2, values
    return (series == values[1]).astype(float).where(series.notna()), f"{values[0]} = 0, {values[1]} = 1"


def pearson(x: pd.Series, y: pd.Series) -> float:
    """Pearson's r over the rows where both have a value."""
    kept = x.notna() & y.notna()
    return float(sps.pearsonr(x[kept], y[kept]).statistic)


def most_associated(outcome: str, *, among: tuple[str, ...] = (), strict: bool = True) -> Rule:
    def rule(frame: pd.DataFrame) -> Answer:
        coded, coding = _coded(frame[outcome])
        candidates = list(among) or _numeric(frame, but=(outcome,))
        r = {c: pearson(frame[c], coded) for c in candidates}
        ranked = _ranked(r, key=abs, strict=strict)
        notes = {"top_5_r": {k: round(v, 4) for k, v in ranked[:5]}} | _runner_up(ranked)
        notes |= {"among": list(among)} if among else {}
        return ranked[0][0], ranked[0][1], notes | ({"outcome_coded": coding} if coding else {})

    return rule


def direction(x: str, y: str, *, strict: bool = True) -> Rule:
    def rule(frame: pd.DataFrame) -> Answer:
        coded, coding = _coded(frame[y])
        r = pearson(frame[x], coded)
        assert not strict or abs(r) > 0.1, f"{x} and {y}: r = {r} is too weak to have a direction worth asking"
        notes = {"pair": [x, y]} | ({"outcome_coded": coding} if coding else {})
        return ("positive" if r > 0 else "negative"), r, notes

    return rule


def _periods(frame: pd.DataFrame, time: str, per: str) -> pd.Series:
    """The period of each row: the year or month of an ISO date column, or a year column as it is."""
    if pd.api.types.is_numeric_dtype(frame[time]):
        return frame[time]
    return frame[time].str[:7] if per == "month" else frame[time].str[:4].astype(int)


def trend(time: str, measure: str, *, per: str = "year", stat: str = "mean") -> Rule:
    def rule(frame: pd.DataFrame) -> Answer:
        series = frame.groupby(_periods(frame, time, per))[measure].agg(STATISTICS[stat]).sort_index()
        slope = np.polyfit(np.arange(len(series)), series.to_numpy(dtype=float), 1)[0]
        rose = series.iloc[-1] > series.iloc[0]
        assert rose == (slope > 0), f"{measure}: first-to-last and the slope disagree"
        notes = {
            "periods": f"{per} ({stat} per {per})",
            "first": [str(series.index[0]), round(float(series.iloc[0]), 6)],
            "last": [str(series.index[-1]), round(float(series.iloc[-1]), 6)],
            "slope_per_period": round(float(slope), 6),
        }
        return ("rose" if rose else "fell"), float(series.iloc[-1]), notes

    return rule


def share(category: str, *, of: str = "", strict: bool = True) -> Rule:
    def rule(frame: pd.DataFrame) -> Answer:
        assert not strict or frame[category].notna().all(), f"{category} has missing values: a share of what?"
        if of:
            parts = frame.groupby(category)[of].sum() / frame[of].sum() * 100
        else:
            parts = frame[category].value_counts() / len(frame) * 100
        ranked = _ranked(parts.to_dict(), strict=strict)
        notes = {"shares": {_label(k): round(float(v), 4) for k, v in ranked}, "of": f"total {of}" if of else "rows"}
        return _label(ranked[0][0]), float(ranked[0][1]), notes | _runner_up(ranked)

    return rule


def growth(entity: str, time: str, measure: str, *, high: bool = True, strict: bool = True) -> Rule:
    """The entity whose measure rose most (fell most: ``high=False``) from its first to its last period."""

    def rule(frame: pd.DataFrame) -> Answer:
        change = {}
        for name, rows in frame.dropna(subset=[measure]).sort_values(time).groupby(entity):
            spans = rows[time].iloc[0] == frame[time].min() and rows[time].iloc[-1] == frame[time].max()
            assert not strict or spans, name
            first, last = rows[measure].iloc[0], rows[measure].iloc[-1]
            change[_label(name)] = float((last - first) / abs(first) * 100)
        ranked = _ranked(change, high=high, strict=strict)
        return ranked[0][0], ranked[0][1], {"percent_change": {k: round(v, 4) for k, v in ranked}} | _runner_up(ranked)

    return rule


def per_period(rule: Rule, keys: list[str], measures: dict[str, str], period=None) -> Rule:
    """``rule`` over the table aggregated to one row per ``keys`` (``measures``: column -> statistic);
    ``period`` (column, "year"|"month") first makes that column the period of each row."""

    def aggregated(frame: pd.DataFrame) -> Answer:
        if period:
            column, per = period
            frame = frame.assign(**{column: _periods(frame, column, per)})
        rows = frame.groupby(keys).agg({m: STATISTICS[s] for m, s in measures.items()}).reset_index()
        return rule(rows)

    return aggregated


def within(where: str, rule: Rule) -> Rule:
    """``rule`` on the rows the pandas query ``where`` keeps."""
    return lambda frame: rule(frame.query(where))


def over(transform, rule: Rule) -> Rule:
    """``rule`` on the table ``transform`` makes of it (reshaped, one row per episode, ...)."""
    return lambda frame: rule(transform(frame))


def statistic(
    measure: str,
    stat: str,
    *,
    group: str = "",
    high: bool = True,
    where: str = "",
    close_to: str = "",
    strict: bool = True,
) -> Rule:
    """``close_to``: a statistic the question's word could also mean ("typical": mean or median), which
    must then be within 1% of the one asked, so that either reading is right."""
    if group:
        return compare(group, measure, stat=stat, high=high, where=where, strict=strict)

    def rule(frame: pd.DataFrame) -> Answer:
        rows = frame.query(where) if where else frame
        figure = float(STATISTICS[stat](rows[measure]))
        notes = {"statistic": stat, "n_rows": len(rows)} | ({"rows": where} if where else {})
        if close_to:
            other = float(STATISTICS[close_to](rows[measure]))
            assert abs(other - figure) <= 0.01 * abs(figure), f"{measure}: {stat} {figure}, {close_to} {other}"
            notes[close_to] = round(other, 6)
        return measure, figure, notes

    return rule


def _decoy_groups(frame: pd.DataFrame, *, strict: bool) -> list[str]:
    """Columns a lead comparing groups could use. Strict: text with a handful of values, or a few numeric
    codes; otherwise every text column."""
    if not strict:
        return list(frame.columns[frame.dtypes.map(lambda t: not pd.api.types.is_numeric_dtype(t))])
    return [
        c
        for c in frame.columns
        if frame[c].nunique() <= 30 and (not pd.api.types.is_numeric_dtype(frame[c]) or frame[c].nunique() <= 4)
    ]


def subset(measure: str, where: str, *, stat: str = "mean", strict: bool = True) -> Rule:
    """A statistic on the rows ``where`` (a pandas query) keeps; the notes say what the rest give."""

    def rule(frame: pd.DataFrame) -> Answer:
        if strict and ("!=" in where or " not in " in where):  # SQL's <> drops a NULL row that pandas' != keeps
            named = [c for c in frame.columns if re.search(rf"\b{c}\b", where)]
            assert all(frame[c].notna().all() for c in named), f"{where}: a negation over missing values"
        kept = frame.query(where)
        rest = frame.drop(kept.index)
        figure = float(STATISTICS[stat](kept[measure]))
        inverted = float(STATISTICS[stat](rest[measure]))
        everything = float(STATISTICS[stat](frame[measure]))
        # ignoring the condition, or (strict) turning it round, must not pass for the answer, nor must a
        # group's figure (a lead that compares the groups instead) unless the condition keeps that group
        assert abs(figure - everything) > 0.03 * abs(everything), f"{where}: {figure} is close to {everything}"
        far = abs(figure - inverted) > 0.03 * abs(figure)
        assert not strict or far, f"{where}: {figure} is close to the rest's {inverted}"
        for column in _decoy_groups(frame, strict=strict):
            for value, rows in frame.groupby(column):
                decoy = float(STATISTICS[stat](rows[measure]))
                same_rows = rows.index.equals(kept.index)
                assert same_rows or abs(figure - decoy) > 0.015 * abs(figure), f"{where}: {column} {value} {decoy}"
        notes = {
            "statistic": stat,
            "rows": where,
            "n_rows": len(kept),
            "figure_on_the_other_rows": round(inverted, 6),
            "figure_on_all_rows": round(everything, 6),
        }
        return measure, figure, notes

    return rule


def unambiguous_bounds(frame: pd.DataFrame, column: str, *values: float) -> None:
    """A strict threshold ("over 80", "fewer than 20") on a value no row has: < and <= keep the same rows."""
    for value in values:
        assert not (frame[column] == value).any(), f"{column} has rows at {value}"


# ---------------------------------------------------------------------------------------------------
# The set: every question's expected answer, the promises every set keeps, questions.json


def expected_answers(questions: list[Question], frames: dict[str, pd.DataFrame]) -> list[dict]:
    """Each question's entry in questions.json; a failed check names the question it failed on."""
    entries = []
    for qid, dataset, kind, question, rule in questions:
        try:
            answer, figure, notes = rule(frames[dataset])
        except AssertionError as exc:
            raise AssertionError(f"{qid}: {exc}") from None
        entries.append(
            {
                "id": qid,
                "dataset": dataset,
                "kind": kind,
                "question": question,
                "answer": answer,
                "figure": round(float(figure), 6),
                "figure_is_percent": kind in PERCENT_KINDS,
                "note": notes,
            }
        )
    return entries


def check_kinds(entries: list[dict], *, per_kind: int, at_least: int) -> None:
    """Ids unique, every kind asked at least ``per_kind`` times, at least ``at_least`` questions."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)), "duplicate ids"
    kinds = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(kinds.index) == KINDS and kinds.min() >= per_kind, kinds
    assert len(entries) >= at_least, len(entries)


def check_answer_columns(entries: list[dict], frames: dict[str, pd.DataFrame]) -> None:
    """An answer that names a column (rank_differences, filter, the top of an association) names one the
    dataset has, as the importer names it."""
    for entry in entries:
        if entry["kind"] in ("rank_differences", "filter") or (
            entry["kind"] == "association" and entry["answer"] not in ("positive", "negative")
        ):
            assert entry["answer"] in frames[entry["dataset"]].columns, entry["id"]


def write_questions(directory: Path, entries: list[dict], names: list[str]) -> None:
    """``questions.json`` (one space of indent, as the sets have always been written) and a one-line count."""
    (directory / "questions.json").write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n")
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    print(f"{len(entries)} questions over {len(names)} datasets: {counts.to_dict()}")


def write_ambiguous(directory: Path, ambiguous: list[Ambiguous], frames: dict[str, pd.DataFrame]) -> None:
    """``ambiguous.json``: each question with its readings' answers, computed as the set's answers are;
    the readings of a question must not give the same answer and figure."""
    entries = []
    for qid, dataset, question, readings in ambiguous:
        computed = []
        for reading, kind, rule in readings:
            answer, figure, _notes = rule(frames[dataset])
            computed.append(
                {
                    "reading": reading,
                    "kind": kind,
                    "answer": answer,
                    "figure": round(float(figure), 6),
                    "figure_is_percent": kind in PERCENT_KINDS,
                }
            )
        outcomes = {(r["answer"], r["figure"]) for r in computed}
        assert len(outcomes) == len(computed) >= 2, qid
        entries.append({"id": qid, "dataset": dataset, "question": question, "readings": computed})
    assert len(entries) >= 10 and len({e["id"] for e in entries}) == len(entries)
    (directory / "ambiguous.json").write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(entries)} ambiguous questions with {sum(len(e['readings']) for e in entries)} readings")
