"""Vega-Lite specs for the stats.* results: the grammar LLMs and the plotting ecosystem already write.

Each spec carries its data inline (a chart must draw offline, from the message alone), a title and a
description that serves as the chart's text alternative. The data is what is drawn, never the raw
rows: a chart has at most ``MAX_MARKS`` marks (bins, cells, boxes or periods), so a table of a
million rows makes a chart of a few kilobytes. Plain Python: no Django.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
MAX_MARKS = 500
MAX_LINE_POINTS = 300  # a line's points: more than one per two pixels draws nothing more
DOTTED_POINTS = 60  # a line shows its points up to this many
MAX_BARS = 40
MAX_BINS = 30
MAX_COLOURED_GROUPS = 10  # colours a reader tells apart in a legend
HEATMAP_CELLS = (24, 20)  # columns and rows of a binned scatter
AXIS_LABELS = 12  # at most, on a time axis
DIGITS = 5  # significant digits a chart's data keeps: finer than a pixel
WIDTH = 480
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
QUARTERS = ("Q1", "Q2", "Q3", "Q4")
SEASONS = ("winter", "spring", "summer", "autumn")


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
    """Bars from largest to smallest, the first (the answer) in a stronger colour; months, weekdays and
    quarters in calendar order instead (an ordinal axis: "the worst month" is read against the year)."""
    shown = [{**v, amount: short(v[amount])} if v[amount] is not None else v for v in values[:MAX_BARS]]
    first = shown[0][category] if shown else None
    calendar = calendar_order([str(v[category]) for v in shown])
    return _spec(
        title,
        description,
        shown,
        height={"step": 26},
        mark={"type": "bar", "tooltip": True},
        encoding={
            "y": {
                "field": category,
                "type": "ordinal" if calendar else "nominal",
                "sort": calendar or "-x",
                "title": None,
            },
            "x": {"field": amount, "type": "quantitative", "title": amount_title},
            "color": {
                "condition": {"test": {"field": category, "equal": first}, "value": "#2f6f9f"},
                "value": "#a9c4d9",
            },
        },
    )


def short(value: Any) -> float:
    """A number as a chart's data keeps it: ``DIGITS`` significant digits."""
    return float(f"{float(value):.{DIGITS}g}")


def calendar_order(labels: list[str]) -> list[str] | None:
    """The labels in calendar order when they are all months, weekdays, quarters or seasons ("Mar",
    "march", "Mon", "Q2", "winter"), else None."""
    for cycle in (MONTHS, WEEKDAYS, QUARTERS, SEASONS):
        rank = {name.lower(): i for i, name in enumerate(cycle)} | {name[:3].lower(): i for i, name in enumerate(cycle)}
        if labels and all(label.lower() in rank for label in labels):
            return sorted(labels, key=lambda label: rank[label.lower()])
    return None


def month_numbers(values: pd.Series, name: str) -> bool:
    """A column of month numbers (1 to 12, named for the month): an ordinal, never a quantity."""
    present = values.dropna()
    return (
        "month" in name.lower()
        and pd.api.types.is_numeric_dtype(present)
        and not present.empty
        and bool(present.between(1, 12).all() and (present % 1 == 0).all())
    )


def month_label(number: Any) -> str:
    """A month number as its name on an axis: 3 is "Mar"."""
    return MONTHS[int(number) - 1][:3]


def _order(labels: list[str]) -> list[str]:
    """Groups in their natural order: the calendar's, the numbers', else the alphabet's."""
    calendar = calendar_order(labels)
    if calendar:
        return calendar
    try:
        return sorted(labels, key=float)
    except ValueError:
        return sorted(labels)


