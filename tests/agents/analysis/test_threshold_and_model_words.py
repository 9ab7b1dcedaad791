"""The words of thresholds and models: a threshold's own column and unit ("more than 10 mm of rain", "50 TWh
from nuclear", "aged 60 or more"), a superlative that ranks the measure after it, an
effect on an outcome, a year held fixed, time as what a measure rises over, one side against the rest, and
"the most ... how many" (plain Python)."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema

RIDES = Schema("rides", [
    {"name": "date", "type": "date", "distinct": 3000},
    {"name": "weekday", "type": "string", "distinct": 7, "values": ["Friday", "Monday", "Saturday", "Sunday",
                                                                     "Thursday", "Tuesday", "Wednesday"]},
    {"name": "rides", "type": "number", "distinct": 2900, "min": 20, "max": 16000},
    {"name": "precip_mm", "type": "number", "distinct": 300, "min": 0, "max": 90},
    {"name": "pm25", "type": "number", "distinct": 400, "min": 3, "max": 600},
    {"name": "max_wind_ms", "type": "number", "distinct": 900, "min": 0, "max": 500},
], 3000)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "measure", "kept"),
    [
        ("On days with more than 10 mm of rain, how many rides happen on average?", "rides", ("precip_mm", ">", 10)),
        ("Mean PM2.5 on the days when the max wind tops 100 m/s?", "pm25", ("max_wind_ms", ">", 100)),
    ],
)
def test_a_threshold_keeps_its_own_column_and_its_unit_and_the_measure_asked_is_another(question, measure, kept):
    request = read_question(question, RIDES)
    assert (request.kind, request.measures) == ("statistic", [measure])
    assert [(f["column"], f["op"], f["value"]) for f in request.filters] == [kept]
    assert "nothing to rank" not in read_back(question, RIDES, request).line


def test_a_change_between_two_years_for_each_day_of_the_week_is_a_growth_told_in_years():
    question = "For each day of the week, how much did mean rides change from 2013 to 2018? Which grew most?"
    request = read_question(question, RIDES)
    assert (request.kind, request.entity, request.period) == ("growth", "weekday", "year")


DAYS = Schema("days", [
    {"name": "year", "type": "number", "distinct": 10, "min": 2010, "max": 2019},
    {"name": "weekday", "type": "string", "distinct": 7, "values": ["Friday", "Monday", "Saturday", "Sunday",
                                                                     "Thursday", "Tuesday", "Wednesday"]},
    {"name": "season", "type": "string", "distinct": 4, "values": ["autumn", "spring", "summer", "winter"]},
    {"name": "rides", "type": "number", "distinct": 2900, "min": 20, "max": 16000},
    {"name": "high_c", "type": "number", "distinct": 300, "min": -10, "max": 40},
    {"name": "dew_point_c", "type": "number", "distinct": 300, "min": -30, "max": 25},
    {"name": "pm25", "type": "number", "distinct": 400, "min": 3, "max": 600},
    {"name": "pct_full", "type": "number", "distinct": 900, "min": 0, "max": 100},
], 3000)  # fmt: skip


def test_a_superlative_ranks_the_measure_after_it_and_names_its_own_column_only_alone():
    pairing = read_question("Busiest year + weekday pairing (highest mean daily rides)?", DAYS)
    assert (pairing.kind, pairing.measures) == ("two_factor", ["rides"])
    assert read_question("Which season had the highest high temperature on average?", DAYS).measures == ["high_c"]


@pytest.mark.parametrize(
    "question",
    ["After adjusting for season, what's the direction of the dew point effect on PM2.5?",
     "Controlling for season, what is the effect of dew point on PM2.5?"],
)  # fmt: skip
def test_the_effect_on_a_column_makes_it_the_outcome(question):
    request = read_question(question, DAYS)
    assert (request.kind, request.measures, request.outcome) == ("adjusted", ["dew_point_c"], "pm25")


def test_percentages_are_compared_never_shared_out_as_a_total():
    request = read_question("Which season runs the fullest on average, as a percent?", DAYS)
    assert (request.kind, request.group, request.measures, request.weight) == ("compare", "season", ["pct_full"], None)


@pytest.mark.parametrize(
    ("question", "fixed"),
    [
        ("Holding the year fixed, do warmer days (high c) bring more or fewer rides?", ["year"]),
        ("Holding the year fixed (as a number), what is the effect of high c on rides?", []),
        ("Within each year, do warmer days (high c) bring more or fewer rides?", ["year"]),
        ("Once you account for the year, do warmer days (high c) bring more or fewer rides?", []),
        ("Adjusting for year, is high c positively or negatively associated with rides?", []),
    ],
)
def test_a_year_held_fixed_is_each_year_on_its_own_and_accounted_for_is_a_number(question, fixed):
    request = read_question(question, DAYS)
    assert (request.kind, request.controls, request.fixed, request.outcome) == ("adjusted", ["year"], fixed, "rides")


def test_taking_a_column_into_account_adjusts_for_it_and_the_adjusted_slope_is_its_own_word():
    chicago = Schema("chicago", [
        {"name": "temp_f", "type": "number", "distinct": 100, "min": -16, "max": 92},
        {"name": "pm10", "type": "number", "distinct": 900, "min": -30, "max": 200},
        {"name": "deaths", "type": "number", "distinct": 100, "min": 69, "max": 411},
    ], 4000)  # fmt: skip
    question = (
        "Once you take the day's temperature into account, is a higher PM10 level associated with more deaths "
        "or fewer? Give the adjusted slope."
    )
    request = read_question(question, chicago)
    assert (request.kind, request.controls, request.measures, request.outcome) == (
        "adjusted",
        ["temp_f"],
        ["pm10"],
        "deaths",
    )
    assert "slope" not in " ".join(read_back(question, chicago, request).said())


def test_a_two_valued_category_kept_at_one_value_stays_a_filter_of_an_association():
    schools = Schema("schools", [
        {"name": "school", "type": "string", "distinct": 2, "values": ["Grant-White", "Pasteur"]},
        {"name": "grade", "type": "number", "distinct": 2, "min": 7, "max": 8, "values": [7, 8]},
        {"name": "age_years", "type": "number", "distinct": 6, "min": 11, "max": 16},
        {"name": "word_meaning", "type": "number", "distinct": 40, "min": 0, "max": 9},
    ], 300)  # fmt: skip
    question = "At Pasteur only: after controlling for grade, how does age in years go with the word meaning score?"
    request = read_question(question, schools)
    assert request.kind == "adjusted" and request.filters == [{"column": "school", "op": "=", "value": "Pasteur"}]


def test_how_many_of_the_most_of_a_measure_is_its_largest_value_not_a_count_of_rows():
    deaths = Schema("deaths", [
        {"name": "month", "type": "date", "distinct": 197},
        {"name": "deaths", "type": "number", "distinct": 190, "min": 30000, "max": 90000},
    ], 197)  # fmt: skip
    request = read_question("the most deaths recorded in a single month - how many?", deaths)
    assert (request.measures, request.statistic) == (["deaths"], "max")
    assert read_question("how many months are there?", deaths).statistic == "count"


def test_the_word_right_before_a_threshold_names_its_column_over_one_after_it():
    from agents.analysis.filters import number_filters

    (found,) = number_filters(
        "how many cigs a day did the people aged 60 or more smoke on average",
        ["Age_1971", "Cigarettes_per_day", "Years_smoking"],
    )
    assert found.condition == {"column": "Age_1971", "op": ">=", "value": 60}


def test_one_side_against_the_rest_groups_by_that_sides_column():
    nets = Schema("nets", [
        {"name": "net_use", "type": "string", "distinct": 2, "values": ["with net", "without net"]},
        {"name": "eligible_for_program", "type": "string", "distinct": 2, "values": ["eligible", "not eligible"]},
        {"name": "malaria_risk", "type": "number", "distinct": 90, "min": 10, "max": 99},
        {"name": "household_size", "type": "number", "distinct": 9, "min": 1, "max": 9},
    ], 1752)  # fmt: skip
    question = "Households eligible for the free-net program versus the rest: which measure shows the largest gap?"
    request = read_question(question, nets)
    assert (request.kind, request.group, request.filters) == ("rank_differences", "eligible_for_program", [])


def test_a_time_column_is_what_an_adjusted_measure_rises_over_never_its_outcome():
    energy = Schema("energy", [
        {"name": "continent", "type": "string", "distinct": 5, "values": ["Africa", "Asia", "Europe"]},
        {"name": "year", "type": "number", "distinct": 25, "min": 2000, "max": 2024},
        {"name": "wind_kwh", "type": "number", "distinct": 900, "min": 0, "max": 9000},
    ], 1975)  # fmt: skip
    question = "Net of continent, has wind energy per person been rising or falling by year? Regression slope please."
    request = read_question(question, energy)
    assert (request.kind, request.measures, request.outcome) == ("adjusted", ["year"], "wind_kwh")


def test_a_threshold_in_a_unit_several_columns_carry_is_on_the_one_the_clause_names():
    energy = Schema("energy", [
        {"name": "country", "type": "string", "distinct": 213},
        {"name": "total_twh", "type": "number", "distinct": 200, "min": 0, "max": 9000},
        {"name": "nuclear_twh", "type": "number", "distinct": 60, "min": 0, "max": 800},
        {"name": "carbon_intensity", "type": "number", "distinct": 200, "min": 20, "max": 900},
    ], 213)  # fmt: skip
    request = read_question("For countries generating more than 50 TWh from nuclear, what's the average carbon intensity?",
                            energy)  # fmt: skip
    assert request.measures == ["carbon_intensity"]
    assert request.filters == [{"column": "nuclear_twh", "op": ">", "value": 50}]
