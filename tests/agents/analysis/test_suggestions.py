"""The questions offered when a CSV is attached: from the columns' roles, of different kinds, in plain
words, never about an identifier, and each one the analyst reads as the kind it was offered as."""

import pytest

from agents.analysis.schema import Schema
from agents.analysis.suggestions import MOST, suggested_questions
from agents.behaviours.answering import request_for, with_roles
from agents.behaviours.instructions import Column, settings_of, understand

RETAIL = Schema("retail", [
    {"name": "date", "type": "date", "distinct": 20, "min": "2020-01-15", "max": "2024-10-15"},
    {"name": "shop", "type": "string", "distinct": 6, "values": ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir"]},
    {"name": "region", "type": "string", "distinct": 3, "values": ["east", "north", "south"]},
    {"name": "sales", "type": "number", "distinct": 110, "min": 20, "max": 80},
    {"name": "visitors", "type": "number", "distinct": 110, "min": 200, "max": 900},
    {"name": "basket", "type": "number", "distinct": 110, "min": 15, "max": 40},
], 120)  # fmt: skip
CARS = Schema("cars", [
    {"name": "car_id", "type": "number", "distinct": 398, "min": 1, "max": 398},
    {"name": "model", "type": "string", "distinct": 390},
    {"name": "origin", "type": "string", "distinct": 3, "values": ["Europe", "Japan", "USA"]},
    {"name": "fuel", "type": "string", "distinct": 2, "values": ["diesel", "petrol"]},
    {"name": "sold_on", "type": "date", "distinct": 398},
    {"name": "price_eur", "type": "number", "distinct": 380, "min": 900, "max": 64000},
    {"name": "mpg", "type": "number", "distinct": 120, "min": 9, "max": 47},
    {"name": "weight_kg", "type": "number", "distinct": 300, "min": 700, "max": 2400},
], 398)  # fmt: skip
PENGUINS = Schema("penguins", [
    {"name": "penguin_id", "type": "number", "distinct": 344, "min": 1, "max": 344},
    {"name": "species", "type": "string", "distinct": 3, "values": ["Adelie", "Chinstrap", "Gentoo"]},
    {"name": "island", "type": "string", "distinct": 3, "values": ["Biscoe", "Dream", "Torgersen"]},
    {"name": "bill_length_mm", "type": "number", "distinct": 160, "min": 32, "max": 60},
    {"name": "flipper_length_mm", "type": "number", "distinct": 55, "min": 172, "max": 231},
    {"name": "body_mass_g", "type": "number", "distinct": 94, "min": 2700, "max": 6300},
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "year", "type": "number", "distinct": 3, "min": 2007, "max": 2009, "values": [2007, 2008, 2009]},
], 344)  # fmt: skip
ONE_MEASURE = Schema("readings", [
    {"name": "reading_no", "type": "number", "distinct": 40, "min": 1, "max": 40},
    {"name": "ozone", "type": "number", "distinct": 35, "min": 4, "max": 160},
], 40)  # fmt: skip
TRIAL = Schema("trial", [
    {"name": "patient", "type": "number", "distinct": 120, "min": 1000, "max": 1119},
    {"name": "treatment", "type": "string", "distinct": 2, "values": ["drug", "placebo"]},
    {"name": "blood_pressure", "type": "number", "distinct": 110, "min": 95, "max": 150},
    {"name": "recovery_days", "type": "number", "distinct": 100, "min": 2, "max": 22},
    {"name": "relapsed", "type": "string", "distinct": 2, "values": ["no", "yes"]},
], 120)  # fmt: skip
TITANIC = Schema("titanic", [
    {"name": "class", "type": "string", "distinct": 4, "values": ["1st", "2nd", "3rd", "crew"]},
    {"name": "age_group", "type": "string", "distinct": 2, "values": ["adult", "child"]},
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "survived", "type": "string", "distinct": 2, "values": ["no", "yes"]},
], 2201)  # fmt: skip
TABLES = {
    "retail": RETAIL, "cars": CARS, "penguins": PENGUINS, "one measure": ONE_MEASURE, "trial": TRIAL, "titanic": TITANIC
}  # fmt: skip