def scatter_with_fit(frame: pd.DataFrame, x: str, y: str, *, title: str, description: str) -> dict[str, Any]:
    """Points and their least-squares line (fitted on every row). Past ``MAX_MARKS`` rows the points
    become a binned heatmap of row counts, and the title says so."""
    both = frame[[x, y]].dropna().astype(float)
    axes = {
        "x": {"field": "x", "type": "quantitative", "title": label(x), "scale": {"zero": False}},
        "y": {"field": "y", "type": "quantitative", "title": label(y), "scale": {"zero": False}},
    }
    fit = _fit_line(both[x], both[y])
    line = [{"data": {"values": fit}, "mark": {"type": "line", "color": "#c0392b"}, "encoding": axes}] if fit else []
    if len(both) <= MAX_MARKS:
        values = [{"x": short(a), "y": short(b)} for a, b in both.itertuples(index=False)]
        points = {"mark": {"type": "point", "opacity": 0.5, "filled": True}, "encoding": axes}
        return _spec(title, description, values, layer=[points, *line])
    cells, (x_step, y_step) = _cells(both[x], both[y])
    heatmap = {
        "mark": {"type": "rect", "tooltip": True},
        "transform": [
            {"calculate": f"datum.x + {x_step!r}", "as": "x2"},
            {"calculate": f"datum.y + {y_step!r}", "as": "y2"},
        ],
        "encoding": {
            **axes,
            "x2": {"field": "x2"},
            "y2": {"field": "y2"},
            "color": {"field": "n", "type": "quantitative", "title": "rows", "scale": {"scheme": "blues"}},
        },
    }
    binned = f"binned: {len(both):,} rows in {len(cells)} cells"
    return _spec(f"{title} ({binned})", f"{description} ({binned}, darker where more)", cells, layer=[heatmap, *line])


def scatter_within_groups(
    frame: pd.DataFrame, x: str, y: str, group: str, slope: float, *, title: str, description: str
) -> dict[str, Any] | None:
    """Points coloured by group, each group's line at the adjusted (within-group) slope through its own
    means, and the pooled line dashed: a sign that turns once the groups are accounted for is seen, not
    only said. None past ``MAX_MARKS`` rows or ``MAX_COLOURED_GROUPS`` groups (the plain scatter then)."""
    rows = frame[[x, y, group]].dropna()
    if len(rows) > MAX_MARKS or rows[group].nunique() > MAX_COLOURED_GROUPS:
        return None
    both, groups = rows[[x, y]].astype(float), rows[group].astype(str)
    axes = {
        "x": {"field": "x", "type": "quantitative", "title": label(x), "scale": {"zero": False}},
        "y": {"field": "y", "type": "quantitative", "title": label(y), "scale": {"zero": False}},
    }
    colour = {"color": {"field": "group", "type": "nominal", "title": label(group)}}
    values = [{"x": short(a), "y": short(b), "group": g} for a, b, g in zip(both[x], both[y], groups, strict=True)]
    lines = [
        {"x": short(end), "y": short(part[y].mean() + slope * (end - part[x].mean())), "group": name}
        for name, part in both.groupby(groups)
        if part[x].nunique() > 1
        for end in (part[x].min(), part[x].max())
    ]
    layers = [
        {"mark": {"type": "point", "opacity": 0.6, "filled": True}, "encoding": {**axes, **colour}},
        {
            "data": {"values": lines},
            "mark": {"type": "line"},
            "encoding": {**axes, **colour, "detail": {"field": "group"}},
        },
    ]
    pooled = _fit_line(both[x], both[y])
    if pooled:
        dashed = {"type": "line", "color": "#555555", "strokeDash": [6, 4]}
        layers.append({"data": {"values": pooled}, "mark": dashed, "encoding": axes})
    return _spec(title, description, values, layer=layers)


def _fit_line(x: pd.Series, y: pd.Series) -> list[dict[str, float]]:
    """The least-squares line's two ends over the x range (none for fewer than two distinct x)."""
    if x.nunique() < 2:
        return []
    slope, intercept = np.polyfit(x, y, 1)
    return [{"x": short(end), "y": short(slope * end + intercept)} for end in (x.min(), x.max())]


