"""What the inference operations do with a call: read the rows, test (``significance``), draw the chart.

Kept apart from ``handlers`` (the descriptive answers): these say whether what the rows show is more
than chance, and each answer says which test it chose and why.
"""

from __future__ import annotations

from typing import Any

from agents.operations.stats import charts, crossed
from agents.operations.stats.frame import read_as_above, require_number, role_frame
from agents.operations.stats.significance import paired
from agents.operations.stats.significance import significance as tested
from agents.operations.stats.timeline import grouping
from agents.sap import Call
from protocol.errors import ProtocolError


def significance(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, group, versus = params["measure"], params.get("group_by"), params.get("versus")
    if versus is not None and group is None:
        return _paired_columns(call, params, measure, versus)
    if group is None or versus is not None:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "name either group_by (the groups to compare) or versus (a second measure of the same rows)",
            details={"invalid": {"group_by": group, "versus": versus}},
        )
    pair_by = params.get("pair_by")
    frame = role_frame(call.context.session_id, params, {"measure": measure, "group_by": group, "pair_by": pair_by})
    group = grouping(params, group)
    if params.get("group_above") is not None:  # "quarters where production fell and the others"
        require_number(frame.attrs["types"], params["table"], group, "group_by")
        group = read_as_above(frame, group, params["group_above"], sides=True)
    share_of = params.get("share_of")
    numeric = frame.attrs["types"][measure] == "number" and share_of is None
    result = tested(frame, measure, group, numeric=numeric, pair_by=pair_by, share_of=share_of)
    test = result.get("test")
    verdict = (
        "no test"
        if test is None
        else f"{test['name']}, p = {test['p_value']:.2g}"
        if test["p_value"] is not None
        else test["name"]
    )
    if numeric:
        chart = charts.box_plot(
            frame,
            measure,
            group,
            title=f"{charts.label(measure)} in each {charts.label(group)} group ({verdict})",
            description=f"Box plots of {charts.label(measure)} for each {charts.label(group)}; {verdict}.",
        )
    else:
        share_of = result.get("share_of")
        bars = [{"group": str(g["group"]), "percent": g["percent"]} for g in result["groups"]]
        chart = charts.bar_chart(
            bars,
            category="group",
            amount="percent",
            title=f"Share {share_of} of {charts.label(measure)} by {charts.label(group)} (%) ({verdict})",
            description=f"Bar chart of each {charts.label(group)}'s share of {charts.label(measure)} {share_of}: "
            + ", ".join(f"{b['group']} {charts.percentage(b['percent'])}%" for b in bars[:12]),
            amount_title="percent",
        )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def _paired_columns(call: Call, params: dict[str, Any], measure: str, versus: str) -> dict[str, Any]:
    """Two measures of the same rows (before and after): each row is a pair."""
    frame = role_frame(call.context.session_id, params, {"measure": measure, "versus": versus}, ("measure", "versus"))
    pairs = frame[[measure, versus]].dropna()
    result = paired(pairs, measure=measure, versus=versus)
    verdict = "no test" if result["test"] is None else f"paired t-test, p = {result['test']['p_value']:.2g}"
    long = pairs.melt(var_name="measure", value_name="value")
    chart = charts.box_plot(
        long,
        "value",
        "measure",
        title=f"{charts.label(measure)} and {charts.label(versus)} ({verdict})",
        description=f"Box plots of {charts.label(measure)} and {charts.label(versus)} over the same rows; {verdict}.",
    )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def crosstab(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    rows, columns = params["group_by"], params["and_by"]
    frame = role_frame(call.context.session_id, params, {"group_by": rows, "and_by": columns})
    rows = grouping(params, rows)
    if params.get("and_above") is not None:
        require_number(frame.attrs["types"], params["table"], columns, "and_by")
        columns = read_as_above(frame, columns, params["and_above"])
    try:
        result = crossed.crosstab(frame, rows, columns)
    except ValueError as error:
        raise ProtocolError(
            "VALIDATION_FAILED", str(error), details={"invalid": {"group_by": rows, "and_by": columns}}
        ) from None
    cells = [{rows: str(r["row"]), columns: c, "percent": p} for r in result["cells"] for c, p in r["percent"].items()]
    v = result.get("cramers_v")
    chart = charts.heatmap(
        cells,
        x=columns,
        y=rows,
        amount="percent",
        title=f"{charts.label(columns)} within each {charts.label(rows)} (% of the row)"
        + (f", Cramér's V = {v:.2f}" if v is not None else ""),
        description=f"Heat map of each {charts.label(rows)}'s shares of {charts.label(columns)}.",
        amount_title="% of the row",
    )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}


def two_way(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, first, second = params["measure"], params["group_by"], params["and_by"]
    roles = {"measure": measure, "group_by": first, "and_by": second}
    frame = role_frame(call.context.session_id, params, roles, ("measure",))
    first = grouping(params, first)
    try:
        result = crossed.two_way(frame, measure, first, second, params["statistic"], params["direction"])
    except ValueError as error:
        raise ProtocolError(
            "VALIDATION_FAILED", str(error), details={"invalid": {"group_by": first, "and_by": second}}
        ) from None
    bars = [{"cell": f"{c['first']} / {c['second']}", "value": c["value"]} for c in result["cells"]]
    chart = charts.bar_chart(
        bars,
        category="cell",
        amount="value",
        title=f"{params['statistic'].capitalize()} {charts.label(measure)} by {charts.label(first)} and "
        f"{charts.label(second)}",
        description="Bar chart of each combination, highest first: "
        + ", ".join(f"{b['cell']} {b['value']:.4g}" for b in bars[:12] if b["value"] is not None),
        amount_title=f"{params['statistic']} {charts.label(measure)}",
    )
    return {"table": params["table"], "rows": len(frame), **result, "chart": chart}
