"""The charts of stats.* over 5,000 rows: each carries what it draws (bins, cells, boxes, periods), never
the rows, so it stays a few kilobytes; months lie in calendar order and a long time axis names a dozen
periods, not every one."""

import calendar
import json

import numpy as np
import pandas as pd
import pytest

from agents.operations.stats import charts
from tests.agents.sap_calls import call, statistician_world

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

ROWS = 5000
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@pytest.fixture
def big():
    world = statistician_world()
    rng = np.random.default_rng(7)
    x = rng.normal(50, 10, ROWS)
    y = 2 * x + rng.normal(0, 15, ROWS)
    days = np.datetime64("2000-01-01") + np.arange(ROWS)
    lines = ["day,year,month,x,y,group"]
    for i in range(ROWS):
        month = int(str(days[i])[5:7])
        lines.append(f"{days[i]},{1970 + i % 49},{month},{x[i]:.6f},{y[i] + 3 * month:.6f},{'abc'[i % 3]}")
    call(world, "action", "file.write", {"path": "big.csv", "content": "\n".join(lines) + "\n"})
    call(world, "action", "dataset.import-csv", {"path": "big.csv", "table": "big"})
    return lambda name, body: call(world, "query", name, {"table": "big", **body}).body


def bounded(chart, most=500):
    """The chart's own data values, checked to be at most ``most`` and the spec under 20 KB."""
    size = len(json.dumps(chart, separators=(",", ":")))
    values = chart["data"]["values"]
    assert len(values) <= most and size < 20_000, (len(values), size)
    return values


def test_a_scatter_of_5000_rows_is_a_binned_heatmap_with_its_fit_and_says_so(big):
    answer = big("stats.associate", {"outcome": "y", "variables": ["x"]})
    chart = answer["chart"]
    cells = bounded(chart)
    assert sum(c["n"] for c in cells) == ROWS
    assert "binned: 5,000 rows" in chart["title"] and "binned: 5,000 rows" in chart["description"]  # and its alt text
    assert [layer["mark"]["type"] for layer in chart["layer"]] == ["rect", "line"]
    slope = answer["variables"][0]["slope"]
    (start, end) = chart["layer"][1]["data"]["values"]  # the fit of every row, not of a sample
    assert round((end["y"] - start["y"]) / (end["x"] - start["x"]), 2) == round(slope, 2)


def test_a_distribution_is_a_histogram_of_counted_bins(big):
    chart = big("stats.describe", {"columns": ["x"]})["chart"]
    bins = bounded(chart, most=30)
    assert sum(b["rows"] for b in bins) == ROWS and all(b["start"] < b["end"] for b in bins)


def test_a_daily_trend_over_13_years_draws_per_period_aggregates_on_a_readable_axis(big):
    chart = big("stats.trend", {"time": "day", "measure": "y", "period": "day"})["chart"]
    points = bounded(chart, most=300)
    assert "each point averages 17 consecutive days" in chart["title"] and points[0]["period"] == "2000-01-01"
    assert len(chart["encoding"]["x"]["axis"]["values"]) <= 12


def test_49_years_lie_on_a_number_axis_of_a_dozen_year_labels(big):
    chart = big("stats.trend", {"time": "year", "measure": "y"})["chart"]
    assert len(bounded(chart)) == 49
    x = chart["encoding"]["x"]
    assert x["type"] == "quantitative" and x["axis"]["format"] == "d" and x["axis"]["tickCount"] <= 12


def test_months_are_ordinal_in_calendar_order(big):
    by_number = big("stats.compare", {"measure": "y", "group_by": "month"})["chart"]
    assert by_number["encoding"]["y"]["type"] == "ordinal" and by_number["encoding"]["y"]["sort"] == MONTHS
    assert by_number["data"]["values"][0]["group"] in MONTHS  # highest first, still the one in the stronger colour
    by_date = big("stats.compare", {"measure": "y", "group_by": "day", "cycle": "month_of_year"})["chart"]
    assert by_date["encoding"]["y"]["sort"] == list(calendar.month_name)[1:]  # a date's months said in full
    trend = big("stats.trend", {"time": "month", "measure": "y"})["chart"]
    assert [p["period"] for p in trend["data"]["values"]] == MONTHS and trend["encoding"]["x"]["type"] == "ordinal"
    against = big("stats.associate", {"outcome": "y", "variables": ["month"]})["chart"]
    assert against["encoding"]["x"] == {**against["encoding"]["x"], "type": "ordinal", "sort": MONTHS}
    assert [box["group"] for box in bounded(against)] == MONTHS


def test_box_plots_carry_one_summary_per_group(big):
    chart = big("stats.associate", {"outcome": "group", "variables": ["x"]})["chart"]
    boxes = bounded(chart, most=3)
    assert [b["group"] for b in boxes] == ["a", "b", "c"] and sum(b["n"] for b in boxes) == ROWS
    assert all(b["low"] <= b["q1"] <= b["median"] <= b["q3"] <= b["high"] for b in boxes)


def test_whole_numbers_get_a_bin_each_and_a_far_value_no_more_than_30():
    ratings = pd.DataFrame({"stars": [1, 2, 2, 3, 3, 3, 4, 5] * 50})
    bins = charts.histogram(ratings, "stars", marks={}, title="t", description="d")["data"]["values"]
    assert [(b["start"], b["end"], b["rows"]) for b in bins] == [(k - 0.5, k + 0.5, n * 50) for k, n in
                                                                 ((1, 1), (2, 2), (3, 3), (4, 1), (5, 1))]  # fmt: skip
    far = pd.DataFrame({"price": [*np.random.default_rng(0).normal(size=20_000), 1e12]})
    assert len(charts.histogram(far, "price", marks={}, title="t", description="d")["data"]["values"]) <= 30
