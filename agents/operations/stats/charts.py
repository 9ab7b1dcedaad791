"""Vega-Lite specs for the stats.* results: the grammar LLMs and the plotting ecosystem already write.

Each spec carries its data inline (a chart must draw offline, from the message alone), a title and a
description that serves as the chart's text alternative. Plain Python: no Django.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
MAX_POINTS = 1500
MAX_BARS = 40
WIDTH = 480


def label(name: str) -> str:
    """A column as a chart names it: ``petal_length_cm`` is "petal length cm"."""
    return " ".join(name.replace("_", " ").split())


def _spec(title: str, description: str, values: list[dict[str, Any]], **rest: Any) -> dict[str, Any]:
    return {
        "$schema": SCHEMA,
        "title": title,
        "description": description,
        "width": WIDTH,
        "data": {"values": values},
        **rest,
    }


def bar_chart(
    values: list[dict[str, Any]], *, category: str, amount: str, title: str, description: str, amount_title: str
) -> dict[str, Any]:
    """Bars from largest to smallest, the first (the answer) in a stronger colour."""
    shown = values[:MAX_BARS]
    first = shown[0][category] if shown else None
    return _spec(
        title,
        description,
        shown,
        height={"step": 26},
        mark={"type": "bar", "tooltip": True},
        encoding={
            "y": {"field": category, "type": "nominal", "sort": "-x", "title": None},
            "x": {"field": amount, "type": "quantitative", "title": amount_title},
            "color": {
                "condition": {"test": {"field": category, "equal": first}, "value": "#2f6f9f"},
                "value": "#a9c4d9",
            },
        },
    )


def scatter_with_fit(
    frame: pd.DataFrame, x: str, y: str, *, title: str, description: str, jitter_y: bool = False
) -> dict[str, Any]:
    """Points and their least-squares line; large tables are sampled (fixed seed) to keep the page light."""
    both = frame[[x, y]].dropna()
    if len(both) > MAX_POINTS:
        both = both.sample(MAX_POINTS, random_state=0)
    values = [{"x": float(a), "y": float(b)} for a, b in both.itertuples(index=False)]
    axes = {
        "x": {"field": "x", "type": "quantitative", "title": label(x), "scale": {"zero": False}},
        "y": {"field": "y", "type": "quantitative", "title": label(y), "scale": {"zero": False}},
    }
    return _spec(
        title,
        description,
        values,
        layer=[
            {"mark": {"type": "point", "opacity": 0.5, "filled": True}, "encoding": axes},
            {
                "mark": {"type": "line", "color": "#c0392b"},
                "transform": [{"regression": "y", "on": "x"}],
                "encoding": axes,
            },
        ],
    )


def line_chart(
    points: list[dict[str, Any]], *, period: str, measure: str, title: str, description: str
) -> dict[str, Any]:
    """A trend: the statistic per period as a line with its points."""
    values = [{"period": str(p["period"]), "value": p["value"]} for p in points]
    return _spec(
        title,
        description,
        values,
        mark={"type": "line", "point": True, "tooltip": True},
        encoding={
            "x": {
                "field": "period",
                "type": "ordinal",
                "title": period,
                "sort": None,
                "axis": {"labelAngle": 0 if len(values) <= 12 else -45},
            },
            "y": {"field": "value", "type": "quantitative", "title": measure, "scale": {"zero": False}},
        },
    )


def box_plot(frame: pd.DataFrame, measure: str, group: str, *, title: str, description: str) -> dict[str, Any]:
    """The distribution of a measure in each group."""
    both = frame[[group, measure]].dropna()
    if len(both) > MAX_POINTS:
        both = both.sample(MAX_POINTS, random_state=0)
    values = [{"group": str(g), "value": float(v)} for g, v in both.itertuples(index=False)]
    return _spec(
        title,
        description,
        values,
        mark={"type": "boxplot", "extent": 1.5},
        encoding={
            "x": {"field": "group", "type": "nominal", "title": label(group)},
            "y": {"field": "value", "type": "quantitative", "title": label(measure), "scale": {"zero": False}},
        },
    )


def histogram(
    frame: pd.DataFrame, column: str, *, marks: dict[str, float], title: str, description: str
) -> dict[str, Any]:
    """The distribution of one column, with a rule at each figure in ``marks`` (its mean, median...)."""
    values = [{"value": float(v)} for v in frame[column].dropna().head(MAX_POINTS * 3)]
    rules = [{"label": label, "at": at} for label, at in marks.items() if at is not None]
    return _spec(
        title,
        description,
        values,
        layer=[
            {
                "mark": {"type": "bar", "color": "#a9c4d9"},
                "encoding": {
                    "x": {"field": "value", "type": "quantitative", "bin": {"maxbins": 30}, "title": label(column)},
                    "y": {
                        "aggregate": "count",
                        "type": "quantitative",
                        "title": "rows",
                        "axis": {"format": "d", "tickMinStep": 1},
                    },
                },
            },
            {
                "data": {"values": rules},
                "mark": {"type": "rule", "color": "#c0392b", "strokeWidth": 2},
                "encoding": {"x": {"field": "at", "type": "quantitative"}, "tooltip": [{"field": "label"}]},
            },
            {
                "data": {"values": rules},
                "mark": {"type": "text", "angle": 270, "align": "left", "dx": 4, "dy": -4, "color": "#c0392b"},
                "encoding": {
                    "x": {"field": "at", "type": "quantitative"},
                    "y": {"value": 0},
                    "text": {"field": "label"},
                },
            },
        ],
    )


def percentage(value: float) -> str:
    """A percentage as words say it: at most one decimal (12.3, 250), two significant digits when it is
    under 0.1 (-0.072), never the four digits of "-0.07237"."""
    if value == 0 or abs(value) >= 0.095:
        return f"{value:.1f}".removesuffix(".0")
    return f"{value:.{1 - math.floor(math.log10(abs(value)))}f}".rstrip("0")


def signed(value: float, *, percent: bool = False) -> str:
    """A change with its sign: "+12.3%", "-4.5"."""
    return ("+" if value >= 0 else "") + (percentage(value) + "%" if percent else f"{value:.4g}")