def offered(schema):
    table = with_roles(schema, {}, {})
    return table, suggested_questions(table)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_suggestion_is_read_back_as_its_kind_about_the_columns_it_names(name):
    table, suggestions = offered(TABLES[name])
    assert 4 <= len(suggestions) <= MOST
    for suggestion in suggestions:
        request = request_for(suggestion.question, table, [])
        read = {*request.measures, request.group, request.outcome, request.time, request.second} - {None}
        assert request.kind == suggestion.kind, suggestion.question
        assert set(suggestion.columns) <= read and not request.missing, suggestion.question


@pytest.mark.parametrize("name", list(TABLES))
def test_suggestions_are_of_different_kinds_and_never_about_an_identifier(name):
    table, suggestions = offered(TABLES[name])
    identifiers = {c["name"] for c in table.columns if c["role"] == "identifier"}
    assert len({s.kind for s in suggestions}) == len(suggestions)
    for suggestion in suggestions:
        assert not identifiers & set(suggestion.columns)
        read = request_for(suggestion.question, table, [])
        assert not identifiers & {*read.measures, read.group, read.outcome, read.time, read.second}


@pytest.mark.parametrize("name", list(TABLES))
def test_asking_a_suggestion_changes_no_setting(name):
    """Asked as a new direction, a suggestion is a question only: no words of it read as a correction
    ("the shop groups" would make shop a category from then on, and the earlier answers stale)."""
    table, suggestions = offered(TABLES[name])
    columns = [Column(table.table, c["name"], c["type"], ()) for c in table.columns]
    for suggestion in suggestions:
        understood = understand(suggestion.question, columns, settings_of(None), asking=True)
        assert not understood.changed, (suggestion.question, understood.done)


def test_a_table_of_measures_groups_and_time_is_asked_the_questions_analysts_ask_first():
    _, suggestions = offered(RETAIL)
    assert [s.question for s in suggestions] == [
        "Which region has the highest average sales?",
        "How did the average sales change over time?",
        "Which measure goes most with sales?",
        "Is the difference in sales by region statistically significant?",
        "Are there any outliers in visitors?",
        "What share of the rows does each shop account for?",
    ]


def test_columns_are_named_in_plain_words_and_the_outcome_like_measure_comes_first():
    _, suggestions = offered(PENGUINS)
    questions = " ".join(s.question for s in suggestions)
    assert "_" not in questions and "body mass g" in questions
    assert suggestions[0].question == "Which species has the highest average body mass g?"
    assert suggestions[0].columns == ("body_mass_g", "species")


def test_two_groups_are_named_by_their_values_in_the_test_of_their_difference():
    _, suggestions = offered(TRIAL)
    test = next(s for s in suggestions if s.kind == "significance")
    assert test.question == "Is the difference in recovery days between drug and placebo statistically significant?"
    _, suggestions = offered(PENGUINS)
    test = next(s for s in suggestions if s.kind == "significance")
    assert test.question == "Is the difference in body mass g between female and male statistically significant?"


def test_a_yes_no_outcome_is_tested_and_crossed_when_nothing_is_measured():
    _, suggestions = offered(TITANIC)
    assert [s.question for s in suggestions] == [
        "Is the difference in survived between adult and child statistically significant?",
        "What share of the rows does each sex account for?",
        "Are class and survived related?",
        "Which columns have missing values?",
    ]


def test_a_year_column_offers_a_forecast_past_its_last_year():
    table = with_roles(PENGUINS, {}, {})
    suggestions = suggested_questions(table, most=10)
    forecast = next(s for s in suggestions if s.kind == "forecast")
    assert forecast.question == "If the trend continues, what will the average body mass g be in 2011?"


def test_a_table_with_one_measure_and_no_groups_still_offers_what_it_can_answer():
    _, suggestions = offered(ONE_MEASURE)
    assert [s.question for s in suggestions] == [
        "Are there any outliers in ozone?",
        "How is ozone distributed?",
        "What is the median ozone?",
        "Which columns have missing values?",
    ]
