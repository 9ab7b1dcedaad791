"""Vega-Lite specs the chart tests share: the hostile shapes of issue 40, one that passes the
pre-check yet only its process's limits stop, and a normal one; and Markdown that carries them."""

import json

TOO_LARGE = "Chart too large to draw — its data is in the table above."
POINTS = {"data": {"values": [{"a": 1, "b": 2}, {"a": 2, "b": 3}]}, "mark": "point"}
ENCODING = {"encoding": {"x": {"field": "a", "type": "quantitative"}, "y": {"field": "b", "type": "quantitative"}}}


def nested(depth):
    spec = {**POINTS, **ENCODING}
    for _ in range(depth):
        spec = {"layer": [spec]}
    return spec


HOSTILE = {
    "pad expression": {**POINTS, **ENCODING, "transform": [{"calculate": "pad('x', 1e9, 'x')", "as": "c"}]},
    "sequence expression": {
        **POINTS,
        **ENCODING,
        "transform": [{"calculate": "sequence(0, 1e8)", "as": "c"}, {"flatten": ["c"]}],
    },
    "impute": {**POINTS, **ENCODING, "transform": [{"impute": "b", "key": "a", "keyvals": {"start": 0, "stop": 1e8}}]},
    "impute, a string stop": {
        **POINTS,
        **ENCODING,
        "transform": [{"impute": "b", "key": "a", "keyvals": {"start": 0, "stop": "1e9"}}],
    },
    "sequence generator": {"data": {"sequence": {"start": 0, "stop": 1e8, "as": "a"}}, "mark": "tick"},
    "huge width and height": {**POINTS, **ENCODING, "width": 1e7, "height": 1e7},
    "deep nesting": nested(40),
    "300,000 inline values": {"data": {"values": [0] * 300_000}, "mark": "tick"},
}
INLINE = "300,000 inline values"
# Within every bound the spec can state, yet thousands of small multiples: stopped by the drawing
# process's wall-clock limit, then kept as too large.
SLOW = {
    "data": {"values": [{"a": i, "b": i} for i in range(3000)]},
    "mark": "point",
    "encoding": {**ENCODING["encoding"], "facet": {"field": "a", "columns": 60}},
}
NORMAL = {
    "title": "Cases by region",
    "description": "Bar chart of cases by region",
    "data": {"values": [{"region": r, "cases": 10 + i} for i, r in enumerate(["north", "south", "east"])]},
    "mark": "bar",
    "encoding": {"x": {"field": "region", "type": "nominal"}, "y": {"field": "cases", "type": "quantitative"}},
}


def charts_text(*specs):
    blocks = "\n\n".join(f"```vega-lite\n{json.dumps(spec)}\n```" for spec in specs)
    return f"| a | b |\n|--:|:--|\n| 1 | 2 |\n\n{blocks}\n"
