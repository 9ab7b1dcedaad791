"""The kinds analysts ask after "which group is highest", each read from words of its own over other
tables than the evaluation's: a test of chance, the top N, which row and when, outliers, a shape, gaps,
two categories crossed, and the best combination of two groupings."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

CARS = Schema("cars", [
    {"name": "model", "type": "string", "distinct": 390},
    {"name": "origin", "type": "string", "distinct": 3, "values": ["Europe", "Japan", "USA"]},
    {"name": "fuel", "type": "string", "distinct": 2, "values": ["diesel", "petrol"]},
    {"name": "automatic", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "sold_on", "type": "date", "distinct": 398},
    {"name": "price_eur", "type": "number", "distinct": 380, "min": 900, "max": 64000},
    {"name": "mpg", "type": "number", "distinct": 120, "min": 9, "max": 47},
    {"name": "weight_kg", "type": "number", "distinct": 300, "min": 700, "max": 2400},
    {"name": "model_year", "type": "number", "distinct": 13, "min": 1970, "max": 1982},
], 398)  # fmt: skip


def read(text):
    request = read_question(text, CARS)
    parts = {"kind": request.kind, "measures": request.measures, "group": request.group, "label": request.label}
    parts |= {"outcome": request.outcome, "controls": request.controls, "time": request.time, "to": request.to}
    return parts | {"n": request.n, "second": request.second, "within": request.within, "missing": request.missing}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Is the price gap between diesel and petrol cars statistically significant?",
         {"kind": "significance", "measures": ["price_eur"], "group": "fuel"}),
        ("could the mpg differences between the three origins be down to chance?",
         {"kind": "significance", "measures": ["mpg"], "group": "origin"}),
        ("Are automatics significantly more common among the diesels than the petrol cars?",
         {"kind": "significance", "measures": ["automatic"], "group": "fuel"}),
        ("Name the 3 thirstiest models (lowest mpg).", {"kind": "top", "label": "model", "n": 3, "measures": ["mpg"]}),
        ("top ten most expensive cars?", {"kind": "top", "label": "model", "n": 10, "measures": ["price_eur"]}),
        ("Which two origins have the highest average price?",
         {"kind": "top", "label": "origin", "n": 2, "measures": ["price_eur"]}),
        ("When was the priciest car sold?", {"kind": "which_row", "label": "sold_on", "measures": ["price_eur"]}),
        ("which model gets the best mpg?", {"kind": "which_row", "label": "model", "measures": ["mpg"]}),
        ("Anything odd about the prices? Which car stands out?",
         {"kind": "outliers", "measures": ["price_eur"], "label": "model"}),
        ("flag unusual mpg figures within each origin",
         {"kind": "outliers", "measures": ["mpg"], "within": "origin"}),
        ("What does the spread of fuel economy look like - lopsided?", {"kind": "distribution", "measures": ["mpg"]}),
        ("is price skewed", {"kind": "distribution", "measures": ["price_eur"]}),
        ("How many cars have no price recorded?", {"kind": "missing", "measures": ["price_eur"], "missing": []}),
        ("Which columns have blanks, and how many?", {"kind": "missing", "measures": [], "missing": []}),
        ("Does the fuel type depend on where the car comes from (origin)?",
         {"kind": "crosstab", "group": "fuel", "second": "origin"}),
        ("Are gearbox (automatic) and fuel related?", {"kind": "crosstab", "group": "automatic", "second": "fuel"}),
        ("Which combination of origin and fuel has the best mpg on average?",
         {"kind": "two_factor", "group": "origin", "second": "fuel", "measures": ["mpg"]}),
        ("Crossing origin with fuel, which pair has the best mean mpg?",
         {"kind": "two_factor", "group": "origin", "second": "fuel", "measures": ["mpg"]}),
        ("If the trend carries on, what will the average mpg be in 1986?",
         {"kind": "forecast", "measures": ["mpg"], "time": "model_year", "to": "1986"}),
        ("Extrapolate the straight line of mean price to 1985.", {"kind": "forecast", "to": "1985"}),
        ("Projecting the yearly mean price forward, what would 1986 bring?", {"kind": "forecast", "to": "1986"}),
        ("How quickly did mpg improve per year for each origin? Which improved fastest?",
         {"kind": "rate", "measures": ["mpg"], "group": "origin", "time": "model_year"}),
        ("By how much does price go up per extra kilo of weight, for diesel and for petrol?",
         {"kind": "rate", "measures": ["price_eur"], "group": "fuel", "time": "weight_kg"}),
        ("After accounting for weight, is mpg still linked to price?",
         {"kind": "adjusted", "measures": ["mpg"], "outcome": "price_eur", "controls": ["weight_kg"]}),
        ("Holding origin constant, do heavier cars cost more or less?",
         {"kind": "adjusted", "measures": ["weight_kg"], "outcome": "price_eur", "controls": ["origin"]}),
        ("Give me the biggest three origins by total price.",
         {"kind": "top", "label": "origin", "n": 3, "measures": ["price_eur"]}),
        ("For how many cars did the dealer not give a price?", {"kind": "missing", "measures": ["price_eur"]}),
        ("Across origins and model years, where and when was mpg lowest?",
         {"kind": "two_factor", "group": "origin", "second": "model_year", "measures": ["mpg"]}),
        ("Whose mpg improved fastest per model year?",
         {"kind": "rate", "group": "model", "time": "model_year", "measures": ["mpg"]}),
        ("cross-tab fuel against gearbox (automatic): independent?",
         {"kind": "crosstab", "group": "fuel", "second": "automatic"}),
        ("Which origin-and-fuel group has the highest mean price?",
         {"kind": "two_factor", "group": "origin", "second": "fuel", "measures": ["price_eur"]}),
        ("How many cars have no mpg value?", {"kind": "missing", "measures": ["mpg"]}),
        ("Which two origins have the most entries?", {"kind": "share", "group": "origin", "measures": []}),
    ],
)  # fmt: skip
def test_each_kind_is_read_from_its_own_words(text, expected):
    got = read(text)
    assert {key: got[key] for key in expected} == expected, got


@pytest.mark.parametrize(
    "text",
    [
        "Which origin has the highest average price?",  # a comparison, not a list of one
        "Which year had the most cars sold?",  # many rows a year: the years compared, not a row
        "What's the lowest mpg of any car?",  # the figure, not which
        "Is mpg related to price?",  # two measures: a correlation
        "Slowest origin for sales? Average price per calendar year.",  # the lowest group, no rate of change
    ],
)
def test_questions_of_the_earlier_kinds_stay_theirs(text):
    assert read(text)["kind"] in ("compare", "statistic", "association", "share")


def test_each_with_himself_pairs_the_test_by_the_text_column_that_names_him():
    meetings = Schema("meetings", [
        {"name": "athlete", "type": "string", "distinct": 28},
        {"name": "meeting", "type": "string", "distinct": 2, "values": ["Decastar", "Olympics"]},
        {"name": "points", "type": "number", "distinct": 41, "min": 7000, "max": 8900},
    ], 41)  # fmt: skip
    text = "Comparing each man with himself, did they score significantly more points at the Olympics than at Decastar?"
    request = read_question(text, meetings)
    assert (request.kind, request.group, request.measures, request.subject) == (
        "significance", "meeting", ["points"], "athlete"
    )  # fmt: skip


DELIVERIES = Schema("deliveries", [
    {"name": "delivery_no", "type": "number", "distinct": 900, "role": "identifier"},
    {"name": "depot_id", "type": "number", "distinct": 40, "role": "identifier"},
    {"name": "van", "type": "string", "distinct": 3, "values": ["diesel", "electric", "hybrid"]},
    {"name": "parcels_total", "type": "number", "distinct": 80, "min": 1, "max": 120},
    {"name": "minutes", "type": "number", "distinct": 200, "min": 4, "max": 300},
], 900)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "combine"),
    [
        ("Which 4 depots shipped the most parcels in total?", "sum"),
        ("Which four depots sent out the most parcels?", "sum"),  # an amount: each depot's added up
        ("Name the 2 depots with the longest average minutes.", "mean"),
    ],
)
def test_a_numbered_thing_many_rows_share_is_ranked_as_a_group(text, combine):
    request = read_question(text, DELIVERIES)
    assert (request.kind, request.label, request.combine) == ("top", "depot_id", combine)


WEATHER = Schema("weather", [
    {"name": "day", "type": "date", "distinct": 1000, "min": "2015-01-01", "max": "2017-09-26"},
    {"name": "season", "type": "string", "distinct": 4, "values": ["autumn", "spring", "summer", "winter"]},
    {"name": "rain_mm", "type": "number", "distinct": 300, "min": 0, "max": 80},
    {"name": "temp_c", "type": "number", "distinct": 300, "min": -10, "max": 35},
], 1000)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "above"),
    [
        ("Is having any rain associated with the season?", 0),
        ("Does whether there was any rain depend on the season?", 0),
        ("Is having no rain associated with the season?", 0),  # the same split, from its other side
        ("Are days with more than 5 mm of rain related to season?", 5),
    ],
)
def test_a_measure_split_by_a_threshold_is_cross_tabbed_as_yes_or_no(text, above):
    request = read_question(text, WEATHER)
    assert (request.kind, request.group, request.second, request.above) == ("crosstab", "season", "rain_mm", above)
    assert request.filters == []  # the split reads every row, none kept out


def test_a_measure_named_without_a_threshold_stays_a_comparison_of_its_values():
    assert read_question("Is temperature related to season?", WEATHER).kind != "crosstab"


def test_a_superlative_before_a_change_ranks_the_change_and_names_no_size():
    models = Schema("models", [
        {"name": "year", "type": "number", "distinct": 13, "min": 1981, "max": 1993},
        {"name": "origin", "type": "string", "distinct": 3, "values": ["EU", "JP", "US"]},
        {"name": "price_k", "type": "number", "distinct": 900, "min": 4, "max": 90},
        {"name": "size", "type": "number", "distinct": 700, "min": 1, "max": 3},
    ], 2000)  # fmt: skip
    request = read_question("Average price from 1981 to 1993 by origin: who had the biggest price hike?", models)
    assert (request.kind, request.entity, request.measures) == ("growth", "origin", ["price_k"])
    assert read_question("Which are the biggest models on average?", models).measures == ["size"]


def test_a_measure_said_by_number_of_ranks_its_value_not_a_count_of_rows():
    parks = Schema("parks", [
        {"name": "car_park", "type": "string", "distinct": 30,
         "values": [f"P{i:02d}" for i in range(30)]},
        {"name": "capacity", "type": "number", "distinct": 30, "min": 200, "max": 4675},
        {"name": "occupied", "type": "number", "distinct": 900, "min": 0, "max": 4600},
    ], 1800)  # fmt: skip
    request = read_question("Name the three biggest car parks by number of spaces.", parks)
    assert (request.kind, request.label, request.measures, request.n) == ("top", "car_park", ["capacity"], 3)
    assert request.combine != "count"
