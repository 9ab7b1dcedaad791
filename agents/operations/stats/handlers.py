"""What each stats.* operation does with its call: read the rows, compute (``engine``), draw the chart.

Each handler answers with the engine's figures, the table and row count they came from, and a
Vega-Lite chart whose title and description say the answer in words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from agents.operations.stats import charts, engine, in_engine, in_engine_time, timeline
from agents.operations.stats.frame import (
    EngineTable,
    engine_table,
    load_frame,
    require_number,
    role_frame,
)
from agents.sap import Call
from protocol.errors import ProtocolError

STATISTIC_WORDS = {"sd": "standard deviation", "percentile": "percentile", "count": "count of"}


def _own_columns(columns: list[str]) -> None:
    if len(set(columns)) < len(columns):
        raise ProtocolError(
            "VALIDATION_FAILED",
            "each role (group, time, measure, entity) needs a column of its own",
            details={"invalid": {"columns": columns}},
        )


def _frame(call: Call, params: dict[str, Any], columns: list[str], measures: list[str]) -> pd.DataFrame:
    """The table's rows for the call; the columns a call names for different roles must differ."""
    _own_columns(columns)
    frame = load_frame(call.context.session_id, params["table"], columns, params.get("filters"))
    for where, name in enumerate(measures):
        require_number(frame.attrs["types"], params["table"], name, f"measure[{where}]")
    return frame


def _in_engine(
    call: Call,
    params: dict[str, Any],
    columns: list[str],
    measures: list[str],
    compute: Callable[[EngineTable], tuple[dict[str, Any], pd.DataFrame]],
    *,
    time: str | None = None,
) -> tuple[dict[str, Any], int, pd.DataFrame] | None:
    """(result, rows, what the chart draws) computed in the engine when the table is big
    (``in_engine.fits``); None for the row path."""
    _own_columns(columns)
    with engine_table(call.context.session_id, params["table"], params.get("filters")) as source:
        if not in_engine.fits(source, columns, time=time):
            return None
        for where, name in enumerate(measures):
            require_number(source.types, params["table"], name, f"measure[{where}]")
        result, drawn = compute(source)
        return result, source.rows(), drawn


def _numbers(types: dict[str, str], *, besides: tuple[str, ...] = ()) -> list[str]:
    return [n for n, t in types.items() if t == "number" and n not in besides]


def _said(statistic: str, percentile: float) -> str:
    if statistic == "percentile":
        return f"{percentile:g}th percentile of"
    return STATISTIC_WORDS.get(statistic, statistic)


