"""Weather and river tables name their columns the stations' way: fused words (tmax, tmean, prcp) and a
river's discharge, which a person calls the river itself (plain Python)."""

import pandas as pd
import pytest

from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema
from agents.operations.stats.timeline import seasonal

STATION = Schema("station", [
    {"name": "date", "type": "date", "distinct": 3653},
    {"name": "tmax_c", "type": "number", "distinct": 500, "min": -15, "max": 35},
    {"name": "tmin_c", "type": "number", "distinct": 500, "min": -25, "max": 20},
    {"name": "tmean_c", "type": "number", "distinct": 700, "min": -20, "max": 27},
    {"name": "prcp_mm", "type": "number", "distinct": 200, "min": 0, "max": 60},
    {"name": "discharge_m3s", "type": "number", "distinct": 900, "min": 2, "max": 360},
], 3653)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "measure"),
    [
        ("How much does the daily mean temperature vary? Give its standard deviation.", "tmean_c"),
        ("Were the nights getting colder? Track the yearly average of the daily minimum temperature.", "tmin_c"),
        ("Describe the shape of the daily maximum temperatures.", "tmax_c"),
        ("What is the median daily precipitation?", "prcp_mm"),
        ("When is the river at its highest?", "discharge_m3s"),
    ],
)
def test_a_fused_name_or_a_river_is_named_by_its_words(question, measure):
    assert read_question(question, STATION).measures[:1] == [measure]


def test_one_column_tracked_over_the_years_is_a_trend_not_a_pair():
    request = read_question(
        "Were the nights getting colder? Track the yearly average of the daily minimum temperature.", STATION
    )
    assert (request.kind, request.measures) == ("trend", ["tmin_c"])


def test_a_season_of_a_date_is_the_meteorological_one_and_its_months_are_the_readings_own():
    question = (
        "In which season is the river at its highest? Go by the median daily discharge "
        "(winter = Dec-Feb, spring = Mar-May, summer = Jun-Aug, autumn = Sep-Nov)"
    )
    request = read_question(question, STATION)
    assert (request.kind, request.group, request.cycle, request.filters) == ("compare", "date", "season", [])
    reading = read_back(question, STATION, request)
    assert "seasons (winter Dec-Feb" in reading.line
    assert not any("Dec" in doubt.words or "winter" in doubt.words for doubt in reading.doubts)


def test_seasons_group_the_dates_as_weather_services_count_them():
    dates = pd.Series(["1979-12-31", "1980-02-29", "1980-03-01", "1980-08-31", "1980-09-01", None])
    assert seasonal(dates, "season").tolist()[:5] == ["winter", "winter", "spring", "summer", "autumn"]


def test_two_calendar_groupings_asked_together_and_compared_apart_are_a_doubt():
    question = "Which year and season had the highest average river discharge?"
    request = read_question(question, STATION)
    reading = read_back(question, STATION, request)
    assert request.kind == "two_factor" or any("year and season together" in d for d in reading.said())
    assert request.kind == "two_factor" or reading.certainty <= 0.5


def test_a_measure_changing_from_season_to_season_varies_across_the_seasons_not_over_time():
    seasons = Schema("air", [
        {"name": "date", "type": "date", "distinct": 1800},
        {"name": "season", "type": "string", "distinct": 4, "values": ["autumn", "spring", "summer", "winter"]},
        {"name": "pm25", "type": "number", "distinct": 900, "min": 3, "max": 500},
        {"name": "temp_c", "type": "number", "distinct": 900, "min": -15, "max": 35},
    ], 1826)  # fmt: skip
    across = read_question("Which weather variable changes the most from season to season?", seasons)
    assert (across.kind, across.group) == ("rank_differences", "season")
    assert read_question("Which variable changes the most from year to year?", seasons).kind == "trend"


@pytest.mark.parametrize(
    ("question", "kind", "cycle"),
    [
        ("Is the gap in discharge between the seasons statistically significant?", "significance", "season"),
        ("Per year, which season's mean temperature rose most quickly?", "rate", "season"),
        ("In which calendar month did the discharge drop fastest from year to year?", "rate", "month_of_year"),
    ],
)
def test_a_date_read_as_its_place_in_a_cycle_groups_every_kind_not_only_a_comparison(question, kind, cycle):
    request = read_question(question, STATION)
    assert (request.kind, request.group, request.cycle) == (kind, "date", cycle)


def test_a_season_accounted_for_is_the_dates_season_held_as_a_control():
    request = read_question("Once you account for the season, is precipitation still linked to discharge?", STATION)
    assert (request.kind, request.controls, request.cycle) == ("adjusted", ["date"], "season")
    assert "after accounting for season of date" in read_back("", STATION, request).line


def test_the_cycles_own_words_are_the_readings_not_words_read_past():
    question = "Is the gap in discharge between the seasons statistically significant?"
    request = read_question(question, STATION)
    assert not any("seasons" in doubt.words for doubt in read_back(question, STATION, request).doubts)
