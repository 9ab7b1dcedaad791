"""Cars by where their makers are from, asked in everyday words: a region coded US/EU/JP said as
American, European or Japanese; "for each region" groups a rate before "whose"; "got more expensive" is
a change; "controlling for" names no column cut short; "the top 3" keeps no row of 3; "year by year,
which direction" is a trend."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

MODELS = Schema("models", [
    {"name": "year", "type": "number", "distinct": 20, "min": 1971, "max": 1990, "role": "time"},
    {"name": "firm_id", "type": "number", "distinct": 26, "min": 1, "max": 26, "values": list(range(1, 27))},
    {"name": "region", "type": "string", "distinct": 3, "values": ["EU", "JP", "US"]},
    {"name": "body", "type": "string", "distinct": 4, "values": ["sedan", "minivan", "pickup", "SUV"]},
    {"name": "price_k", "type": "number", "distinct": 2000, "min": 3, "max": 70},
    {"name": "hp_per_weight", "type": "number", "distinct": 900, "min": 0.1, "max": 1.2},
    {"name": "air_con", "type": "number", "distinct": 2, "values": [0, 1]},
    {"name": "solar_twh", "type": "number", "distinct": 200, "min": 0, "max": 600},
    {"name": "mpg", "type": "number", "distinct": 40, "min": 9, "max": 50},
], 2217)  # fmt: skip


def read(text):
    return read_question(text, MODELS).as_dict()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Whose cars were thriftiest on fuel - American, European or Japanese? average mpg per region",
         {"kind": "compare", "group": "region", "measures": ["mpg"],
          "filters": [{"column": "region", "op": "in", "value": ["US", "EU", "JP"]}]}),
        ("Fitting a line of price against year for each region, whose prices climbed fastest ($k per year)?",
         {"kind": "rate", "group": "region", "time": "year", "measures": ["price_k"]}),
        ("Which body type got more expensive fastest, dollars (thousands) per year?",
         {"kind": "rate", "group": "body", "time": "year", "measures": ["price_k"]}),
        ("Controlling for region of origin, how much does price go up per unit of horsepower-to-weight?",
         {"kind": "adjusted", "controls": ["region"], "measures": ["hp_per_weight"], "outcome": "price_k"}),
        ("Top 3 solar power producers by region?", {"kind": "top", "n": 3, "filters": []}),
        ("Japanese models' mean price year by year: which direction?",
         {"kind": "trend", "measures": ["price_k"], "filters": [{"column": "region", "op": "=", "value": "JP"}]}),
    ],
)  # fmt: skip
def test_cars_by_origin_are_read_as_meant(text, expected):
    request = read(text)
    assert {key: request.get(key) for key in expected} == expected, request


def test_a_measure_said_inside_a_years_span_is_still_the_measure():
    text = "Did the average fuel economy go up or down between 1971 and 1990 (mean mpg per year)?"
    request = read(text)
    assert (request["kind"], request["measures"], request["time"]) == ("trend", ["mpg"], "year")


def test_getting_bigger_or_smaller_over_a_period_is_a_trend():
    request = read("US models only: yearly average price, did they get bigger or smaller over the period?")
    assert (request["kind"], request["measures"], request["filters"]) == (
        "trend", ["price_k"], [{"column": "region", "op": "=", "value": "US"}]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Per origin region, linear slope of mpg on year: whose fuel economy slid fastest?",
         {"kind": "rate", "group": "region", "direction": "fall"}),
        ("Whose cars shrank fastest? straight-line slope of price against year, per region of origin",
         {"kind": "rate", "group": "region", "direction": "fall"}),
        ("Net of the year trend, do heavier cars get better or worse mpg? regression slope on hp per weight",
         {"kind": "adjusted", "measures": ["hp_per_weight"], "outcome": "mpg"}),
    ],
)  # fmt: skip
def test_a_fall_said_as_sliding_or_shrinking_and_the_slope_on_a_variable(text, expected):
    request = read(text)
    assert {key: request.get(key) for key in expected} == expected, request


def test_getting_more_of_a_measure_is_no_change():
    assert read("Which region gets more mpg on an average year?")["kind"] == "compare"
