"""What the inference operations do with a call: read the rows, test (``significance``), draw the chart.

Kept apart from ``handlers`` (the descriptive answers): these say whether what the rows show is more
than chance, and each answer says which test it chose and why.
"""

from __future__ import annotations

from typing import Any

from agents.operations.stats import charts
from agents.operations.stats.frame import load_frame
from agents.operations.stats.significance import significance as tested
from agents.sap import Call
from protocol.errors import ProtocolError


def significance(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, group = params["measure"], params["group_by"]
    if measure == group:
        raise ProtocolError("VALIDATION_FAILED", "the measure and the groups need a column each",
                            details={"invalid": {"group_by": group}})  # fmt: skip
    frame = load_frame(call.context.session_id, params["table"], [group, measure], params.get("filters"))
    numeric = frame.attrs["types"][measure] == "number"
    result = tested(frame, measure, group, numeric=numeric)
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
