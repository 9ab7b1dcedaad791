"""Everyday ways of naming things that public tables spell otherwise: a rate for a per-1,000 column, a
country by its common name, a year said as "the 2007 ...", "from 1990 on", "on average" (no value), a
peak (a row asked for). Each is read into the request a careful analyst would run."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

COUNTRIES = ["Canada", "Korea, Rep.", "Japan", "United Kingdom", "United States", "Russian Federation", "Viet Nam"]
EMISSIONS = Schema("emissions", [
    {"name": "country", "type": "string", "distinct": 7, "values": COUNTRIES},
    {"name": "year", "type": "number", "distinct": 60, "min": 1950, "max": 2012, "role": "time"},
    {"name": "co2_tonnes_per_person", "type": "number", "distinct": 400, "min": 0, "max": 30},
], 420)  # fmt: skip
MARRIAGES = Schema("marriages", [
    {"name": "year", "type": "number", "distinct": 145, "min": 1867, "max": 2011, "role": "time"},
    {"name": "marriages", "type": "number", "distinct": 145, "min": 3e5, "max": 2.5e6},
    {"name": "marriages_per_1000", "type": "number", "distinct": 100, "min": 6, "max": 17},
], 145)  # fmt: skip
POKER = Schema("poker", [
    {"name": "skill", "type": "string", "distinct": 2, "values": ["average", "expert"]},
    {"name": "hand", "type": "string", "distinct": 3, "values": ["bad", "neutral", "good"]},
    {"name": "balance", "type": "number", "distinct": 300, "min": -5, "max": 30},
], 300)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("How did CO2 per person change in the US?", "United States"),
        ("CO2 per person trend for the UK", "United Kingdom"),
        ("How has South Korea's CO2 per person moved?", "Korea, Rep."),
        ("co2 per person in Russia over the years", "Russian Federation"),
        ("What about Vietnam's CO2 per person over time?", "Viet Nam"),
    ],
)
def test_a_country_said_by_its_common_name_keeps_its_rows(text, country):
    request = read_question(text, EMISSIONS)
    assert {"column": "country", "op": "=", "value": country} in request.filters


def test_us_and_uk_in_lower_case_are_words_not_countries():
    request = read_question("Let us see the trend of co2 per person, uk-style", EMISSIONS)
    assert not [f for f in request.filters if f["column"] == "country"]


@pytest.mark.parametrize(
    "text",
    ["What year had the highest marriage rate?", "Plot the trend in the marriage rate", "marriage rate in 1950?"],
)
def test_a_rate_names_the_per_1000_column_over_the_count(text):
    assert read_question(text, MARRIAGES).measures == ["marriages_per_1000"]


def test_the_count_is_still_the_count():
    assert read_question("How many marriages were there in 1950?", MARRIAGES).measures == ["marriages"]


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("the 2007 CO2 per person of each country", {"column": "year", "op": "=", "value": 2007}),
        ("What was 2007's highest CO2 per person?", {"column": "year", "op": "=", "value": 2007}),
        ("From 1990 on, which country cut CO2 per person the most?", {"column": "year", "op": ">=", "value": 1990}),
    ],
)
def test_a_year_said_in_passing_keeps_its_rows(text, condition):
    assert condition in read_question(text, EMISSIONS).filters


def test_on_average_is_no_average_player():
    request = read_question("Which hand ended with the highest balance on average?", POKER)
    assert request.filters == [] and request.group == "hand"
    assert read_question("Do average players end with a lower balance?", POKER).filters == [
        {"column": "skill", "op": "=", "value": "average"}
    ]


def test_a_peak_asks_for_the_row():
    request = read_question("When did Japan's CO2 per person peak?", EMISSIONS)
    assert request.kind == "which_row" and request.label == "year" and request.direction == "high"
