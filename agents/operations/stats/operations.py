"""The stats.* operations: statistics over the session's own tables, each answer with its chart.

Any agent the session admits (the built-in analyst, an LLM agent, an outside agent over SAP) gets
the same analytical tools; each call reads only its session's tables, under the same permission
check and audit as every other operation.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from agents.operations.datasets.operations import FILTER_DOC, NOT_FOUND, TABLE
from agents.operations.stats import charts, engine
from agents.operations.stats.frame import load_frame, require_number
from agents.sap import ErrorDoc, Example, Operation, Param, format_block
from protocol.errors import ProtocolError

COLUMN = Param("string", "a column of the table", required=True, min_length=1, max_length=64)
OPTIONAL_COLUMN = Param("string", "a column of the table", min_length=1, max_length=64)
FILTERS = Param("object", "only the rows that match: " + FILTER_DOC)
STATISTIC = Param("string", "what to compute per group or period", default="mean", enum=engine.STATISTICS)
PERCENTILE = Param("number", "the percentile when statistic is percentile", default=50, minimum=0, maximum=100)
COLUMNS = Param("array", "column names (all number columns when left out)", items=Param("string"), max_items=2000)
NOT_A_NUMBER = ErrorDoc("VALIDATION_FAILED", "A measure is not a number column, or a column is unknown.",
                        "Pick from details.number_columns or describe the table.")  # fmt: skip
ERRORS = (NOT_FOUND, NOT_A_NUMBER, ErrorDoc("LIMIT_EXCEEDED", "Too many rows to read.", "Filter the rows first."))
STATISTIC_WORDS = {"sd": "standard deviation", "percentile": "percentile", "count": "count of"}


def _frame(call: Any, params: dict[str, Any], columns: list[str], measures: list[str]) -> pd.DataFrame:
    """The table's rows for the call; the columns a call names for different roles must differ."""
    if len(set(columns)) < len(columns):
        raise ProtocolError(
            "VALIDATION_FAILED",
            "each role (group, time, measure, entity) needs a column of its own",
            details={"invalid": {"columns": columns}},
        )
    frame = load_frame(call.context.session_id, params["table"], columns, params.get("filters"))
    for where, name in enumerate(measures):
        require_number(frame, params["table"], name, f"measure[{where}]")
    return frame


def _numbers(frame: pd.DataFrame, *, besides: tuple[str, ...] = ()) -> list[str]:
    return [n for n, t in frame.attrs["types"].items() if t == "number" and n not in besides]


def _said(statistic: str, percentile: float) -> str:
    if statistic == "percentile":
        return f"{percentile:g}th percentile of"
    return STATISTIC_WORDS.get(statistic, statistic)


