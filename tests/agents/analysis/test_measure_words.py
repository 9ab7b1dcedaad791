"""The words that name a measure or a grouping without its column's name: a span said in its unit ("weeks of
remission", "how long"), a rate said as a rate ("vehicles per hour", "hourly volume"), "the day of the week",
a column's values listed for the column, where a thing is from, a company for its ticker's column, and the
end of a year as its last month (plain Python)."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

REMISSION = Schema("leukemia", [
    {"name": "treatment", "type": "string", "distinct": 2, "values": ["6-MP", "placebo"]},
    {"name": "weeks", "type": "number", "distinct": 28, "min": 1, "max": 35},
    {"name": "log_wbc", "type": "number", "distinct": 40, "min": 1.4, "max": 5},
], 42)  # fmt: skip


@pytest.mark.parametrize(
    "question",
    [
        "How long do children on 6-MP stay in remission?",
        "Is the difference in weeks of remission between the arms real?",
    ],
)
def test_a_span_said_as_how_long_or_in_its_unit_is_the_measure(question):
    request = read_question(question, REMISSION)
    assert request.measures == ["weeks"]


TRAFFIC = Schema("traffic", [
    {"name": "date", "type": "date", "distinct": 900},
    {"name": "weekday", "type": "string", "distinct": 7, "values": ["Friday", "Monday", "Saturday", "Sunday",
                                                                     "Thursday", "Tuesday", "Wednesday"]},
    {"name": "day_type", "type": "string", "distinct": 2, "values": ["weekday", "weekend"]},
    {"name": "weather", "type": "string", "distinct": 5, "values": ["Clear", "Clouds", "Rain", "Snow", "Fog"]},
    {"name": "temp_c", "type": "number", "distinct": 600, "min": -25, "max": 35},
    {"name": "hours", "type": "number", "distinct": 20, "min": 1, "max": 24},
    {"name": "vehicles", "type": "number", "distinct": 800, "min": 900, "max": 120000},
    {"name": "per_hour", "type": "number", "distinct": 800, "min": 200, "max": 5000},
], 900)  # fmt: skip


@pytest.mark.parametrize(
    "question",
    [
        "Which day of the week is quietest, in mean vehicles per hour?",
        "Which day of the week has the lowest mean vehicles/hour?",
        "which day of the week has the lowest mean hourly volume on I-94?",
    ],
)
def test_a_rate_said_as_a_rate_is_its_column_and_the_day_of_the_week_is_the_weekday(question):
    request = read_question(question, TRAFFIC)
    assert (request.kind, request.group, request.measures, request.filters) == ("compare", "weekday", ["per_hour"], [])


def test_values_of_a_column_listed_name_it_over_a_column_one_of_them_spells():
    request = read_question("Is the weather type independent of whether it's a weekend or a weekday?", TRAFFIC)
    assert (request.kind, {request.group, request.second}) == ("crosstab", {"weather", "day_type"})
    adjusted = read_question("controlling for weekday vs weekend, does temperature push hourly traffic up?", TRAFFIC)
    assert (adjusted.kind, adjusted.controls, adjusted.measures, adjusted.outcome) == (
        "adjusted",
        ["day_type"],
        ["temp_c"],
        "per_hour",
    )


MAKES = Schema("makes", [
    {"name": "region", "type": "string", "distinct": 3, "values": ["EU", "JP", "US"]},
    {"name": "body", "type": "string", "distinct": 4, "values": ["car", "pickup", "suv", "van"]},
    {"name": "mpg", "type": "number", "distinct": 300, "min": 9, "max": 50},
], 2400)  # fmt: skip


@pytest.mark.parametrize(
    "question",
    ["Does the mix of body styles depend on where the maker is from?",
     "Is the body of a car related to where it comes from?",
     "Is the body style associated with where a car was made?"],
)  # fmt: skip
def test_where_a_thing_is_from_is_its_origin_and_a_mix_that_depends_is_a_cross_tab(question):
    request = read_question(question, MAKES)
    assert (request.kind, {request.group, request.second}) == ("crosstab", {"body", "region"})


PRICES = Schema("prices", [
    {"name": "month_end", "type": "date", "distinct": 400},
    {"name": "sp500_index", "type": "number", "distinct": 400, "min": 300, "max": 4800},
    {"name": "JNJ", "type": "number", "distinct": 400, "min": 3, "max": 180},
    {"name": "MSFT", "type": "number", "distinct": 400, "min": 0.4, "max": 340},
    {"name": "XOM", "type": "number", "distinct": 400, "min": 3, "max": 110},
], 400)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "ticker"),
    [("Exxon's share price, yearly mean, 2014 through 2020: rising or falling?", "XOM"),
     ("Project J&J's average share price for 2025 from a linear fit through its yearly averages", "JNJ"),
     ("What was Microsoft's median price in 2019?", "MSFT")],
)  # fmt: skip
def test_a_company_said_by_its_name_is_its_tickers_column(question, ticker):
    assert read_question(question, PRICES).measures[0] == ticker


@pytest.mark.parametrize(
    ("question", "days"),
    [("Microsoft's mean price at the end of 2022?", ("2022-12-01", "2022-12-31")),
     ("Microsoft's mean price at the start of 2015?", ("2015-01-01", "2015-01-31")),
     ("Microsoft's mean price in 2015?", ("2015-01-01", "2015-12-31"))],
)  # fmt: skip
def test_the_end_of_a_year_is_its_last_month_and_the_year_said_alone_is_all_of_it(question, days):
    (condition,) = read_question(question, PRICES).filters
    assert tuple(part["value"] for part in condition["and"]) == days


@pytest.mark.parametrize(("word", "direction"), [("quietest", "low"), ("busiest", "high"), ("emptiest", "low")])
def test_how_busy_a_group_is_ranks_it_by_the_measure(word, direction):
    request = read_question(f"Which day of the week is {word} on the road, in mean vehicles per hour?", TRAFFIC)
    assert (request.group, request.measures, request.direction) == ("weekday", ["per_hour"], direction)


def test_a_row_noun_said_with_what_each_row_is_worth_names_the_amount():
    orders = Schema("orders", [
        {"name": "order_no", "type": "number", "distinct": 500, "role": "identifier"},
        {"name": "shop", "type": "string", "distinct": 4, "values": ["Leeds", "York", "Hull", "Ripon"]},
        {"name": "unit_price_eur", "type": "number", "distinct": 80, "min": 5, "max": 900},
        {"name": "line_amount_eur", "type": "number", "distinct": 300, "min": 5, "max": 9000},
    ], 500)  # fmt: skip
    assert read_question("Mean line value (EUR) for the York shop?", orders).measures == ["line_amount_eur"]
    assert read_question("How many lines does each shop have?", orders).measures != ["line_amount_eur"]


def test_a_status_names_the_outcome_column():
    trial = Schema("trial", [
        {"name": "arm", "type": "string", "distinct": 2, "values": ["drug", "placebo"]},
        {"name": "outcome", "type": "string", "distinct": 3, "values": ["alive", "dead", "transplanted"]},
    ], 300)  # fmt: skip
    assert read_question("Which status is most common among the patients, in percent?", trial).group == "outcome"


def test_lighter_and_lightest_name_the_weight_while_light_alone_does_not():
    parcels = Schema("parcels", [
        {"name": "depot", "type": "string", "distinct": 3, "values": ["north", "south", "west"]},
        {"name": "mass_kg", "type": "number", "distinct": 300, "min": 0.1, "max": 40},
        {"name": "lux", "type": "number", "distinct": 300, "min": 0, "max": 900},
    ], 500)  # fmt: skip
    assert read_question("Which depot ships the lightest parcels on average?", parcels).measures == ["mass_kg"]
    assert read_question("Which depot's parcels are lighter on average?", parcels).measures == ["mass_kg"]
    assert "mass_kg" not in read_question("Which depot has the most light?", parcels).measures
