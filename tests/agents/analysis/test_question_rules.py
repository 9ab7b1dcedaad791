"""General rules of how analysts phrase each kind of question, each read on tables and in words of its
own (plain Python): a choice between columns, counting things, a measure said as a percentage, examples
of the groups, codes that are also words, amounts, units beside a threshold, and a year said alone."""

import pytest

from agents.analysis import prose
from agents.analysis.question import read_question
from agents.analysis.reading import HESITANT, read_back
from agents.analysis.request import Request
from agents.analysis.schema import Schema
from agents.operations.stats import timeline


def table(name, *columns, rows=400):
    return Schema(name, [
        {"name": n, "type": t, "distinct": d, **({"values": v} if v else {}), "min": lo, "max": hi}
        for n, t, d, v, lo, hi in columns
    ], rows=rows)  # fmt: skip


def number(name, distinct=300, low=0, high=1000):
    return (name, "number", distinct, None, low, high)


def category(name, values):
    return (name, "string", len(values), values, None, None)


FLATS = table("flats", category("district", ["IN", "OR", "ME", "NY"]), number("rent_eur"), number("floor_area_m2"),
              number("distance_to_centre_km", high=30), number("year", 10, 2010, 2019),
              number("income_2015"), category("heating", ["gas", "oil", "heat pump", "electric"]))  # fmt: skip
FARMS = table("farms", category("farm", ["Hill", "Vale", "Brook"]), number("year", 12, 2008, 2019),
              number("rainfall_mm"), number("fertiliser_kg"), number("sowing_day", 60, 60, 120), number("yield_t"),
              number("yield_loss_t"), category("soil", ["clay", "loam", "sand"]))  # fmt: skip
WEATHER = table("station", ("day", "date", 900, None, None, None), number("snow_cm", 80, 0, 60),
                number("air_temp_c", 60, -10, 38), number("pollen_count", 200, 0, 900),
                category("sky", ["snow", "sun", "fog", "rain"]))  # fmt: skip
TAXI = table("taxi_trips", category("borough", ["Bronx", "Queens", "Brooklyn"]), number("fare"),
             number("tip"), category("route", ["airport", "city", "suburb"]), number("passengers", 6, 1, 6))  # fmt: skip
