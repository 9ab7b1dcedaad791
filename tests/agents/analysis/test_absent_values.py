"""Values a row does not have, said without the word "missing": "don't list a hub height", "no UN
membership year" of a column never 0, and "which column has the most gaps" over every column, whatever
unit the count is said in (plain Python)."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

COUNTRIES = Schema("countries", [
    {"name": "country", "type": "string", "distinct": 250},
    {"name": "continent", "type": "string", "distinct": 6, "values": ["Africa", "America", "Asia", "Europe",
                                                                      "Oceania", "Antarctica"]},
    {"name": "un_member_since", "type": "number", "distinct": 50, "min": 1945, "max": 2011},
    {"name": "children_per_woman", "type": "number", "distinct": 200, "min": 0, "max": 7},
], 250)  # fmt: skip
TURBINES = Schema("turbines", [
    {"name": "turbine_type", "type": "string", "distinct": 140},
    {"name": "hub_height_m", "type": "number", "distinct": 60, "min": 30, "max": 160},
], 140)  # fmt: skip
STOCKS = Schema("stocks", [
    {"name": "month", "type": "date", "distinct": 390},
    {"name": "ibm", "type": "number", "distinct": 390, "min": 10, "max": 200},
    {"name": "dell", "type": "number", "distinct": 70, "min": 5, "max": 60},
], 390)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "schema", "measures"),
    [
        ("How many entries in the country list have no UN membership year?", COUNTRIES, ["un_member_since"]),
        ("how many turbine models don't list a hub height", TURBINES, ["hub_height_m"]),
        ("Which column has the most gaps in the stock table, and how many months are missing there?", STOCKS, []),
        ("How much is missing in the country list?", COUNTRIES, []),  # the list is the table, not its country
    ],
)
def test_absent_values_said_in_other_words_are_counted(question, schema, measures):
    request = read_question(question, schema)
    assert (request.kind, request.measures) == ("missing", measures)


def test_no_value_of_a_column_that_can_be_zero_keeps_the_rows_at_zero():
    request = read_question("What is the mean UN membership year of countries with no children per woman?", COUNTRIES)
    assert request.kind != "missing"


def test_without_a_value_of_a_grouping_leaves_its_rows_out():
    request = read_question("What is the mean UN membership year without the African continent?", COUNTRIES)
    assert request.kind != "missing"
