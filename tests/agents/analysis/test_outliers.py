"""Outliers as a person reads them: measured within the groups a question compares (the gap between
groups is the finding, not an outlier), never bounded below zero for a measure that cannot be
negative, and asked about in one short sentence with the details folded."""

import pandas as pd

from agents.analysis import outliers
from agents.operations.stats.engine import far_values

# 200 small things around 10 and one odd one at 20; 8 big things around 100.
SMALL = [10.0 + (i % 5 - 2) for i in range(200)] + [20.0]
BIG = [100.0 + i % 3 for i in range(8)]
FRAME = pd.DataFrame({"kind": ["small"] * len(SMALL) + ["big"] * len(BIG), "size": SMALL + BIG})


def test_pooled_the_big_group_itself_looks_like_outliers():
    pooled = far_values(FRAME, "size")
    assert pooled["values"] == sorted(BIG) and 20.0 not in pooled["values"]


def test_within_each_group_only_the_odd_value_of_its_group_is_an_outlier():
    within = far_values(FRAME, "size", within="kind")
    assert within["values"] == [20.0]
    assert within["farthest"] == [{"value": 20.0, "group": "small"}]
    assert [g["group"] for g in within["groups"]] == ["big", "small"]


def test_a_measure_that_is_never_negative_gets_no_bound_below_zero():
    skewed = pd.DataFrame({"amount": [1.0] * 30 + [500.0]})
    far = far_values(skewed, "amount")
    assert far["low"] is None and far["high"] > 0 and far["values"] == [500.0]
    assert outliers.bounds_words(far["low"], far["high"]) == f"above {round(far['high'], 2)}"
    signed = pd.DataFrame({"change": [-1.0, 1.0] * 15 + [500.0]})
    assert far_values(signed, "change")["low"] < 0  # a measure that can be negative keeps its lower bound


def test_leaving_them_out_keeps_each_group_within_its_own_bounds():
    far = far_values(FRAME, "size", within="kind")
    kept = outliers.kept_rows("size", far)
    groups = [c for c in kept["or"] if "and" in c]
    small = next(g for g in groups if g["and"][0]["value"] == "small")
    low, high = (c["value"] for c in small["and"][1:])
    assert 0 < low < 8.0 and 12.0 < high < 20.0  # the small things' own mean ± 3 SDs
    big = next(g for g in groups if g["and"][0]["value"] == "big")
    assert big["and"][2]["value"] > 102.0  # the big things stay: they are the difference, not outliers


def test_the_question_is_one_short_sentence_and_the_bounds_are_its_details():
    far = far_values(FRAME, "size", within="kind")
    text, details = outliers.question([outliers.Pending("things", "size", far, None)])
    assert (
        text == "Far from the rest of their kind group: 1 value of size (20.0 in small). Leave them out of the figures?"
    )
    assert "(small: outside" in details and "Yes leaves them out" in details
    many = [outliers.Pending("t", f"col_{i}", far, None) for i in range(6)]
    text, _ = outliers.question(many)
    assert len(text) < 240 and "3 more in 3 other columns" in text


def test_columns_are_said_as_words_never_table_dot_column():
    assert outliers.targets_words(["cancer.mean_area", "cancer.mean_radius"]) == "mean area and mean radius"
    assert outliers.targets_words(["orders.price", "refunds.amount"]) == "price in orders and amount in refunds"
