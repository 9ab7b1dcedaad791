"""The sections the analyst writes for each table: column profiles, descriptive statistics with their
outliers, group comparisons and trends over dates. Every number is a value a cited query returned,
rounded to two decimals, and each section carries its own confidence (from sample size, missing values
and outliers)."""

from __future__ import annotations

from typing import Any

from agents.analysis import outliers
from agents.analysis.condition_words import condition_words
from agents.analysis.prose import two_decimals
from agents.analysis.schema import NOT_MEASURES
from agents.behaviours.analysing import Analysis
from agents.behaviours.answering import confidence

MAX_GROUPS = 12
MAX_CHOSEN_GROUPS = 50  # a person may ask to compare by a column with more groups
MAX_TREND_POINTS = 36
MAX_SECTION_MEASURES = 12  # a group or trend table wider than this is unreadable; the findings name the rest


def table_report(analysis: Analysis, table: str) -> list[dict[str, Any]]:
    described = analysis.describe(table)
    rows = described["row_count"]
    only = analysis.settings["columns"].get(table)
    roles = {c["name"]: c["role"] for c in analysis.schema(table).columns}
    numeric = [
        c
        for c in described["columns"]
        if c["type"] == "number" and roles[c["name"]] not in NOT_MEASURES and (not only or c["name"] in only)
    ]
    chosen = analysis.settings["group_by"].get(table)
    groups = [
        c
        for c in described["columns"]
        if c["type"] in ("string", "boolean")
        and (
            c["name"] in chosen and (c["distinct_estimate"] or 0) <= MAX_CHOSEN_GROUPS
            if chosen
            else 2 <= (c["distinct_estimate"] or 0) <= MAX_GROUPS
        )
    ]
    sections = [_profile(analysis, table, described)]
    kept = list(analysis.settings["rows"].get(table, []))
    if numeric:
        statistics, kept = _statistics(analysis, table, rows, numeric, kept)
        sections.append(statistics)
    shown = numeric[:MAX_SECTION_MEASURES]
    for group in groups:
        if shown:
            sections.append(_comparison(analysis, table, group, shown, kept))
    for moment in (c for c in described["columns"] if c["type"] == "date"):
        if shown:
            sections.append(_trend(analysis, table, moment, shown, kept))
    return sections


def _trend(
    analysis: Analysis, table: str, moment: dict[str, Any], numeric: list[dict[str, Any]], kept: list[dict[str, Any]]
) -> dict[str, Any]:
    """Means by date, and the change from the first date to the last."""
    name = moment["name"]
    if (moment["distinct_estimate"] or 0) > MAX_TREND_POINTS:
        return _trend_by_period(analysis, table, name, numeric, kept)
    select = [name, {"fn": "count", "as": "n"}] + [
        {"fn": "avg", "column": c["name"], "as": f"mean_{c['name']}"} for c in numeric
    ]
    conditions = [{"column": name, "op": "is_null", "value": False}, *kept]
    request = {"table": table, "select": select, **_filters(conditions), "group_by": [name],
               "order_by": [{"column": name}]}  # fmt: skip
    answer = analysis.query(table, request, f"the mean of each number column on each {name}{_rows_words(kept)}")
    lines = ["| " + " | ".join(answer["columns"]) + " |", "|" + "---|" * len(answer["columns"])]
    lines += [
        "| " + " | ".join(str(v) if i < 2 else two_decimals(v) for i, v in enumerate(row)) + " |"
        for row in answer["rows"]
    ]
    for row in answer["rows"]:
        for index, c in enumerate(numeric, start=2):
            analysis.figure(
                f"{table}|trend|{name}|{row[0]}|{c['name']}",
                f"{table}, {name} {row[0]}: mean {c['name']}",
                row[index],
            )
    if len(answer["rows"]) >= 2:
        first, final = answer["rows"][0], answer["rows"][-1]
        for index, c in enumerate(numeric, start=2):
            if first[index] is not None and final[index] is not None:
                change = two_decimals(final[index] - first[index])
                went = f"{two_decimals(first[index])} on {first[0]} to {two_decimals(final[index])} on {final[0]}"
                lines.append(f"\nMean {c['name']} went from {went} ({change}).")
    points = len(answer["rows"])
    return {
        "id": f"{table}-trend-{name}",
        "title": f"Trend: {table} over {name}",
        "body": "\n".join(lines) + _rows_note(kept),
        "confidence": confidence(points * 5, 0, 0),
    }


