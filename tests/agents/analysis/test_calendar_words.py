"""A table of days with the day of the week beside the date: "the day of the week" names that column,
"on average" compares its groups rather than picking one day, and a place in a cycle is no period a
change is told in (plain Python)."""

from agents.analysis.periods import period_of
from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema

DAYS = Schema("deliveries", [
    {"name": "date", "type": "date", "distinct": 3652},
    {"name": "day_of_week", "type": "string", "distinct": 7,
     "values": ["Fri", "Mon", "Sat", "Sun", "Thurs", "Tues", "Wed"]},
    {"name": "parcels", "type": "number", "distinct": 3000, "min": 5000, "max": 15000},
], 3652)  # fmt: skip
NATIONS = Schema("nations", [
    {"name": "nation", "type": "string", "distinct": 190},
    {"name": "income_band", "type": "string", "distinct": 4, "values": ["high", "low", "lower middle", "upper middle"]},
    {"name": "fertility", "type": "number", "distinct": 150, "min": 0.8, "max": 6.5},
    {"name": "life_expectancy", "type": "number", "distinct": 180, "min": 50, "max": 86},
], 190)  # fmt: skip


def test_the_day_of_the_week_said_names_its_column_and_on_average_compares_its_days():
    request = read_question("On average, which day of the week sees the fewest parcels?", DAYS)
    assert (request.kind, request.group, request.measures, request.direction) == (
        "compare", "day_of_week", ["parcels"], "low"
    )  # fmt: skip


def test_a_change_between_two_years_of_each_weekday_is_told_in_years_not_weeks():
    assert period_of("From 1996 to 2001, on which day of the week did parcels rise the most?") == "auto"
    assert period_of("Which weekly total rose the most?") == "week"
    request = read_question("From 1996 to 2001, on which day of the week did the mean parcels grow most?", DAYS)
    assert (request.kind, request.entity, request.period) == ("growth", "day_of_week", "year")


def test_within_the_same_group_is_an_adjusted_association():
    request = read_question(
        "Within the same income band, does higher fertility go with shorter life expectancy?", NATIONS
    )
    assert (request.kind, request.controls) == ("adjusted", ["income_band"])


def test_a_forecast_fitted_on_the_years_said_reaches_a_year_the_table_has_begun():
    months = Schema("prices", [
        {"name": "month", "type": "date", "distinct": 39, "min": "2015-01-01", "max": "2018-03-01"},
        {"name": "price", "type": "number", "distinct": 600, "min": 0.5, "max": 2.5},
    ], 39)  # fmt: skip
    request = read_question(
        "Using the full years 2015-2017, project the mean price for 2018 on a straight line.", months
    )
    assert (request.kind, request.to) == ("forecast", "2018")
    assert request.filters == [{"and": [{"column": "month", "op": ">=", "value": "2015-01-01"},
                                        {"column": "month", "op": "<=", "value": "2017-12-31"}]}]  # fmt: skip


CHARGING = Schema("ev_charging", [
    {"name": "session_id", "type": "number", "distinct": 3395, "role": "identifier"},
    {"name": "date", "type": "date", "distinct": 300, "min": "2014-11-18", "max": "2015-10-30"},
    {"name": "platform", "type": "string", "distinct": 3, "values": ["android", "ios", "web"]},
    {"name": "charge_hours", "type": "number", "distinct": 900, "min": 0, "max": 50},
], 3395)  # fmt: skip


def test_the_tables_own_words_before_a_counted_noun_count_its_rows_per_period():
    request = read_question("Was the number of charging sessions per month growing or shrinking?", CHARGING)
    assert (request.kind, request.statistic, request.measures, request.period) == (
        "trend", "count", ["session_id"], "month"
    )  # fmt: skip


def test_the_calendar_month_with_the_most_rows_is_each_months_share_of_them_and_asks_nothing():
    question = "which calendar month had the most charging sessions"
    request = read_question(question, CHARGING)
    assert (request.kind, request.group, request.cycle) == ("share", "date", "month_of_year")
    assert read_back(question, CHARGING, request).guessed == []  # the cycle names the grouping, the key the rows


def test_a_volume_said_as_a_total_per_year_is_each_years_sum():
    sold = Schema("sold", [
        {"name": "month", "type": "date", "distinct": 36, "min": "2015-01-01", "max": "2017-12-01"},
        {"name": "region", "type": "string", "distinct": 8, "values": ["East", "North", "South", "West"]},
        {"name": "total_volume", "type": "number", "distinct": 280, "min": 1e5, "max": 9e7},
    ], 288)  # fmt: skip
    request = read_question("Total units sold per year across the regions: up or down?", sold)
    assert (request.kind, request.statistic, request.period) == ("trend", "sum", "year")


def test_which_group_and_season_had_the_lowest_is_a_two_factor_over_the_dates_season():
    prices = Schema("prices", [
        {"name": "month", "type": "date", "distinct": 39, "min": "2015-01-01", "max": "2018-03-01"},
        {"name": "region", "type": "string", "distinct": 4, "values": ["East", "North", "South", "West"]},
        {"name": "kind", "type": "string", "distinct": 2, "values": ["conventional", "organic"]},
        {"name": "price", "type": "number", "distinct": 600, "min": 0.5, "max": 2.5},
    ], 312)  # fmt: skip
    request = read_question("For organic ones, which region and season had the lowest mean price?", prices)
    assert (request.kind, request.group, request.cycle, request.second) == ("two_factor", "month", "season", "region")
    assert request.filters == [{"column": "kind", "op": "=", "value": "organic"}]


def test_a_count_per_day_of_a_table_of_days_is_each_days_own_no_course():
    births = Schema("births", [
        {"name": "date", "type": "date", "distinct": 3652, "min": "1994-01-01", "max": "2003-12-31"},
        {"name": "births", "type": "number", "distinct": 3000, "min": 6000, "max": 15000},
    ], 3652)  # fmt: skip
    assert births.daily
    assert read_question("What's the median number of births per day?", births).kind == "statistic"
    assert read_question("How did the mean births per year change?", births).kind == "trend"


def test_a_forecast_of_a_total_volume_per_year_is_of_each_years_sum():
    sold = Schema("sold", [
        {"name": "month", "type": "date", "distinct": 36, "min": "2015-01-01", "max": "2017-12-01"},
        {"name": "total_volume", "type": "number", "distinct": 280, "min": 1e5, "max": 9e7},
    ], 36)  # fmt: skip
    request = read_question("What total volume per year would a straight-line trend give for 2019?", sold)
    assert (request.kind, request.statistic) == ("forecast", "sum")


def test_which_calendar_month_grew_most_takes_each_month_of_the_year_from_year_to_year():
    request = read_question("From 1996 to 2001, which calendar month saw the largest percentage rise in parcels?", DAYS)
    assert (request.kind, request.entity, request.cycle, request.period) == ("growth", "date", "month_of_year", "year")
