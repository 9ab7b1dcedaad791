"""A person names a row by its name, not its number: the car with the best mileage is "mazda glc", never
car 5961, unless the question asks for the number; a unit's quantity names its column ("rated power" is
rated_kw); a measure said per year of a year column is its course; specs are measures (plain Python)."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

CARS = Schema("cars", [
    {"name": "car_id", "type": "number", "distinct": 392, "min": 5001, "max": 5406, "role": "identifier"},
    {"name": "name", "type": "string", "distinct": 301},
    {"name": "origin", "type": "string", "distinct": 3, "values": ["Europe", "Japan", "USA"]},
    {"name": "horsepower", "type": "number", "distinct": 93, "min": 46, "max": 230},
    {"name": "mpg", "type": "number", "distinct": 127, "min": 9, "max": 46.6},
], 392)  # fmt: skip
TURBINES = Schema("turbines", [
    {"name": "turbine_id", "type": "number", "distinct": 140, "min": 1, "max": 150, "role": "identifier"},
    {"name": "turbine_type", "type": "string", "distinct": 140},
    {"name": "manufacturer", "type": "string", "distinct": 12},
    {"name": "rated_kw", "type": "number", "distinct": 60, "min": 100, "max": 9500},
    {"name": "power_density_w_m2", "type": "number", "distinct": 130, "min": 200, "max": 600},
    {"name": "has_power_curve", "type": "string", "distinct": 2, "values": ["no", "yes"]},
], 140)  # fmt: skip
MODEL_YEARS = Schema("cars", [
    {"name": "name", "type": "string", "distinct": 300},
    {"name": "model_year", "type": "number", "distinct": 13, "min": 1970, "max": 1982},
    {"name": "mpg", "type": "number", "distinct": 120, "min": 9, "max": 46.6},
], 392)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("Which single car gets the best mpg?", "name"),
        ("Is there any car whose horsepower is way out of line with the rest? Which one stands out most?", "name"),
        ("Which car id has the best mpg?", "car_id"),
    ],
)
def test_a_row_is_named_by_its_name_unless_its_number_is_asked(question, label):
    assert read_question(question, CARS).label == label


def test_a_quantity_a_unit_measures_names_its_column():
    request = read_question("Any turbine whose rated power is an outlier? Name the most extreme.", TURBINES)
    assert (request.kind, request.measures, request.label) == ("outliers", ["rated_kw"], "turbine_type")


def test_a_measure_said_per_year_of_a_year_column_is_its_course():
    request = read_question("Did fuel economy get better or worse? Average mpg per model year.", MODEL_YEARS)
    assert (request.kind, request.measures) == ("trend", ["mpg"])


def test_which_spec_differs_most_between_two_groups_ranks_the_measures():
    question = "models that come with a power curve against the rest: which spec differs most between them?"
    request = read_question(question, TURBINES)
    assert (request.kind, request.group) == ("rank_differences", "has_power_curve")


def test_columns_one_plural_word_names_together_are_the_candidates_ranked():
    claims = Schema("claims", [
        {"name": "week", "type": "date", "distinct": 443},
        {"name": "claims", "type": "number", "distinct": 443, "min": 200000, "max": 900000},
        *({"name": f"trend_{w}", "type": "number", "distinct": 400, "min": 0.5, "max": 1.5}
          for w in ("unemploy", "filing", "job")),
    ], 443)  # fmt: skip
    request = read_question("Of the three search trends, which one lines up best with the claims?", claims)
    assert (request.kind, request.outcome) == ("association", "claims")
    assert request.measures == ["trend_unemploy", "trend_filing", "trend_job"]