def _profile(analysis: Analysis, table: str, described: dict[str, Any]) -> dict[str, Any]:
    rows = described["row_count"]
    lines = [
        f"Table `{table}`: {rows} rows.",
        "",
        "| column | type | missing | distinct | min | max |",
        "|---|---|---|---|---|---|",
    ]
    worst = 0.0
    for c in described["columns"]:
        share = c["null_count"] / rows if rows else 0
        worst = max(worst, share)
        cells = [c["name"], c["type"], c["null_count"], c["distinct_estimate"], c["min"], c["max"]]
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
        if share > 0.1:
            analysis.uncertainties.append(
                {
                    "aspect": f"{c['name']} in {table} is missing in {c['null_count']} of {rows} rows",
                    "reason": "statistics of that column rest on the rows that have it",
                    "suggestion": "say what a missing value means, or supply the values",
                }
            )
    analysis.evidence.cite(
        analysis.source(table),
        {"table": table},
        "each column's type, missing values, distinct values, minimum and maximum",
        operation="dataset.describe-table",
    )
    return {
        "id": f"{table}-profile",
        "title": f"Column profiles: {table}",
        "body": "\n".join(lines),
        "confidence": confidence(rows, worst, 0),
    }


def _described(
    analysis: Analysis, table: str, numeric: list[dict[str, Any]], conditions: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """stats.describe of the number columns over the rows kept, column by column; outliers within
    the groups the question compares, if it compares any."""
    within = analysis.compared.get(table)
    words = (
        f"the count, mean, {analysis.settings['sd']} SD, minimum, maximum and sum of each number column"
        + (f", outliers within each {within}" if within else "")
        + _rows_words(conditions)
    )
    request = {
        "table": table,
        "columns": [c["name"] for c in numeric],
        "sd": analysis.settings["sd"],
        **({"outliers_within": within} if within else {}),
        **_filters(conditions),
    }
    answer = analysis.query(table, request, words, "stats.describe")
    return {c["column"]: c for c in answer["columns"]} | {"": {"rows": answer["rows"]}}


def _statistics(
    analysis: Analysis, table: str, rows: int, numeric: list[dict[str, Any]], kept: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The statistics of the rows kept, and the rows kept after the outliers a person left out."""
    first = values = _described(analysis, table, numeric, kept)
    left_out = [
        c["name"]
        for c in numeric
        if first[c["name"]]["outliers"]["values"]
        and analysis.settings["outliers"].get(f"{table}.{c['name']}") == "exclude"
    ]
    final = kept + [outliers.kept_rows(name, first[name]["outliers"]) for name in left_out]
    if left_out:
        values = _described(analysis, table, numeric, final)
    kind = analysis.settings["sd"]
    lines = [
        f"| column | n | mean | SD ({kind}) | min | max | sum | outliers |",
        "|---|---|---|---|---|---|---|---|",
    ]
    worst_missing, outliers_total, undecided = 0.0, 0, []
    for c in numeric:
        name = c["name"]
        shown, far_values = values[name], first[name]["outliers"]
        worst_missing = max(worst_missing, 1 - shown["n"] / rows if rows else 0)
        outliers_total += len(far_values["values"])
        decision = analysis.settings["outliers"].get(f"{table}.{name}")
        if not far_values["checked"]:
            far = "not checked (fewer than 8 values)"
        elif not far_values["values"]:
            far = "none"
        else:
            verb = "left out" if decision == "exclude" else "kept"
            far = f"{len(far_values['values'])} {verb}: {outliers.listed(far_values['values'])}"
            if decision is None:
                undecided.append(name)
        figures = [two_decimals(shown[key]) for key in ("mean", "sd", "min", "max", "sum")]
        lines.append("| " + " | ".join([name, str(shown["n"]), *figures, far]) + " |")
        for key, label in (("n", "count of"), ("mean", "mean"), ("min", "minimum"), ("max", "maximum"),
                           ("sum", "sum"), ("sd", "SD of")):  # fmt: skip
            analysis.figure(f"{table}|stat|{name}|{key}", f"{table}: {label} {name}", shown[key])
    divisor = "n - 1" if kind == "sample" else "n"
    notes = [
        f"SD is the {kind} standard deviation (the square root of the mean squared distance from the mean, "
        f"dividing by {divisor}).",
        f"An outlier is {outliers.rule_words(analysis.compared.get(table))}.",
    ]
    notes += [outliers.left_out_words(name, first[name]["outliers"], values[""]["rows"]) for name in left_out]
    _ask_about_outliers(analysis, table, undecided, first)
    body = "\n".join(lines) + "\n\n" + " ".join(notes) + _rows_note(kept)
    kept_outliers = outliers_total - sum(len(first[n]["outliers"]["values"]) for n in left_out)
    section = {
        "id": f"{table}-statistics",
        "title": f"Descriptive statistics: {table}",
        "body": body,
        "confidence": confidence(rows, worst_missing, kept_outliers),
    }
    return section, final


def _ask_about_outliers(
    analysis: Analysis, table: str, undecided: list[str], described: dict[str, dict[str, Any]]
) -> None:
    """Note the table's undecided outliers that no earlier round asked about; ``ask_pending`` asks
    about all of them at once."""
    analysis.pending_outliers += [
        outliers.Pending(table, name, described[name]["outliers"], described[name]["mean"])
        for name in undecided
        if f"{table}.{name}" not in analysis.asked_before
    ]


def _comparison(
    analysis: Analysis, table: str, group: dict[str, Any], numeric: list[dict[str, Any]], kept: list[dict[str, Any]]
) -> dict[str, Any]:
    name = group["name"]
    select = [name, {"fn": "count", "as": "n"}] + [
        {"fn": "avg", "column": c["name"], "as": f"mean_{c['name']}"} for c in numeric
    ]
    request = {"table": table, "select": select, **_filters(kept), "group_by": [name],
               "order_by": [{"column": name}]}  # fmt: skip
    words = f"the count and the mean of each number column for each {name}{_rows_words(kept)}"
    answer = analysis.query(table, request, words)
    header = "| " + " | ".join(answer["columns"]) + " |"
    lines = [header, "|" + "---|" * len(answer["columns"])]
    lines += [
        "| " + " | ".join(str(v) if i < 2 else two_decimals(v) for i, v in enumerate(row)) + " |"
        for row in answer["rows"]
    ]
    for row in answer["rows"]:
        analysis.figure(f"{table}|group|{name}|{row[0]}|n", f"{table}, {name} {row[0]}: rows", row[1])
        for index, c in enumerate(numeric, start=2):
            analysis.figure(
                f"{table}|group|{name}|{row[0]}|{c['name']}",
                f"{table}, {name} {row[0]}: mean {c['name']}",
                row[index],
            )
    smallest = min((row[1] for row in answer["rows"]), default=0)
    if smallest < 5:
        analysis.uncertainties.append(
            {
                "aspect": f"some {name} groups of {table} have fewer than 5 rows",
                "reason": "their means move a lot with one row",
                "suggestion": "compare them only with more data",
            }
        )
    return {
        "id": f"{table}-by-{name}",
        "title": f"Group comparison: {table} by {name}",
        "body": "\n".join(lines) + _rows_note(kept),
        "confidence": confidence(smallest * len(answer["rows"]), 0, 0),
    }


def _trend_by_period(
    analysis: Analysis, table: str, name: str, numeric: list[dict[str, Any]], kept: list[dict[str, Any]]
) -> dict[str, Any]:
    """Too many dates to list one by one: the mean per month, quarter or year (the period that gives a
    readable number of points), as ``stats.trend`` chooses it for a question about the trend."""
    trends = []
    for c in numeric:
        request = {"table": table, "time": name, "measure": c["name"], "period": "auto", **_filters(kept)}
        trends.append(analysis.query(table, request, f"the mean {c['name']} per period of {name}", "stats.trend"))
    period = trends[0]["period"]
    labels = list(dict.fromkeys(p["period"] for t in trends for p in t["points"]))
    values = [{p["period"]: p["value"] for p in t["points"]} for t in trends]
    header = [period, *(f"mean_{c['name']}" for c in numeric)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join([label, *(two_decimals(v.get(label)) for v in values)]) + " |" for label in labels]
    for c, trend in zip(numeric, trends, strict=True):
        if trend.get("change") is not None:
            first, last = trend["points"][0], trend["points"][-1]
            went = " to ".join(f"{two_decimals(end['value'])} in {end['period']}" for end in (first, last))
            lines.append(f"\nMean {c['name']} per {period} went from {went} ({two_decimals(trend['change'])}).")
    return {
        "id": f"{table}-trend-{name}",
        "title": f"Trend: {table} over {name}, per {period}",
        "body": "\n".join(lines) + _rows_note(kept),
        "confidence": confidence(len(labels) * 5, 0, 0),
    }


def _filters(conditions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"filters": {"and": conditions}} if conditions else {}


def _person_filters(conditions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The filters a person asked for (the outlier ranges the analyst adds are said separately)."""
    return [c for c in conditions if "outliers_of" not in c]


def _rows_words(conditions: list[dict[str, Any]]) -> str:
    stated = _person_filters(conditions)
    left_out = len(conditions) - len(stated)
    words = [condition_words(c) for c in stated]
    if left_out:
        words.append("outliers left out")
    return f", over the rows where {' and '.join(words)}" if words else ""


def _rows_note(conditions: list[dict[str, Any]]) -> str:
    stated = _person_filters(conditions)
    return f"\n\nOnly the rows where {' and '.join(condition_words(c) for c in stated)}." if stated else ""