def _cells(x: pd.Series, y: pd.Series) -> tuple[list[dict[str, float]], tuple[float, float]]:
    """The rows counted in a grid of ``HEATMAP_CELLS``: each non-empty cell's lower corner and count."""
    counts, x_edges, y_edges = np.histogram2d(x, y, bins=HEATMAP_CELLS)
    cells = [
        {"x": short(x_edges[i]), "y": short(y_edges[j]), "n": int(counts[i, j])}
        for i, j in zip(*np.nonzero(counts), strict=True)
    ]
    return cells, (short(x_edges[1] - x_edges[0]), short(y_edges[1] - y_edges[0]))


def line_chart(
    points: list[dict[str, Any]], *, period: str, measure: str, title: str, description: str
) -> dict[str, Any]:
    """A trend: the statistic per period as a line (with its points, when few), at most
    ``MAX_LINE_POINTS`` of them (past that, each averages a run of consecutive periods, and the title
    says so). Number
    periods (years) lie on a number axis, others (2025-03) in order on an axis that names at most
    ``AXIS_LABELS`` of them."""
    run = math.ceil(len(points) / MAX_LINE_POINTS) if points else 1
    if run > 1:
        title += f" (each point averages {run} consecutive {period}s)"
    values = [
        {"period": points[i]["period"], "value": short(np.mean([p["value"] for p in points[i : i + run]]))}
        for i in range(0, len(points), run)
    ]
    values, x = _time_axis(values)
    return _spec(
        title,
        description,
        values,
        mark={"type": "line", "point": len(values) <= DOTTED_POINTS, "tooltip": True},
        encoding={
            "x": {"field": "period", "title": period, **x},
            "y": {"field": "value", "type": "quantitative", "title": measure, "scale": {"zero": False}},
        },
    )