def _describe(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    within = params.get("outliers_within")
    named = params.get("columns") or []
    frame = _frame(call, params, [*named, within] if named and within and within not in named else named, [])
    columns = named or _numbers(frame, besides=(within,) if within else ())
    for where, name in enumerate(columns):
        require_number(frame, params["table"], name, f"columns[{where}]")
    if within is not None and within not in frame.columns:
        raise ProtocolError("VALIDATION_FAILED", f"{params['table']} has no column {within}",
                       details={"invalid": {"outliers_within": within}})  # fmt: skip
    described = engine.describe(
        frame, columns, percentiles=tuple(params["percentiles"]), sd=params["sd"], within=within
    )
    result = {"table": params["table"], "rows": len(frame), "sd": params["sd"], "columns": described}
    if len(columns) == 1:
        only = described[0]
        marks = {"mean": only["mean"], **{f"{p} percentile": v for p, v in only["percentiles"].items()}}
        result["chart"] = charts.histogram(
            frame,
            columns[0],
            marks=marks,
            title=f"Distribution of {charts.label(columns[0])} ({only['n']} values)",
            description=f"Histogram of {charts.label(columns[0])} with lines at its mean and percentiles: "
            + ", ".join(f"{k} {v:.4g}" for k, v in marks.items() if v is not None),
        )
    return result


def _compare(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    measure, group = params["measure"], params["group_by"]
    frame = _frame(call, params, [group, measure], [measure])
    if params.get("cycle"):
        frame[group] = engine.seasonal(frame[group], params["cycle"])  # "the warmest month of the year"
    result = engine.compare(frame, measure, group, params["statistic"], percentile=params["percentile"])
    said = _said(params["statistic"], params["percentile"])
    bars = [{"group": str(g["group"]), "value": g["value"]} for g in result["groups"] if g["value"] is not None]
    result["chart"] = charts.bar_chart(
        bars,
        category="group",
        amount="value",
        title=f"{said.capitalize()} {charts.label(measure)} by {charts.label(group)}",
        description=f"Bar chart of the {said} {charts.label(measure)} in each {charts.label(group)}, highest first: "
        + ", ".join(f"{b['group']} {b['value']:.4g}" for b in bars[:12]),
        amount_title=f"{said} {charts.label(measure)}",
    )
    return {"table": params["table"], "rows": len(frame), **result}


def _rank_differences(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    group = params["group_by"]
    frame = _frame(call, params, [], params.get("measures") or [])
    measures = params.get("measures") or _numbers(frame, besides=(group,))
    if group not in frame.columns:
        raise ProtocolError(
            "VALIDATION_FAILED", f"group_by: no column {group!r}", details={"columns": list(frame.columns)}
        )
    result = engine.rank_differences(frame, group, measures)
    effect = "|Cohen's d|" if len(result["groups"]) == 2 else "eta squared"
    bars = [{"measure": m["measure"], "effect": abs(m["effect_size"])} for m in result["measures"]]
    result["chart"] = charts.bar_chart(
        bars,
        category="measure",
        amount="effect",
        title=f"How much each measure differs between the {charts.label(group)} groups ({effect})",
        description=f"Bar chart of {effect} per measure between the {charts.label(group)} groups, largest first: "
        + ", ".join(f"{b['measure']} {b['effect']:.3g}" for b in bars[:10]),
        amount_title=effect,
    )
    return {"table": params["table"], "rows": len(frame), **result}


def _associate(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    outcome = params["outcome"]
    frame = _frame(call, params, [], params.get("variables") or [])
    if outcome not in frame.columns:
        raise ProtocolError(
            "VALIDATION_FAILED", f"outcome: no column {outcome!r}", details={"columns": list(frame.columns)}
        )
    variables = params.get("variables") or _numbers(frame, besides=(outcome,))
    result = engine.associate(frame, outcome, variables)
    if result["variables"]:
        top = result["variables"][0]["variable"]
        result["chart"] = _association_chart(frame, top, outcome, result)
    return {"table": params["table"], "rows": len(frame), **result}


def _association_chart(frame: pd.DataFrame, top: str, outcome: str, result: dict[str, Any]) -> dict[str, Any]:
    if result["method"] == "pearson":
        r = result["variables"][0]["pearson_r"]
        return charts.scatter_with_fit(
            frame,
            top,
            outcome,
            title=f"{charts.label(outcome)} against {charts.label(top)} (Pearson r = {r:.4g})",
            description=f"Scatter plot of {charts.label(outcome)} against {charts.label(top)} with its "
            f"least-squares line; Pearson r = {r:.4g}.",
        )
    strength = result["variables"][0]["strength"]
    return charts.box_plot(
        frame,
        top,
        outcome,
        title=f"{charts.label(top)} in each {charts.label(outcome)} group",
        description=f"Box plots of {charts.label(top)} for each value of {charts.label(outcome)}; "
        "it is the measure most associated with "
        f"{charts.label(outcome)} (strength {strength:.3g}).",
    )


def _trend(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    time, measure = params["time"], params["measure"]
    frame = _frame(call, params, [time, measure], [measure])
    result = engine.trend(frame, time, measure, period=params["period"], statistic=params["statistic"])
    said = _said(params["statistic"], 50)
    per = result["period"] if result["period"] != "value" else time
    result["chart"] = charts.line_chart(
        result["points"],
        period=per,
        measure=f"{said} {charts.label(measure)}",
        title=f"{said.capitalize()} {charts.label(measure)} per {charts.label(per)}",
        description=f"Line chart of the {said} {charts.label(measure)} over {len(result['points'])} periods"
        + (
            f", from {result['points'][0]['value']:.4g} to {result['points'][-1]['value']:.4g}"
            if result["points"]
            else ""
        ),
    )
    return {"table": params["table"], "rows": len(frame), **result}


def _share(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    column, weight = params["column"], params.get("weight")
    frame = _frame(call, params, [column, *([weight] if weight else [])], [weight] if weight else [])
    result = engine.share(frame, column, weight=weight)
    bars = [{"category": str(c["value"]), "percent": c["percent"]} for c in result["categories"]]
    of = f"the total {charts.label(weight)}" if weight else "the rows"
    result["chart"] = charts.bar_chart(
        bars,
        category="category",
        amount="percent",
        title=f"Share of {of} by {charts.label(column)} (%)",
        description=f"Bar chart of each {charts.label(column)}'s share of {of}, largest first: "
        + ", ".join(f"{b['category']} {b['percent']:.3g}%" for b in bars[:12] if b["percent"] is not None),
        amount_title="percent",
    )
    return {"table": params["table"], "rows": len(frame), **result}


def _growth(call: Any, params: dict[str, Any]) -> dict[str, Any]:
    entity, time, measure = params["entity"], params["time"], params["measure"]
    frame = _frame(call, params, [entity, time, measure], [measure])
    result = engine.growth(frame, entity, time, measure)
    bars = [{"entity": str(e["entity"]), "percent": e["percent_change"]} for e in result["entities"]]
    bars = [b for b in bars if b["percent"] is not None]
    result["chart"] = charts.bar_chart(
        bars,
        category="entity",
        amount="percent",
        title=f"Change in {charts.label(measure)} from first to last {charts.label(time)}, "
        f"per {charts.label(entity)} (%)",
        description=f"Bar chart of each {charts.label(entity)}'s percentage change in {charts.label(measure)}, "
        "largest first: " + ", ".join(f"{b['entity']} {b['percent']:+.3g}%" for b in bars[:12]),
        amount_title="% change",
    )
    return {"table": params["table"], "rows": len(frame), **result}


def _example(name: str, request: dict[str, Any], response: dict[str, Any]) -> Example:
    return Example(format_block("query", name, request, "s1"), format_block("result", name, response, "s1"))


OPERATIONS = (
    Operation(
        "stats.describe",
        "query",
        "Summary statistics of number columns (pandas): n, missing, mean, SD (sample or population), min, "
        "percentiles, max, sum, and the values more than 3 SDs from the mean (from their own group's mean with "
        "outliers_within; a bound below zero is left out for a column with no negative value).",
        _describe,
        {
            "table": TABLE,
            "columns": COLUMNS,
            "filters": FILTERS,
            "sd": Param(
                "string", "divide by n - 1 (sample) or n (population)", default="sample", enum=("sample", "population")
            ),
            "percentiles": Param(
                "array", "percentiles to report", default=[25, 50, 75], items=Param("number"), max_items=20
            ),
            "outliers_within": Param(
                "string",
                "find outliers within each group of this column (groups a question compares)",
                min_length=1,
                max_length=64,
            ),
        },
        examples=(
            _example(
                "stats.describe",
                {"table": "sales", "columns": ["amount"]},
                {
                    "table": "sales",
                    "rows": 1,
                    "sd": "sample",
                    "columns": [
                        {
                            "column": "amount",
                            "n": 1,
                            "missing": 0,
                            "mean": 120.5,
                            "sd": None,
                            "min": 120.5,
                            "max": 120.5,
                            "sum": 120.5,
                            "percentiles": {"p25": 120.5, "p50": 120.5, "p75": 120.5},
                            "outliers": {
                                "checked": False,
                                "within": None,
                                "values": [],
                                "farthest": [],
                                "low": None,
                                "high": None,
                            },
                        }
                    ],
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.compare",
        "query",
        "Compare groups on a measure: the statistic per group (highest first), the gap and ratio between the "
        "highest and lowest, and a test (Welch's t with Cohen's d for two groups, ANOVA with eta squared for more). "
        "Comes with a bar chart (Vega-Lite).",
        _compare,
        {
            "table": TABLE,
            "measure": COLUMN,
            "group_by": COLUMN,
            "statistic": STATISTIC,
            "percentile": PERCENTILE,
            "cycle": Param(
                "string",
                "group a date column by its month of the year, weekday or quarter",
                enum=tuple(engine.SEASONAL),
            ),
            "filters": FILTERS,
        },
        examples=(
            _example(
                "stats.compare",
                {"table": "sales", "measure": "amount", "group_by": "region", "statistic": "median"},
                {
                    "table": "sales",
                    "rows": 1,
                    "measure": "amount",
                    "group_by": "region",
                    "statistic": "median",
                    "groups": [{"group": "EU", "n": 1, "value": 120.5}],
                    "test": None,
                    "chart": {"mark": {}},
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.rank-differences",
        "query",
        "Which measures differ most between groups: |Cohen's d| (pooled SD) for two groups, eta squared for more, "
        "largest first, with each group's mean. Comes with a bar chart (Vega-Lite).",
        _rank_differences,
        {"table": TABLE, "group_by": COLUMN, "measures": COLUMNS, "filters": FILTERS},
        examples=(
            _example(
                "stats.rank-differences",
                {"table": "sales", "group_by": "region"},
                {
                    "table": "sales",
                    "rows": 1,
                    "group_by": "region",
                    "groups": ["EU"],
                    "measures": [],
                    "chart": {"mark": {}},
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.associate",
        "query",
        "How strongly each variable goes with an outcome, strongest first: Pearson r with p-value and 95% interval, "
        "Spearman rho and n (a two-valued outcome is coded 0/1; a categorical one is compared by eta). "
        "Comes with a scatter plot and its fit, or box plots (Vega-Lite).",
        _associate,
        {"table": TABLE, "outcome": COLUMN, "variables": COLUMNS, "filters": FILTERS},
        examples=(
            _example(
                "stats.associate",
                {"table": "sales", "outcome": "amount"},
                {
                    "table": "sales",
                    "rows": 1,
                    "outcome": "amount",
                    "outcome_coded_1": None,
                    "method": "pearson",
                    "variables": [],
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.trend",
        "query",
        "A measure over time: the statistic per period (year, quarter, month, week or day of a date column, or "
        "the values of a number column such as a year), the change from first to last and the linear slope per "
        "period. Comes with a line chart (Vega-Lite).",
        _trend,
        {
            "table": TABLE,
            "time": COLUMN,
            "measure": COLUMN,
            "statistic": STATISTIC,
            "period": Param("string", "how to bucket a date column", default="auto", enum=("auto", *engine.PERIODS)),
            "filters": FILTERS,
        },
        examples=(
            _example(
                "stats.trend",
                {"table": "monthly", "time": "month", "measure": "sales", "period": "month"},
                {
                    "table": "monthly",
                    "rows": 2,
                    "time": "month",
                    "measure": "sales",
                    "period": "month",
                    "statistic": "mean",
                    "points": [
                        {"period": "2026-01", "n": 1, "value": 10.0},
                        {"period": "2026-02", "n": 1, "value": 15.0},
                    ],
                    "change": 5.0,
                    "percent_change": 50.0,
                    "slope_per_period": 5.0,
                    "chart": {"mark": {}},
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.share",
        "query",
        "Each category's count and percentage of the rows (or of a measure's total, with weight), most common "
        "first. Comes with a bar chart (Vega-Lite).",
        _share,
        {"table": TABLE, "column": COLUMN, "weight": OPTIONAL_COLUMN, "filters": FILTERS},
        examples=(
            _example(
                "stats.share",
                {"table": "sales", "column": "region"},
                {
                    "table": "sales",
                    "rows": 1,
                    "column": "region",
                    "weight": None,
                    "total": 1.0,
                    "categories": [{"value": "EU", "amount": 1.0, "percent": 100.0}],
                    "chart": {"mark": {}},
                },
            ),
        ),
        errors=ERRORS,
    ),
    Operation(
        "stats.growth",
        "query",
        "Growth per entity: the measure at each entity's first and last moment, the change, the ratio and the "
        "percentage change, largest first. Comes with a bar chart (Vega-Lite).",
        _growth,
        {"table": TABLE, "entity": COLUMN, "time": COLUMN, "measure": COLUMN, "filters": FILTERS},
        examples=(
            _example(
                "stats.growth",
                {"table": "monthly", "entity": "shop", "time": "month", "measure": "sales"},
                {
                    "table": "monthly",
                    "rows": 2,
                    "entity": "shop",
                    "time": "month",
                    "measure": "sales",
                    "entities": [
                        {
                            "entity": "A",
                            "first_time": "2026-01-01",
                            "last_time": "2026-02-01",
                            "first": 10.0,
                            "last": 15.0,
                            "change": 5.0,
                            "ratio": 1.5,
                            "percent_change": 50.0,
                        }
                    ],
                    "chart": {"mark": {}},
                },
            ),
        ),
        errors=ERRORS,
    ),
)
