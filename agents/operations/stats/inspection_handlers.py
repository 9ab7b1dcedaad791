"""What the inspection operations do with a call: read the rows, look (``inspection``), draw the chart."""

from __future__ import annotations

from typing import Any

import pandas as pd

from agents.operations.stats import charts, inspection
from agents.operations.stats.frame import load_frame, require_number
from agents.sap import Call
from protocol.errors import ProtocolError


def _rows(call: Call, params: dict[str, Any], columns: list[str | None], measure: str | None) -> pd.DataFrame:
    named = [c for c in dict.fromkeys(columns) if c]
    frame = load_frame(call.context.session_id, params["table"], named, params.get("filters"))
    if measure:
        require_number(frame, params["table"], measure, "measure")
    return frame


def _distinct(params: dict[str, Any], measure: str, *others: str) -> None:
    for key in others:
        if params.get(key) == measure:
            raise ProtocolError("VALIDATION_FAILED", f"{key} must be another column than the measure",
                                details={"invalid": {key: measure}})  # fmt: skip


def top(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, label = params["measure"], params["label"]
    _distinct(params, measure, "label")
    frame = _rows(call, params, [label, measure], measure)
    found = inspection.top(
        frame, measure, label, n=params["n"], direction=params["direction"], statistic=params.get("statistic")
    )
    word = "highest" if params["direction"] == "high" else "lowest"
    said = f"{params['statistic']} {charts.label(measure)}" if params.get("statistic") else charts.label(measure)
    bars = [{"row": str(r["label"]), "value": r["value"]} for r in found["listed"]]
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
    _distinct(params, measure, "label", "within")
    frame = _rows(call, params, [measure, label, within], measure)
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
    frame = _rows(call, params, [measure], measure)
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
    frame = _rows(call, params, list(params.get("columns") or []), None)
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
