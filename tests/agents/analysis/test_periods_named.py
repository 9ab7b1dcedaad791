"""A quarterly series answered by its quarters: "which quarter stands out" names the rows by the date one a
row (not the row number beside it), and says each as the file and the question do, "2013 Q1"; a month's
date as the file writes it (plain Python)."""

from agents.analysis import looks
from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema

QUARTERS = Schema("changes", [
    {"name": "obs", "type": "number", "distinct": 187, "role": "identifier"},
    {"name": "quarter", "type": "date", "distinct": 187, "min": "1970-01-01", "max": "2016-07-01"},
    {"name": "savings", "type": "number", "distinct": 187, "min": -69, "max": 50},
    {"name": "income", "type": "number", "distinct": 187, "min": -4, "max": 5},
], 187)  # fmt: skip


def test_which_quarter_names_the_rows_by_their_quarter():
    request = read_question("Which quarter has the most anomalous savings change?", QUARTERS)
    assert (request.kind, request.label, request.period) == ("outliers", "quarter", "quarter")


def test_a_quarter_is_said_as_a_quarter_and_any_other_date_as_written():
    result = {"listed": [{"label": "2013-01-01", "value": -68.8, "side": "low", "group": None, "mad_flags": True}],
              "count": 1, "within": None, "fences": [{"low": -20.5, "high": 23.0}]}  # fmt: skip
    request = read_question("Which quarter has the most anomalous savings change?", QUARTERS)
    assert "the most extreme is **2013 Q1**" in looks.outliers(request, result)[0]
    request.period = "month"  # a month's first day is the date the file writes
    assert "**2013-01-01**" in looks.outliers(request, result)[0]
    request.period = "day"
    assert "**2013-01-01**" in looks.outliers(request, result)[0]


YEARS = Schema("catches", [
    {"name": "year", "type": "number", "distinct": 114, "min": 1821, "max": 1934},
    {"name": "pelts", "type": "number", "distinct": 110, "min": 39, "max": 6991},
], 114)  # fmt: skip


def test_per_year_of_a_table_of_years_is_a_unit_and_a_change_said_still_a_course():
    request = read_question("What is the median number of pelts taken per year?", YEARS)
    assert (request.kind, request.statistic, request.measures) == ("statistic", "median", ["pelts"])
    assert "year" not in str(read_back("What is the median number of pelts taken per year?", YEARS, request).said())
    assert read_question("How did the pelts taken per year change?", YEARS).kind == "trend"


def test_the_quarter_of_the_year_groups_a_date_called_quarter_by_its_place_in_the_year():
    text = "In which quarter of the year (Q1 to Q4) is the savings change lowest on average over 1970-2016?"
    request = read_question(text, QUARTERS)
    assert (request.kind, request.group, request.cycle) == ("compare", "quarter", "quarter_of_year")
    assert request.filters == [{"and": [{"column": "quarter", "op": ">=", "value": "1970-01-01"},
                                        {"column": "quarter", "op": "<=", "value": "2016-12-31"}]}]  # fmt: skip


def test_a_measure_that_holds_changes_said_with_its_word_asks_no_course():
    request = read_question(
        "In quarters when income rose (a change above zero), what was the mean savings change?", QUARTERS
    )
    assert request.kind == "statistic"
    assert read_question("How did the savings change over the years?", QUARTERS).kind == "trend"


def test_which_quarter_saw_the_largest_rise_of_a_quarterly_table_is_no_quarter_of_the_year():
    assert read_question("Which quarter saw the largest rise in savings?", QUARTERS).cycle is None
    request = read_question(
        "From 1970 to 2016, which calendar quarter saw the largest percentage increase in savings?", QUARTERS
    )
    assert (request.kind, request.cycle) == ("growth", "quarter_of_year")


MONTHS = Schema("closes", [
    {"name": "month", "type": "date", "distinct": 390, "min": "1990-01-01", "max": "2022-06-01"},
    {"name": "nasdaq", "type": "number", "distinct": 390, "min": 300, "max": 16000},
], 390)  # fmt: skip


def test_which_month_of_a_table_of_months_is_one_of_its_rows_unless_the_place_in_the_year_is_said():
    request = read_question("In which month did the Nasdaq hit its lowest close (looking at 2001-2004)?", MONTHS)
    assert (request.kind, request.label, request.cycle) == ("which_row", "month", None)
    request = read_question("In which calendar month is the Nasdaq lowest on average?", MONTHS)
    assert (request.kind, request.cycle) == ("compare", "month_of_year")
