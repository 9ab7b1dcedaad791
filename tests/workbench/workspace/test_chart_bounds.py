"""The bounds a chart's spec is checked against before anything draws it (workspace/chart_bounds.py):
whatever JSON a message carries, the check answers with the spec or a reason, and the charts the
workbench's own analysts draw pass it."""

import json

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.operations.stats import charts
from workspace.chart_bounds import ChartError, parse_spec

KEYS = ["data", "values", "sequence", "start", "stop", "step", "transform", "calculate", "filter", "impute", "fold",
        "window", "bin", "maxbins", "width", "height", "tickCount", "repeat", "mark", "layer", "datasets", "expr",
        "regression", "order", "keyvals", "url", "graticule", "nice", "x"]  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_any_json_is_either_a_spec_within_the_bounds_or_a_reason(value):
    try:
        assert isinstance(parse_spec(json.dumps(value)), dict)
    except ChartError as error:
        assert str(error)


def test_the_analysts_own_charts_are_within_the_bounds():
    rows = np.random.default_rng(1)
    frame = pd.DataFrame({"x": rows.normal(size=4500), "y": rows.normal(size=4500), "g": ["a", "b", "c"] * 1500})
    points = [{"period": f"2024-{month:02}", "value": month} for month in range(1, 13)]
    values = [{"shop": f"s{i}", "mean": float(i)} for i in range(40)]
    made = [
        charts.bar_chart(values, category="shop", amount="mean", title="t", description="d", amount_title="m"),
        charts.scatter_with_fit(frame, "x", "y", title="t", description="d"),
        charts.scatter_within_groups(frame.head(300), "x", "y", "g", 0.5, title="t", description="d"),
        charts.box_plot(frame, "x", "g", title="t", description="d"),
        charts.line_chart(points, period="month", measure="sales", title="t", description="d"),
        charts.histogram(frame, "x", marks={"mean": 0.0, "median": 0.1}, title="t", description="d"),
    ]
    for spec in made:
        assert parse_spec(json.dumps(spec)) == spec