SCHOOLS = table("schools", category("setting", ["urban", "rural"]), number("spending_per_pupil"),
                number("class_size", 30, 10, 40), number("test_score"), number("pct_free_meals", 90, 0, 100),
                category("breed", ["terrier", "hound", "collie", "spaniel"]))  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        # a choice between columns is ranked; the column outside the choice is the outcome
        (
            FLATS,
            "Rent: is it floor area or distance to centre that goes with it more closely?",
            {"kind": "association", "measures": ["floor_area_m2", "distance_to_centre_km"], "outcome": "rent_eur"},
        ),
        (
            FARMS,
            "Which goes most with yield: rainfall, fertiliser or the sowing day?",
            {"kind": "association", "measures": ["rainfall_mm", "fertiliser_kg", "sowing_day"], "outcome": "yield_t"},
        ),
        # the gap between two groups over a listed choice of measures ranks those measures
        (
            SCHOOLS,
            "Urban versus rural schools: where's the biggest gap, spending per pupil, class size or test score?",
            {
                "kind": "rank_differences",
                "group": "setting",
                "measures": ["spending_per_pupil", "class_size", "test_score"],
            },
        ),
        # "most of these fares" counts the trips; "the total fare" shares the amount
        (TAXI, "Which borough do most of these fares start in?", {"kind": "share", "group": "borough", "weight": None}),
        (TAXI, "What share of the total fare does each borough take?", {"kind": "share", "weight": "fare"}),
        # a measure said as an average percentage is compared, not shared out
        (
            SCHOOLS,
            "Is the average percentage of free meals higher in urban or rural schools?",
            {"kind": "compare", "group": "setting", "measures": ["pct_free_meals"]},
        ),
        # "what kind of X comes with the busiest Y": groups ranked, no correlation
        (
            TAXI,
            "What kind of route comes with the busiest trips (mean passengers)?",
            {"kind": "compare", "group": "route", "measures": ["passengers"]},
        ),
        # "sets ... apart" asks what differs; examples of the groups ("etc") keep every group
        (
            SCHOOLS,
            "Which measure sets the breeds apart the most? terriers, hounds etc",
            {"kind": "rank_differences", "group": "breed", "filters": []},
        ),
        # a capitalised code that is also a word ("In", "or") is no value unless said in capitals
        (
            FLATS,
            "In which district is the median rent highest, or lowest?",
            {"kind": "compare", "group": "district", "filters": []},
        ),
        (FLATS, "What is the median rent in OR?", {"filters": [{"column": "district", "op": "=", "value": "OR"}]}),
        # a superlative that names the measure asks its extreme
        (WEATHER, "Hottest air temperature on record?", {"kind": "statistic", "statistic": "max"}),
        (WEATHER, "Coldest temp logged?", {"kind": "statistic", "statistic": "min"}),
        # "over these years" asks a course
        (FLATS, "Did rents go up over these years, on average?", {"kind": "trend", "time": "year"}),
        # "how much snow fell" is an amount of snow, not the snowy days, and not a change
        (
            WEATHER,
            "How much snow fell in total in 2021?",
            {
                "kind": "statistic",
                "statistic": "sum",
                "measures": ["snow_cm"],
                "filters": [
                    {
                        "and": [
                            {"column": "day", "op": ">=", "value": "2021-01-01"},
                            {"column": "day", "op": "<=", "value": "2021-12-31"},
                        ]
                    }
                ],
            },
        ),
        # a unit between a threshold and "or more" says the column
        (
            WEATHER,
            "On days of 30 degrees or more, what was the mean pollen count?",
            {"filters": [{"column": "air_temp_c", "op": ">=", "value": 30}]},
        ),
        # a year said alone keeps its rows, though a column's name holds it, unless said with that name
        (FLATS, "In 2015, what was the mean rent?", {"filters": [{"column": "year", "op": "=", "value": 2015}]}),
        (FLATS, "What was the mean 2015 income?", {"measures": ["income_2015"], "filters": []}),
        # a period filtered is never the measure shared
        (
            FARMS,
            "Over 2010-2015, which soil gave the largest part of the yield, and what %?",
            {"kind": "share", "group": "soil", "weight": "yield_t"},
        ),
        # "raised ... by the largest percentage" is a growth, not a share
        (
            table(
                "shops", category("shop", ["north", "south", "east"]), number("year", 10, 2010, 2019), number("sales")
            ),
            "Which shop raised its sales by the biggest percentage over the years?",
            {"kind": "growth", "entity": "shop", "measures": ["sales"]},
        ),
        # the highest of a measure that is itself an average is its maximum, not a course over time
        (
            WEATHER,
            "What was the highest weekly average pollen count in the data?",
            {"kind": "statistic", "statistic": "max"},
        ),
        # an abbreviation spelt by a rate's words ("revolutions per minute"), a past participle ("paid"),
        # and countries coded by letters said by their people's adjective
        (
            table("engines", category("maker", ["USA", "UK", "Japan"]), number("rpm"), number("torque_nm")),
            "Do American or British engines reach more revolutions per minute, on average?",
            {
                "measures": ["rpm"],
                "group": "maker",
                "filters": [{"column": "maker", "op": "in", "value": ["USA", "UK"]}],
            },
        ),
        (
            table("staff", category("department", ["sales", "legal", "it"]), number("annual_salary"), number("age")),
            "Which department is paid least?",
            {"kind": "compare", "group": "department", "measures": ["annual_salary"], "direction": "low"},
        ),
        # "any X" of a count keeps the rows with some; an ounce is a unit, so "birth weight" names weight_oz in full
        (
            table("homes", number("sale_price"), number("garages", 4, 0, 3), number("lot_weight_oz")),
            "Average sale price of homes that came with parking (any garages)?",
            {"measures": ["sale_price"], "filters": [{"column": "garages", "op": ">", "value": 0}]},
        ),
        # "how much did it snow" asks an amount of snow too
        (WEATHER, "How much did it snow in 2021?", {"measures": ["snow_cm"], "kind": "statistic"}),
        # the rows a relation is measured over are no variable
        (
            FARMS,
            "Is rainfall correlated with yield across all the farm-years?",
            {"kind": "association", "measures": ["rainfall_mm"], "outcome": "yield_t"},
        ),
    ],
)
def test_general_rules_of_phrasing(schema, text, expected):
    request = read_question(text, schema)
    assert {key: getattr(request, key) for key in expected} == expected


