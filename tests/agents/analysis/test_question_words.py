"""Words as people say them about a table: a column's short form spelt out, people named after what
they do, a threshold in degrees, the rows' own name, a relative clause, a percentile said as "the top
10%", one extreme "on a single day", the other side of a yes/no said as "those who didn't", and a
word such as "factor" before a column's name ("which factor fund")."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema
from agents.analysis.words import mentions

FLIGHTS = Schema("flights", [
    {"name": "origin", "type": "string", "distinct": 3, "values": ["EWR", "JFK", "LGA"]},
    {"name": "dep_delay", "type": "number", "distinct": 400, "min": -20, "max": 900},
    {"name": "arr_delay", "type": "number", "distinct": 400, "min": -60, "max": 900},
    {"name": "air_time", "type": "number", "distinct": 300, "min": 20, "max": 690},
], 3000)  # fmt: skip
HITTERS = Schema("hitters", [
    {"name": "Hits", "type": "number", "distinct": 140, "min": 1, "max": 238},
    {"name": "Salary", "type": "number", "distinct": 150, "min": 67, "max": 2460},
    {"name": "Division", "type": "string", "distinct": 2, "values": ["East", "West"]},
], 322)  # fmt: skip
BIKES = Schema("bikes", [
    {"name": "date", "type": "date", "distinct": 365},
    {"name": "working_day", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "mean_temp_c", "type": "number", "distinct": 300, "min": -5, "max": 35},
    {"name": "registered_riders", "type": "number", "distinct": 350, "min": 400, "max": 4700},
], 365)  # fmt: skip
WAGES = Schema("wages", [
    {"name": "marital_status", "type": "string", "distinct": 5, "values": ["Married", "Never Married", "Divorced"]},
    {"name": "wage", "type": "number", "distinct": 900, "min": 20, "max": 320},
], 3000)  # fmt: skip
TOWNS = Schema("towns", [
    {"name": "Municipality", "type": "string", "distinct": 411},
    {"name": "Kind", "type": "string", "distinct": 5, "values": ["city", "municipality", "town", "township"]},
    {"name": "Population 2021", "type": "number", "distinct": 411, "min": 100, "max": 2794356},
], 411)  # fmt: skip
STUDENTS = Schema("psi", [
    {"name": "Student", "type": "string", "distinct": 32},
    {"name": "GPA", "type": "number", "distinct": 30, "min": 2.0, "max": 4.0},
    {"name": "PSI Method", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "Grade Improved", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
], 32)  # fmt: skip
PAROLEES = Schema("parolees", [
    {"name": "financial_aid", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
    {"name": "weeks_followed", "type": "number", "distinct": 52, "min": 1, "max": 52},
], 432)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (FLIGHTS, "flights out of Newark: mean arrival delay?", {"kind": "statistic", "measures": ["arr_delay"]}),
        (FLIGHTS, "Which origin has the longest average departure delay?",
         {"kind": "compare", "group": "origin", "measures": ["dep_delay"]}),
        (HITTERS, "East or West division: where are hitters paid better on average?",
         {"kind": "compare", "group": "Division", "measures": ["Salary"]}),
        (HITTERS, "Do the best hitters get more hits in the East or the West division?",
         {"group": "Division", "measures": ["Hits"]}),
        (BIKES, "Most registered riders on a single day?",
         {"kind": "statistic", "statistic": "max", "group": None, "measures": ["registered_riders"]}),
        (BIKES, "On days averaging above 27 °C, how many registered riders on average?",
         {"kind": "statistic", "filters": [{"column": "mean_temp_c", "op": ">", "value": 27}]}),
        (WAGES, "What wage marks the top 10% of earners?",
         {"kind": "statistic", "statistic": "percentile", "percentile": 90, "measures": ["wage"]}),
        (WAGES, "Where does the bottom 25 percent of wages end?", {"statistic": "percentile", "percentile": 25}),
        (TOWNS, "What's the largest 2021 population of any municipality in the file?",
         {"kind": "statistic", "statistic": "max", "filters": []}),
        (STUDENTS, "What's the average GPA of the students who were in the PSI programme and whose grade improved?",
         {"kind": "statistic", "group": None, "measures": ["GPA"],
          "filters": [{"column": "PSI Method", "op": "=", "value": "yes"},
                      {"column": "Grade Improved", "op": "=", "value": 1}]}),
        (PAROLEES, "The parolees who got financial aid: did they stay out longer than those who didn't?",
         {"kind": "compare", "group": "financial_aid", "filters": []}),
    ],
)  # fmt: skip
def test_words_as_people_say_them_name_what_they_mean(schema, text, expected):
    request = read_question(text, schema).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_the_rows_own_name_leaves_no_doubt_that_it_was_left_unused():
    text = "What's the largest 2021 population of any municipality in the file?"
    reading = read_back(text, TOWNS, read_question(text, TOWNS))
    assert reading.doubts == []


PIZZAS = Schema("pizzas", [
    {"name": "date", "type": "date", "distinct": 358},
    {"name": "type", "type": "string", "distinct": 4, "values": ["chicken", "classic", "supreme", "veggie"]},
    {"name": "pizzas_sold", "type": "number", "distinct": 60, "min": 5, "max": 90},
    {"name": "revenue_usd", "type": "number", "distinct": 900, "min": 80, "max": 1600},
    {"name": "mean_price_usd", "type": "number", "distinct": 300, "min": 12, "max": 21},
], 1432)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Comparing January's revenue with December's, which type of pizza grew the most?",
         {"kind": "growth", "entity": "type", "measures": ["revenue_usd"], "period": "month", "statistic": "sum",
          "change": "percent"}),
        ("Which type added the most revenue in absolute terms, by month?",
         {"kind": "growth", "period": "month", "change": "absolute"}),
        ("Number of pizzas sold each month, January to December: rising or falling?",
         {"kind": "trend", "measures": ["pizzas_sold"], "period": "month", "statistic": "sum"}),
        ("Is the mean price per pizza rising month by month?",
         {"kind": "trend", "measures": ["mean_price_usd"], "period": "month", "statistic": "mean"}),
    ],
)  # fmt: skip
def test_a_course_told_in_months_adds_up_what_happened_and_averages_levels(text, expected):
    request = read_question(text, PIZZAS).as_dict()
    assert {key: request[key] for key in expected} == expected


BAKE_OFF = Schema("bake_off", [
    {"name": "series", "type": "number", "distinct": 10, "min": 1, "max": 10},
    {"name": "episode", "type": "number", "distinct": 10, "min": 1, "max": 10},
    {"name": "air_date", "type": "date", "distinct": 94},
    {"name": "channel", "type": "string", "distinct": 3, "values": ["BBC One", "BBC Two", "Channel 4"]},
    {"name": "viewers_7day_millions", "type": "number", "distinct": 90, "min": 2, "max": 16},
], 94)  # fmt: skip
QUAKES = Schema("quakes", [
    {"name": "depth_km", "type": "number", "distinct": 900, "min": 0, "max": 650},
    {"name": "depth_class", "type": "string", "distinct": 3, "values": ["Deep", "Intermediate", "Shallow"]},
    {"name": "magnitude_class", "type": "string", "distinct": 3, "values": ["Light", "Moderate", "Strong"]},
], 1000)  # fmt: skip
STOCKS = Schema("stocks", [
    {"name": "week_of", "type": "date", "distinct": 261},
    {"name": "company", "type": "string", "distinct": 6, "values": ["Amazon", "Apple", "Netflix"]},
    {"name": "price_vs_first_week", "type": "number", "distinct": 1500, "min": 0.5, "max": 6},
], 1566)  # fmt: skip
SAVINGS = Schema("uschange", [
    {"name": "quarter", "type": "string", "distinct": 187},
    {"name": "savings", "type": "number", "distinct": 187, "min": -69, "max": 51},
], 187)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (BAKE_OFF, "Which broadcaster got Bake Off its biggest average audience? (7-day viewers)",
         {"kind": "compare", "group": "channel", "measures": ["viewers_7day_millions"], "filters": []}),
        (BAKE_OFF, "Over the ten series, did the average audience per episode grow or shrink?",
         {"kind": "trend", "time": "series", "measures": ["viewers_7day_millions"]}),
        (BAKE_OFF, "of all 7-day viewing summed up over every episode, which channel's share is largest?",
         {"kind": "share", "group": "channel", "weight": "viewers_7day_millions"}),
        (QUAKES, "the moderate ones (by magnitude class) - how deep were they, median km?",
         {"kind": "statistic", "measures": ["depth_km"], "statistic": "median", "group": None,
          "filters": [{"column": "magnitude_class", "op": "=", "value": "Moderate"}]}),
        (STOCKS, "which stock gained the most from the first week of 2019 to the last week of 2023, percentage-wise?",
         {"kind": "growth", "entity": "company",
          "filters": [{"and": [{"column": "week_of", "op": ">=", "value": "2019-01-01"},
                               {"column": "week_of", "op": "<=", "value": "2023-12-31"}]}]}),
        (SAVINGS, "What was the single worst quarter's change in savings (the minimum)?",
         {"kind": "statistic", "statistic": "min", "measures": ["savings"]}),
    ],
)  # fmt: skip
def test_audiences_depths_spans_and_one_extreme_are_read_as_meant(schema, text, expected):
    request = read_question(text, schema).as_dict()
    assert {key: request[key] for key in expected} == expected


EVALUATIONS = Schema("course_evaluations", [
    {"name": "Instructor No", "type": "number", "distinct": 94, "min": 1, "max": 94},
    {"name": "Age", "type": "number", "distinct": 40, "min": 29, "max": 73},
    {"name": "Beauty Rating", "type": "number", "distinct": 78, "min": -1.5, "max": 1.9},
    {"name": "Evaluation", "type": "number", "distinct": 30, "min": 2.1, "max": 5},
    {"name": "Division", "type": "string", "distinct": 2, "values": ["lower", "upper"]},
], 463)  # fmt: skip
WORKERS = Schema("cps_workers", [
    {"name": "Age", "type": "number", "distinct": 45, "min": 18, "max": 64},
    {"name": "Years of Education", "type": "number", "distinct": 17, "min": 2, "max": 18},
    {"name": "Occupation", "type": "string", "distinct": 6, "values": ["worker", "technical", "services"]},
], 534)  # fmt: skip
COMPUTERS = Schema("computers", [
    {"name": "price_usd", "type": "number", "distinct": 800, "min": 949, "max": 5399},
    {"name": "screen_inches", "type": "number", "distinct": 3, "values": [14, 15, 17], "min": 14, "max": 17},
], 3000)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (EVALUATIONS, "Do better-looking instructors get higher or lower evaluations?",
         {"kind": "association", "measures": ["Beauty Rating"], "outcome": "Evaluation", "filters": []}),
        (EVALUATIONS, "Evaluation: is it age or beauty that goes with it most strongly?",
         {"kind": "association", "measures": ["Age", "Beauty Rating"], "outcome": "Evaluation"}),
        (WORKERS, "Older workers: more or less schooling than younger ones?",
         {"kind": "association", "filters": []}),
        (COMPUTERS, "Which screen size goes with the highest average price?",
         {"kind": "compare", "group": "screen_inches", "measures": ["price_usd"]}),
    ],
)  # fmt: skip
def test_directions_numbered_things_the_tables_own_rows_and_sizes_asked_which(schema, text, expected):
    request = read_question(text, schema).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_a_name_said_across_a_colon_is_not_one_name():
    text = "evaluation score: is it age, looks, or class size that goes with it most strongly?"
    said = {m.column: text[m.start : m.end] for m in mentions(text, ["Beauty Rating", "Age"])}
    assert said == {"Age": "age", "Beauty Rating": "looks"}  # never "score: is it age, looks"


def test_a_yes_no_said_with_a_contracted_not_keeps_the_no_rows():
    staff = Schema("staff", [
        {"name": "Tenured", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
        {"name": "Native English Speaker", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
        {"name": "Evaluation", "type": "number", "distinct": 30, "min": 2.1, "max": 5},
    ], 463)  # fmt: skip
    request = read_question("Tenured profs who aren't native English speakers: their mean evaluation?", staff)
    assert request.filters == [
        {"column": "Tenured", "op": "=", "value": 1},
        {"column": "Native English Speaker", "op": "=", "value": 0},
    ]


def test_a_change_over_a_year_is_during_it_and_a_count_over_a_year_shaped_number_is_above_it():
    during = read_question("month by month, did the total revenue go up or down over 2015?", PIZZAS)
    assert during.kind == "trend" and during.filters == [
        {"and": [{"column": "date", "op": ">=", "value": "2015-01-01"},
                 {"column": "date", "op": "<=", "value": "2015-12-31"}]}
    ]  # fmt: skip
    above = read_question("What is the largest 2021 population of towns with a population over 2000?", TOWNS)
    assert above.filters == [{"column": "Population 2021", "op": ">", "value": 2000}]


def test_a_level_of_a_quality_said_as_a_noun_is_the_grouping_asked_which_of():
    survey = Schema("marriage_survey", [
        {"name": "religious", "type": "number", "distinct": 4, "values": [1, 2, 3, 4], "min": 1, "max": 4},
        {"name": "age", "type": "number", "distinct": 6, "min": 17.5, "max": 42},
        {"name": "affairs", "type": "number", "distinct": 100, "min": 0, "max": 57},
    ], 6366)  # fmt: skip
    request = read_question(
        "Which level of religiousness goes with the least time spent in affairs, on average?", survey
    )
    assert (request.kind, request.group, request.measures, request.direction) == (
        "compare", "religious", ["affairs"], "low"
    )  # fmt: skip


def test_a_word_like_factor_before_a_columns_name_asks_which_group_not_which_measure():
    funds = Schema("funds", [
        {"name": "month", "type": "date", "distinct": 107, "role": "time"},
        {"name": "etf", "type": "string", "distinct": 5, "values": ["MTUM", "QUAL", "SIZE", "USMV", "VLUE"]},
        {"name": "close_usd", "type": "number", "distinct": 500},
        {"name": "return_pct", "type": "number", "distinct": 500},
    ], 535)  # fmt: skip
    request = read_question("which factor fund has the best median monthly return", funds)
    assert (request.kind, request.group, request.measures, request.statistic) == (
        "compare", "etf", ["return_pct"], "median"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "column"),
    [("How does horsepower relate to the 0-60 time?", "accel_0_60_s"), ("the share aged 18 to 24", "age_18_24")],
)
def test_two_numbers_of_a_name_said_as_a_range_name_it(text, column):
    named = mentions(text, ["horsepower", "accel_0_60_s", "age_18_24", "age_25_34"])
    assert column in [m.column for m in named if m.score == 1]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Flag outliers in population density", ["density_per_km2"]),
        ("the most densely populated states", ["density_per_km2"]),
        ("population and density side by side", ["population", "density_per_km2"]),
    ],
)
def test_population_density_is_one_column_and_densely_says_it(text, named):
    found = mentions(text, ["population", "area_km2", "density_per_km2"])
    assert [m.column for m in found if m.score == 1] == named


def test_a_superlative_before_a_share_ranks_the_share_and_names_no_column():
    found = mentions("Which region has the largest share of all units sold?", ["region", "large_bags", "total_volume"])
    assert "large_bags" not in [m.column for m in found]


def test_lasting_says_a_duration_and_the_last_year_does_not():
    columns = ["waiting_min", "duration_s"]
    assert [m.column for m in mentions("the eruptions lasting over 250 seconds", columns)] == ["duration_s"]
    assert "duration_s" not in [m.column for m in mentions("in the last year, the mean waiting time", columns)]