def _answer(
    params: dict[str, Any], rows: int, result: dict[str, Any], chart: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The engine's figures after the table and the count of rows they came from, with their chart last."""
    return {"table": params["table"], "rows": rows, **result, **({"chart": chart} if chart else {})}


def describe(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    within = params.get("outliers_within")
    named = params.get("columns") or []
    frame = _frame(call, params, [*named, within] if named and within and within not in named else named, [])
    columns = named or _numbers(frame.attrs["types"], besides=(within,) if within else ())
    for where, name in enumerate(columns):
        require_number(frame.attrs["types"], params["table"], name, f"columns[{where}]")
    if within is not None and within not in frame.columns:
        raise ProtocolError("VALIDATION_FAILED", f"{params['table']} has no column {within}",
                       details={"invalid": {"outliers_within": within}})  # fmt: skip
    described = engine.describe(
        frame, columns, percentiles=tuple(params["percentiles"]), sd=params["sd"], within=within
    )
    result = {"sd": params["sd"], "columns": described}
    if len(columns) != 1:
        return _answer(params, len(frame), result)
    only = described[0]
    marks = {"mean": only["mean"], **{f"{p} percentile": v for p, v in only["percentiles"].items()}}
    chart = charts.histogram(
        frame,
        columns[0],
        marks=marks,
        title=f"Distribution of {charts.label(columns[0])} ({only['n']} values)",
        description=f"Histogram of {charts.label(columns[0])} with lines at its mean and percentiles: "
        + ", ".join(f"{k} {v:.4g}" for k, v in marks.items() if v is not None),
    )
    return _answer(params, len(frame), result, chart)


def compare(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    measure, group = params["measure"], params["group_by"]
    statistic, percentile = params["statistic"], params["percentile"]

    def computed(source: EngineTable) -> tuple[dict[str, Any], pd.DataFrame]:
        result = in_engine.compare(source, measure, group, statistic, percentile=percentile)
        return result, pd.DataFrame({group: [g["group"] for g in result["groups"]]})

    found = None if params.get("cycle") else _in_engine(call, params, [group, measure], [measure], computed)
    if found is None:
        frame = _frame(call, params, [group, measure], [measure])
        if params.get("cycle"):
            frame[group] = timeline.seasonal(frame[group], params["cycle"])  # "the warmest month of the year"
        found = engine.compare(frame, measure, group, statistic, percentile=percentile), len(frame), frame
    result, rows, frame = found
    said = _said(params["statistic"], params["percentile"])
    name = charts.month_label if charts.month_numbers(frame[group], group) else str
    bars = [{"group": name(g["group"]), "value": g["value"]} for g in result["groups"] if g["value"] is not None]
    chart = charts.bar_chart(
        bars,
        category="group",
        amount="value",
        title=f"{said.capitalize()} {charts.label(measure)} by {charts.label(group)}",
        description=f"Bar chart of the {said} {charts.label(measure)} in each {charts.label(group)}, highest first: "
        + ", ".join(f"{b['group']} {b['value']:.4g}" for b in bars[:12]),
        amount_title=f"{said} {charts.label(measure)}",
    )
    return _answer(params, rows, result, chart)


def rank_differences(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    group = params["group_by"]
    frame = _frame(call, params, [], params.get("measures") or [])
    measures = params.get("measures") or _numbers(frame.attrs["types"], besides=(group,))
    if group not in frame.columns:
        raise ProtocolError(
            "VALIDATION_FAILED", f"group_by: no column {group!r}", details={"columns": list(frame.columns)}
        )
    result = engine.rank_differences(frame, group, measures)
    effect = "|Cohen's d|" if len(result["groups"]) == 2 else "eta squared"
    bars = [{"measure": m["measure"], "effect": abs(m["effect_size"])} for m in result["measures"]]
    chart = charts.bar_chart(
        bars,
        category="measure",
        amount="effect",
        title=f"How much each measure differs between the {charts.label(group)} groups ({effect})",
        description=f"Bar chart of {effect} per measure between the {charts.label(group)} groups, largest first: "
        + ", ".join(f"{b['measure']} {b['effect']:.3g}" for b in bars[:10]),
        amount_title=effect,
    )
    return _answer(params, len(frame), result, chart)


def associate(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    outcome = params["outcome"]

    def computed(source: EngineTable) -> tuple[dict[str, Any], pd.DataFrame]:
        variables = params.get("variables") or _numbers(source.types, besides=(outcome,))
        result, drawn = in_engine.associate(source, outcome, variables)
        if len(drawn) == source.rows():  # every row: no sample to state
            return result, drawn
        figures = ["spearman_rho", "chart"] if result["method"] != "eta" else ["chart"]
        return {**result, "sample": in_engine.sample_note(source.rows(), figures)}, drawn

    found = _in_engine(call, params, [outcome, *(params.get("variables") or [])], [], computed)
    if found is None:
        frame = _frame(call, params, [], params.get("variables") or [])
        if outcome not in frame.columns:
            raise ProtocolError(
                "VALIDATION_FAILED", f"outcome: no column {outcome!r}", details={"columns": list(frame.columns)}
            )
        variables = params.get("variables") or _numbers(frame.attrs["types"], besides=(outcome,))
        found = engine.associate(frame, outcome, variables), len(frame), frame
    result, rows, frame = found
    if result["variables"]:
        top = result["variables"][0]["variable"]
        return _answer(params, rows, result, _association_chart(frame, top, outcome, result))
    return _answer(params, rows, result)


def _association_chart(frame: pd.DataFrame, top: str, outcome: str, result: dict[str, Any]) -> dict[str, Any]:
    if result["method"] == "pearson" and charts.month_numbers(frame[top], top):  # a month is an ordinal, not an x
        months = frame.assign(**{top: frame[top].map(charts.month_label, na_action="ignore")})
        return charts.box_plot(
            months,
            outcome,
            top,
            title=f"{charts.label(outcome)} in each {charts.label(top)}",
            description=f"Box plots of {charts.label(outcome)} in each {charts.label(top)}, January to December.",
        )
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


def trend(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    time, measure = params["time"], params["measure"]
    period, statistic = params["period"], params["statistic"]

    def computed(source: EngineTable) -> tuple[dict[str, Any], pd.DataFrame]:
        result = in_engine_time.trend(source, time, measure, period=period, statistic=statistic)
        return result, pd.DataFrame({time: [p["period"] for p in result["points"]]})

    found = _in_engine(call, params, [time, measure], [measure], computed, time=time)
    if found is None:
        frame = _frame(call, params, [time, measure], [measure])
        found = timeline.trend(frame, time, measure, period=period, statistic=statistic), len(frame), frame
    result, rows, frame = found
    said = _said(params["statistic"], 50)
    per = result["period"] if result["period"] != "value" else time
    points = result["points"]
    if charts.month_numbers(frame[time], time):  # months in calendar order, never a number axis
        points = [{**p, "period": charts.month_label(p["period"])} for p in points]
    chart = charts.line_chart(
        points,
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
    return _answer(params, rows, result, chart)


def share(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    frame = role_frame(
        call.context.session_id, params, {"column": params["column"], "weight": params.get("weight")}, ("weight",),
        cycled=("column",),
    )  # fmt: skip
    column, weight = timeline.grouping(params, params["column"]), params.get("weight")
    result = engine.share(frame, column, weight=weight)
    bars = [{"category": str(c["value"]), "percent": c["percent"]} for c in result["categories"]]
    of = f"the total {charts.label(weight)}" if weight else "the rows"
    chart = charts.bar_chart(
        bars,
        category="category",
        amount="percent",
        title=f"Share of {of} by {charts.label(column)} (%)",
        description=f"Bar chart of each {charts.label(column)}'s share of {of}, largest first: "
        + ", ".join(
            f"{b['category']} {charts.percentage(b['percent'])}%" for b in bars[:12] if b["percent"] is not None
        ),
        amount_title="percent",
    )
    return _answer(params, len(frame), result, chart)


def growth(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    entity, time, measure = params["entity"], params["time"], params["measure"]
    chosen = {key: params[key] for key in ("period", "statistic", "percentile", "change")}
    span_named: dict[str, Any] = {"start": params.get("from"), "end": params.get("to")}

    def computed(source: EngineTable) -> tuple[dict[str, Any], pd.DataFrame]:
        return in_engine_time.growth(source, entity, time, measure, **chosen, **span_named), pd.DataFrame()

    found = None if params.get("cycle") else _in_engine(call, params, [entity, time, measure], [measure], computed)
    if params.get("cycle"):  # "which calendar month grew most": each month of the year an entity of its own
        roles = {"entity": entity, "time": time, "measure": measure}
        frame = role_frame(call.context.session_id, params, roles, ("measure",), cycled=("entity",))
        entity = timeline.grouping(params, entity)
        found = timeline.growth(frame, entity, time, measure, **chosen, **span_named), len(frame), frame
    elif found is None:
        frame = _frame(call, params, [entity, time, measure], [measure])
        found = timeline.growth(frame, entity, time, measure, **chosen, **span_named), len(frame), frame
    result, rows, _ = found
    percent = params["change"] == "percent"
    field = "percent_change" if percent else "change"
    bars = [{"entity": str(e["entity"]), "change": e[field]} for e in result["entities"] if e[field] is not None]
    said = f"{_said(params['statistic'], params['percentile'])} {charts.label(measure)}"
    per = result["period"] if result["period"] != "value" else charts.label(time)
    span = (f"from {params['from'] if params.get('from') else f'the first {per}'} "
            f"to {params['to'] if params.get('to') else f'the last {per}'}")  # fmt: skip
    chart = charts.bar_chart(
        bars,
        category="entity",
        amount="change",
        title=f"Change in {said} {span}, per {charts.label(entity)}" + (" (%)" if percent else ""),
        description=f"Bar chart of each {charts.label(entity)}'s {'percentage ' if percent else ''}change in the "
        f"{said} {span}, largest first: "
        + ", ".join(f"{b['entity']} {charts.signed(b['change'], percent=percent)}" for b in bars[:12]),
        amount_title="% change" if percent else f"change in {said}",
    )
    return _answer(params, rows, result, chart)
