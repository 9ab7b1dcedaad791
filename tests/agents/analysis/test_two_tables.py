"""When a question needs two tables: the columns it names (or the values it says) are held by no one
table, but by two between them."""

from agents.analysis.schema import Schema
from agents.analysis.two_tables import join_name, pair_to_join, without_joins

COUNTRIES = Schema(
    "countries",
    [
        {"name": "iso3", "type": "string", "distinct": 11},
        {"name": "country", "type": "string", "distinct": 11},
        {"name": "region", "type": "string", "distinct": 3, "values": ["Africa", "Asia", "Europe"]},
    ],
    11,
)
POPULATIONS = Schema(
    "populations",
    [
        {"name": "iso3", "type": "string", "distinct": 11},
        {"name": "population", "type": "number", "distinct": 11},
    ],
    11,
)
GDP = Schema("gdp", [{"name": "iso3", "type": "string"}, {"name": "gdp", "type": "number"}], 11)


def test_a_group_of_one_table_and_a_measure_of_another_need_both():
    pair = pair_to_join("Which region has the highest average population?", [POPULATIONS, COUNTRIES])
    assert pair is not None and (pair.left, pair.right) == ("countries", "populations") and pair.by_name
    assert pair.named == {"countries": ["region"], "populations": ["population"]}


def test_a_value_said_counts_but_is_weaker_than_a_column_named():
    pair = pair_to_join("What is the average population in Asia?", [COUNTRIES, POPULATIONS])
    assert pair is not None and pair.named["countries"] == ["region"] and not pair.by_name


def test_a_question_one_table_answers_needs_no_join():
    assert pair_to_join("Which region has the most countries?", [COUNTRIES, POPULATIONS]) is None
    assert pair_to_join("What is the mean population?", [COUNTRIES, POPULATIONS, GDP]) is None
    assert pair_to_join("Which region has the highest average population?", [COUNTRIES]) is None


def test_a_join_the_analyst_made_is_no_table_of_the_data():
    tables = ["countries", join_name("countries", "populations"), "populations"]
    assert without_joins(tables) == ["countries", "populations"]