def test_a_word_of_a_column_named_in_full_later_names_that_column_again():
    hives = table(
        "hives",
        category("apiary", ["north", "south", "east"]),
        number("honey_total_kg"),
        number("honey_peak_kg"),
        number("wind_speed"),
    )
    request = read_question(
        "Do windier apiaries give less honey? correlation between wind speed and total honey", hives
    )
    assert (request.kind, request.measures, request.outcome) == ("association", ["wind_speed"], "honey_total_kg")


@pytest.mark.parametrize("text", ["Did accidents fall where drunk driving was punished?", "Do the drivers tip more?"])
def test_driving_and_drivers_are_no_cause_word_unless_they_drive_something(text):
    assert read_question(text, TAXI).kind != "association"
    assert read_question("What is driving the fare?", TAXI).kind == "association"


def test_an_outcome_chosen_only_because_it_was_named_last_caps_the_answer():
    text = "Which is most associated, rainfall, fertiliser or sowing day and yield loss?"
    request = Request("association", "farms", measures=["rainfall_mm", "fertiliser_kg"], outcome="sowing_day")
    assert read_back(text, FARMS, request).certainty <= HESITANT
    marked = read_question("Which goes most with yield: rainfall, fertiliser or the sowing day?", FARMS)
    assert (
        read_back("Which goes most with yield: rainfall, fertiliser or the sowing day?", FARMS, marked).certainty
        > HESITANT
    )


def test_the_worst_performer_is_the_one_that_changed_least():
    import pandas as pd

    frame = pd.DataFrame({"fund": ["a", "a", "b", "b"], "month": [1, 2, 1, 2], "price": [10, 30, 10, 8]})
    lines = prose.growth(
        Request("growth", "funds"), timeline.growth(frame, "fund", "month", "price"), "weakest performer?"
    )
    assert lines[0].startswith("**b** fell most") and "-20%" in lines[0]
    request = read_question(
        "Worst performing fund? % change first month to last",
        table("funds", category("fund", ["a", "b"]), ("month", "date", 24, None, None, None), number("price")),
    )
    assert (request.kind, request.entity) == ("growth", "fund")


def test_ounces_and_gallons_are_units_so_the_rest_of_the_name_names_the_column_in_full():
    from agents.analysis.words import mentions

    assert [m.score for m in mentions("the mean fish weight", ["fish_weight_oz", "fish_count"])] == [1.0]
    assert [m.score for m in mentions("tank volume", ["tank_volume_gal"])] == [1.0]


def test_which_did_best_without_a_measure_over_time_doubts_level_against_change():
    funds = table(
        "funds", category("fund", ["a", "b", "c"]), ("month", "date", 24, None, None, None), number("unit_price")
    )
    request = read_question("Which fund did best?", funds)
    assert request.kind == "compare" and read_back("Which fund did best?", funds, request).certainty <= 0.5
    said = read_question("Which fund had the best mean unit price?", funds)
    assert read_back("Which fund had the best mean unit price?", funds, said).certainty > 0.5


def test_a_name_written_as_one_word_is_named_by_its_two_words_said_apart():
    from agents.analysis.words import mentions

    assert [(m.column, m.score) for m in mentions("the median check-in wait", ["checkin_wait", "age"])] == [
        ("checkin_wait", 1.0)
    ]
    assert [(m.column, m.score) for m in mentions("average set up cost", ["setup_cost", "units"])] == [
        ("setup_cost", 1.0)
    ]
    assert mentions("check the wait", ["checkin_wait"])[0].score == 0.5  # "check" alone is not "checkin"