def _time_axis(values: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Number periods on a number axis (years as 1990, never 1,990), other periods as ordered labels
    of which the axis names every so many, at most ``AXIS_LABELS``."""
    if all(isinstance(v["period"], int | float) for v in values):
        years = {"format": "d", "tickMinStep": 1} if all(float(v["period"]).is_integer() for v in values) else {}
        axis = {"tickCount": AXIS_LABELS, "labelOverlap": True, **years}
        return values, {"type": "quantitative", "scale": {"zero": False}, "axis": axis}
    values = [{**v, "period": str(v["period"])} for v in values]
    shown = [v["period"] for v in values][:: math.ceil(len(values) / AXIS_LABELS) if values else 1]
    axis = {"values": shown, "labelOverlap": "parity", "labelAngle": _angle(shown)}
    return values, {"type": "ordinal", "sort": None, "axis": axis}


def _angle(labels: list[str]) -> int:
    """Labels side by side when the axis's 480 pixels hold them (about 60 characters), else slanted."""
    return -45 if sum(map(len, labels)) > 60 else 0


def box_plot(frame: pd.DataFrame, measure: str, group: str, *, title: str, description: str) -> dict[str, Any]:
    """The distribution of a measure in each group (at most ``MAX_BARS`` groups): the box from the first
    to the third quartile, the median, whiskers to the farthest value within 1.5 IQR. Computed here,
    so the chart carries one row per group, not the rows; groups in their natural order (months by
    the calendar)."""
    both = frame[[group, measure]].dropna()
    boxes = {str(key): _box(part[measure].astype(float)) for key, part in both.groupby(group, sort=True)}
    order = _order(list(boxes))[:MAX_BARS]
    values = [{"group": name, **boxes[name]} for name in order]
    y = {"type": "quantitative", "title": label(measure), "scale": {"zero": False}}
    return _spec(
        title,
        description,
        values,
        encoding={
            "x": {
                "field": "group",
                "type": "ordinal",
                "sort": order,
                "title": label(group),
                "axis": {"labelAngle": _angle(order)},
            }
        },
        layer=[
            {"mark": {"type": "rule"}, "encoding": {"y": {"field": "low", **y}, "y2": {"field": "high"}}},
            {
                "mark": {"type": "bar", "size": 24, "color": "#a9c4d9", "tooltip": True},
                "encoding": {"y": {"field": "q1", **y}, "y2": {"field": "q3"}},
            },
            {
                "mark": {"type": "tick", "size": 24, "thickness": 2, "color": "#2f6f9f"},
                "encoding": {"y": {"field": "median", **y}},
            },
        ],
    )


def _box(values: pd.Series) -> dict[str, Any]:
    q1, median, q3 = values.quantile([0.25, 0.5, 0.75])
    reach = 1.5 * (q3 - q1)
    inside = values[(values >= q1 - reach) & (values <= q3 + reach)]
    return {"n": int(values.size), "low": short(inside.min()), "q1": short(q1), "median": short(median),
            "q3": short(q3), "high": short(inside.max())}  # fmt: skip


def histogram(
    frame: pd.DataFrame, column: str, *, marks: dict[str, float | None], title: str, description: str
) -> dict[str, Any]:
    """The distribution of one column in at most ``MAX_BINS`` bins counted here, with a rule at each
    figure in ``marks`` (its mean, median...)."""
    values = frame[column].dropna().astype(float).to_numpy()
    edges = _edges(values)
    counts, _ = np.histogram(values, bins=edges)
    bins = [
        {"start": short(a), "end": short(b), "rows": int(n)} for a, b, n in zip(edges, edges[1:], counts, strict=False)
    ]
    rules = [{"label": name, "at": at} for name, at in marks.items() if at is not None]
    return _spec(
        title,
        description,
        bins,
        layer=[
            {
                "mark": {"type": "bar", "color": "#a9c4d9", "tooltip": True},
                "encoding": {
                    "x": {"field": "start", "type": "quantitative", "bin": {"binned": True}, "title": label(column)},
                    "x2": {"field": "end"},
                    "y": {
                        "field": "rows",
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


def _edges(values: np.ndarray) -> np.ndarray:
    """A bin per whole number when there are few (ratings 1 to 5: five bars, no gaps), else numpy's
    choice, at most ``MAX_BINS``."""
    if not values.size:
        return np.array([0.0, 1.0])
    low, high = values.min(), values.max()
    if high - low < MAX_BINS and bool((values % 1 == 0).all()):
        return np.arange(low - 0.5, high + 1.5)
    edges = np.histogram_bin_edges(values, bins="auto")
    return edges if len(edges) <= MAX_BINS + 1 else np.histogram_bin_edges(values, bins=MAX_BINS)


def percentage(value: float) -> str:
    """A percentage as words say it: at most one decimal (12.3, 250), two significant digits when it is
    under 1 (0.72, -0.072), never the four digits of "-0.07237"."""
    if value == 0:
        return "0"
    if abs(value) >= 0.95:
        return f"{value:.1f}".removesuffix(".0")
    return f"{value:.{1 - math.floor(math.log10(abs(value)))}f}".rstrip("0")


def signed(value: float, *, percent: bool = False) -> str:
    """A change with its sign: "+12.3%", "-4.5"."""
    return ("+" if value >= 0 else "") + (percentage(value) + "%" if percent else f"{value:.4g}")


def heatmap(
    cells: list[dict[str, Any]], *, x: str, y: str, amount: str, title: str, description: str, amount_title: str
) -> dict[str, Any]:
    """A grid of cells (one per pair of values, at most ``MAX_BARS`` squared), shaded by ``amount`` and
    labelled with it."""
    encoding = {
        "x": {"field": x, "type": "nominal", "title": label(x)},
        "y": {"field": y, "type": "nominal", "title": label(y)},
    }
    return _spec(
        title,
        description,
        [{**c, amount: short(c[amount])} for c in cells[: MAX_BARS * MAX_BARS] if c[amount] is not None],
        encoding=encoding,
        layer=[
            {
                "mark": {"type": "rect", "tooltip": True},
                "encoding": {"color": {"field": amount, "type": "quantitative", "title": amount_title}},
            },
            {"mark": {"type": "text", "fontSize": 11}, "encoding": {"text": {"field": amount, "format": ".3~g"}}},
        ],
    )
