"""What the modelling operations do with a call: read the rows, fit (``modelling``), draw the chart."""

from __future__ import annotations

from typing import Any

from agents.operations.stats import charts, modelling
from agents.operations.stats.frame import read_as_cycle, role_frame
from agents.operations.stats.timeline import grouping
from agents.sap import Call
from protocol.errors import ProtocolError


def _refused(error: ValueError, invalid: dict[str, Any]) -> ProtocolError:
    return ProtocolError("VALIDATION_FAILED", str(error), details={"invalid": invalid})


def forecast(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    time, measure = params["time"], params["measure"]
    frame = role_frame(call.context.session_id, params, {"time": time, "measure": measure}, ("measure",))
    try:
        result = modelling.forecast(frame, time, measure, to=params["to"], period=params["period"],
                                    statistic=params["statistic"])  # fmt: skip
    except ValueError as error:
        raise _refused(error, {"to": params["to"]}) from None
    points = [{"period": str(p["period"]), "value": p["value"]} for p in result["points"]]
    ahead = result.get("forecast")
    if ahead:
        points.append({"period": str(params["to"]), "value": ahead["value"]})
    chart = charts.line_chart(
        points,
        period=result["period"] if result["period"] != "value" else time,
        measure=f"{params['statistic']} {charts.label(measure)}",
        title=f"{charts.label(measure)} per {result['period']}, and the straight line's value in {params['to']}",
        description=f"Line chart of {charts.label(measure)} over {len(result['points'])} periods, ending at the "
        f"forecast for {params['to']}" + (f": {ahead['value']:.4g}" if ahead else " (none)"),
    )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def rates(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    time, measure, group = params["time"], params["measure"], params["group_by"]
    roles = {"time": time, "measure": measure, "group_by": group}
    frame = role_frame(call.context.session_id, params, roles, ("measure",))
    group = grouping(params, group)
    try:
        result = modelling.rates(frame, time, measure, group, params["period"])
    except ValueError as error:
        raise _refused(error, {"group_by": group}) from None
    bars = [{"group": str(g["group"]), "slope": g["slope"]} for g in result["groups"] if g["slope"] is not None]
    chart = charts.bar_chart(
        bars,
        category="group",
        amount="slope",
        title=f"Change in {charts.label(measure)} per {charts.label(result['per'])}, by {charts.label(group)}",
        description=f"Bar chart of each {charts.label(group)}'s least-squares slope, steepest first: "
        + ", ".join(f"{b['group']} {b['slope']:.4g}" for b in bars[:12]),
        amount_title=f"{charts.label(measure)} per {charts.label(result['per'])}",
    )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def regress(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    outcome, variable, controls = params["outcome"], params["variable"], list(params.get("controls") or [])
    fixed = list(params.get("fixed_effects") or [])
    if not set(fixed) <= set(controls):
        raise ProtocolError(
            "VALIDATION_FAILED",
            "fixed_effects names columns that are not among controls",
            details={"invalid": {"fixed_effects": sorted(set(fixed) - set(controls))}, "controls": controls},
            suggestion=["Add each fixed-effects column to controls too, or leave it out of fixed_effects."],
        )
    roles = {"outcome": outcome, "variable": variable, **{f"controls[{i}]": c for i, c in enumerate(controls)}}
    frame = role_frame(call.context.session_id, params, roles, ("variable",), cycled=())
    if params.get("cycle"):  # "taking the season into account": each date control read as its season
        read = {c: read_as_cycle(frame, params, c, "controls") for c in controls if frame.attrs["types"][c] == "date"}
        controls, fixed = [read.get(c, c) for c in controls], [read.get(c, c) for c in fixed]
    numeric = {name for name, kind in frame.attrs["types"].items() if kind == "number"} - set(fixed)
    try:
        result = modelling.regress(frame, outcome, variable, controls, numeric)
    except ValueError as error:
        raise _refused(error, {"outcome": outcome}) from None
    within = _within_groups(frame, result, numeric)
    if within is not None:
        chart = within
    elif outcome in numeric:
        chart = charts.scatter_with_fit(
            frame,
            variable,
            outcome,
            title=f"{charts.label(outcome)} against {charts.label(variable)} (the pooled fit, before adjusting)",
            description=f"Scatter plot of {charts.label(outcome)} against {charts.label(variable)} with the "
            "unadjusted least-squares line.",
        )
    else:
        chart = charts.box_plot(
            frame,
            variable,
            outcome,
            title=f"{charts.label(variable)} in each {charts.label(outcome)} group",
            description=f"Box plots of {charts.label(variable)} for each value of {charts.label(outcome)}.",
        )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def _within_groups(frame: Any, result: dict[str, Any], numeric: set[str]) -> dict[str, Any] | None:
    """The chart of a number against a number within the groups of one category control (None otherwise):
    the answer is the within-group slope, so the chart draws it beside the pooled one."""
    outcome, variable, controls, fit = result["outcome"], result["variable"], result["controls"], result["adjusted"]
    if outcome not in numeric or len(controls) != 1 or controls[0] in numeric or fit is None:
        return None
    group = controls[0]
    return charts.scatter_within_groups(
        frame,
        variable,
        outcome,
        group,
        fit["coefficient"],
        title=f"{charts.label(outcome)} against {charts.label(variable)} within each {charts.label(group)} "
        "(dashed: pooled)",
        description=f"Scatter plot of {charts.label(outcome)} against {charts.label(variable)}, coloured by "
        f"{charts.label(group)}, each {charts.label(group)}'s line at the adjusted slope "
        f"({fit['coefficient']:.4g}) and the pooled least-squares line dashed.",
    )
