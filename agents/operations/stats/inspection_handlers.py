"""What the inspection operations do with a call: read the rows, look (``inspection``), draw the chart."""

from __future__ import annotations

from typing import Any

from agents.operations.stats import charts, inspection
from agents.operations.stats.frame import role_frame
from agents.sap import Call

ROWS_BESIDE_ONE = 10  # the rows a one-row answer's chart shows it among


def top(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, label = params["measure"], params["label"]
    frame = role_frame(call.context.session_id, params, {"measure": measure, "label": label}, ("measure",))
    found = inspection.top(
        frame, measure, label, n=params["n"], direction=params["direction"], statistic=params.get("statistic")
    )
    word = "highest" if params["direction"] == "high" else "lowest"
    said = f"{params['statistic']} {charts.label(measure)}" if params.get("statistic") else charts.label(measure)
    drawn = found["listed"]
    if params["n"] == 1:  # one bar says nothing: the row asked for, highlighted, among the next ones
        beside = {"n": ROWS_BESIDE_ONE, "direction": params["direction"], "statistic": params.get("statistic")}
        drawn = inspection.top(frame, measure, label, **beside)["listed"]
    bars = [{"row": str(r["label"]), "value": r["value"]} for r in drawn]
    chart = charts.bar_chart(
        bars,
        category="row",
        amount="value",
        title=f"The {len(bars)} {word} by {said}",
        description=f"Bar chart of the {len(bars)} {charts.label(label)} with the {word} {said}: "
        + ", ".join(f"{b['row']} {b['value']:.4g}" for b in bars[:12]),
        amount_title=said,
    )
    return {"table": params["table"], "rows": len(frame), **found, "chart": chart}


def outliers(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, label, within = params["measure"], params.get("label"), params.get("within")
    roles = {"measure": measure, "label": label, "within": within}
    frame = role_frame(call.context.session_id, params, roles, ("measure",))
    found = inspection.outliers(frame, measure, label, within=within)
    said = charts.label(measure)
    if within:
        chart = charts.box_plot(
            frame,
            measure,
            within,
            title=f"{said} in each {charts.label(within)}: {found['count']} outliers",
            description=f"Box plots of {said} per {charts.label(within)}, whiskers to 1.5 IQR; "
            f"{found['count']} values lie beyond them.",
        )
    else:
        fence = found["fences"][0] if found["fences"] else {}
        chart = charts.histogram(
            frame,
            measure,
            marks={"lower fence": fence.get("low"), "upper fence": fence.get("high")},
            title=f"Distribution of {said}: {found['count']} outliers beyond the fences",
            description=f"Histogram of {said} with Tukey's fences at {fence.get('low')} and {fence.get('high')}.",
        )
    return {"table": params["table"], "rows": len(frame), **found, "chart": chart}


def distribution(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure = params["measure"]
    frame = role_frame(call.context.session_id, params, {"measure": measure}, ("measure",))
    found = inspection.distribution(frame[measure])
    said = charts.label(measure)
    percentiles = found.get("percentiles") or {}
    chart = charts.histogram(
        frame,
        measure,
        marks={"median": percentiles.get("p50"), "mean": found.get("mean")},
        title=f"Distribution of {said} ({found['n']} values{', ' + found['shape'] if found['shape'] else ''})",
        description=f"Histogram of {said} with lines at its median and mean; skewness {found.get('skewness')}.",
    )
    return {"table": params["table"], "rows": len(frame), "measure": measure, **found, "chart": chart}


def missing(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    named = params.get("columns") or []
    frame = role_frame(call.context.session_id, params, {f"columns[{i}]": c for i, c in enumerate(named)})
    found = inspection.missing(frame)
    bars = [{"column": c["column"], "missing": c["missing"]} for c in found["columns"] if c["missing"]]
    chart = charts.bar_chart(
        bars,
        category="column",
        amount="missing",
        title=f"Missing values per column ({found['missing_cells']} of {found['rows']} rows' cells)",
        description="Bar chart of the missing values in each column, most first: "
        + (", ".join(f"{b['column']} {b['missing']}" for b in bars[:12]) or "none"),
        amount_title="missing values",
    )
    return {"table": params["table"], **found, "chart": chart}
