"""Row filters in every phrasing and both directions: a condition that keeps the rows it should
leave out (or the reverse) fails here, row by row."""

import pytest

from agents.analysis.filters import number_filters, value_filters
from agents.analysis.value_words import value_mentions

NUMBERS = ["price", "age", "weight_kg", "cylinders"]
ROWS = [{"price": p, "age": a, "weight_kg": w, "cylinders": c, "region": r}
        for p, a, w, c, r in [(50, 20, 900, 4, "north"), (100, 40, 1500, 6, "south"), (150, 60, 2100, 8, "east"),
                              (None, 70, 3000, 6, "north")]]  # fmt: skip
OPS = {
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def keeps(condition, row) -> bool:
    """The SQL meaning of a structured filter: a comparison with a missing value keeps nothing."""
    if "and" in condition:
        return all(keeps(c, row) for c in condition["and"])
    if "or" in condition:
        return any(keeps(c, row) for c in condition["or"])
    value = row[condition["column"]]
    if condition["op"] == "is_null":
        return (value is None) == condition["value"]
    if condition["op"] == "in":
        return value in condition["value"]
    return value is not None and OPS[condition["op"]](value, condition["value"])


def kept(text, columns=NUMBERS):
    [found] = number_filters(text, columns)
    return [row["price"] for row in ROWS if keeps(found.condition, row)]


@pytest.mark.parametrize(
    ("text", "prices"),
    [
        ("the mean age where price is above 100", [150]),
        ("the mean age where price is over 100", [150]),
        ("mean age for price greater than 100", [150]),
        ("mean age, price at least 100", [100, 150]),
        ("mean age for a price of 100 or more", [100, 150]),
        ("mean age where price is below 100", [50]),
        ("mean age where price is under 100", [50]),
        ("mean age where price is at most 100", [50, 100]),
        ("mean age for a price of 100 or less", [50, 100]),
        ("mean age with price between 60 and 140", [100]),
        ("mean age with price equal to 100", [100]),
        # Leaving rows out keeps the others, and the rows with no price at all.
        ("exclude the rows where price is above 100", [50, 100, None]),
        ("the mean age excluding prices over 100", [50, 100, None]),
        ("the mean age without the rows with price below 100", [100, 150, None]),
        ("leave out price at least 100", [50, None]),
        ("mean age, not counting price between 60 and 140", [50, 150, None]),
        ("mean age except where price is 100 or more", [50, None]),
    ],
)
def test_a_price_filter_keeps_exactly_the_rows_it_says(text, prices):
    assert kept(text) == prices


@pytest.mark.parametrize(
    ("text", "column", "ages"),
    [
        ("mean price of people older than 50", "age", [60, 70]),
        ("mean price of people younger than 50", "age", [20, 40]),
        ("mean price excluding people older than 50", "age", [20, 40]),
        ("mean price of cars with 6 or more cylinders", "cylinders", [40, 60, 70]),
        ("mean price of cars with more than 6 cylinders", "cylinders", [60]),
        ("mean price of cars heavier than 2,000 kg", "weight_kg", [60, 70]),
        ("mean price where weight is 1.5k or less", "weight_kg", [20, 40]),
        ("for customers over 50, the mean price", "age", [60, 70]),  # people over an age: their age
    ],
)
def test_the_filter_finds_its_column_by_name_adjective_or_the_word_after_the_number(text, column, ages):
    [found] = number_filters(text, NUMBERS)
    assert found.column == column
    assert [row["age"] for row in ROWS if keeps(found.condition, row)] == ages


@pytest.mark.parametrize(
    ("text", "regions"),
    [
        ("mean price for north only", ["north", "north"]),
        ("mean price excluding north", ["south", "east"]),
        ("mean price without the south", ["north", "east", "north"]),
        ("compare north and east", ["north", "east", "north"]),
    ],
)
def test_a_value_filter_keeps_or_leaves_out_the_values_named(text, regions):
    found = value_filters(text, value_mentions(text, {"region": ["north", "south", "east"]}))
    assert [row["region"] for row in ROWS if all(keeps(f.condition, row) for f in found)] == regions


def test_words_that_are_no_comparison_make_no_filter():
    assert number_filters("which region has the highest mean price?", NUMBERS) == []


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Which state has the most people below the poverty line, in total?", []),
        ("or should we look at the mean?", []),
        ("only the counties in IN and OH", ["IN", "OH"]),
        ("compare Indiana with Oregon", ["IN", "OR"]),
    ],
)
def test_a_state_code_that_is_also_a_word_is_named_only_in_capitals(text, named):
    states = {"state": ["IL", "IN", "OH", "OR", "ME"]}
    assert [value for _, value, _ in value_mentions(text, states)] == named


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Which element property goes most with the boiling point?", []),  # the W of "Which" is no tungsten
        ("Which block's ions are largest?", []),  # the s of "block's" is no s block
        ("In the isotope table, which field is empty most often?", []),  # a sentence's "In" is no indium
        ("the price of W against He, and of In", ["W", "He", "In"]),
        ("the s block against the p-block", ["s", "p"]),
    ],
)
def test_a_one_or_two_letter_value_is_named_only_as_a_word_of_its_own(text, named):
    elements = {"symbol": ["W", "He", "In"], "block": ["s", "p", "d", "f"]}
    assert [value for _, value, _ in value_mentions(text, elements)] == named


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Since January 2017, which stock climbed fastest?", {"column": "month", "op": ">=", "value": "2017-01-01"}),
        ("prices before March 2020", {"column": "month", "op": "<", "value": "2020-03-01"}),
        ("after Feb 2020", {"column": "month", "op": ">", "value": "2020-02-29"}),
        ("the mean in June 2019", {"and": [{"column": "month", "op": ">=", "value": "2019-06-01"},
                                          {"column": "month", "op": "<=", "value": "2019-06-30"}]}),
    ],
)  # fmt: skip
def test_a_month_of_a_year_bounds_the_tables_date(text, condition):
    found = number_filters(text, ["ibm"], ranges={"ibm": (1, 200)}, times=["month"], dates=["month"])
    assert [f.condition for f in found] == [condition]


@pytest.mark.parametrize(
    ("text", "column"),
    [("the eruptions lasting over 250 seconds", "duration_s"), ("trips under 3 hours", "trip_h")],
)
def test_a_unit_spelt_out_bounds_the_column_its_short_form_names(text, column):
    ranges = {"waiting_min": (50.0, 200.0), "duration_s": (60.0, 300.0), "trip_h": (0.5, 9.0)}
    [found] = number_filters(text, list(ranges), ranges=ranges)
    assert found.condition["column"] == column


def test_two_months_of_one_year_bound_the_date_from_the_first_day_to_the_last():
    [found] = number_filters("From January to September 2015, was it growing?", ["kwh"], dates=["date"], times=["date"])
    assert found.condition == {"and": [{"column": "date", "op": ">=", "value": "2015-01-01"},
                                       {"column": "date", "op": "<=", "value": "2015-09-30"}]}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("the mean mass of the isotopes found in 1939 or earlier", "<="),
        ("the mean mass of the isotopes found in 1950 or later", ">="),
        ("the mean mass of the isotopes found in 1950", "="),  # the year itself
    ],
)
def test_a_year_said_with_or_earlier_or_later_bounds_the_years(text, op):
    [found] = number_filters(text, ["mass", "found_year"], times=["found_year"],
                             ranges={"mass": (1, 300), "found_year": (1800, 2020)})  # fmt: skip
    assert found.column == "found_year"
    assert found.condition["op"] == op
