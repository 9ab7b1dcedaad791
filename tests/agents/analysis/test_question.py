"""The question model reads each kind of analyst question, in several phrasings, into the request
that answers it: the kind, the columns in their parts, the statistic, the direction and the filters."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

IRIS = Schema("iris", [
    {"name": "sepal_length_cm", "type": "number", "distinct": 35}, {"name": "sepal_width_cm", "type": "number", "distinct": 23},
    {"name": "petal_length_cm", "type": "number", "distinct": 43}, {"name": "petal_width_cm", "type": "number", "distinct": 22},
    {"name": "species", "type": "string", "distinct": 3, "values": ["setosa", "versicolor", "virginica"]},
])  # fmt: skip
FIRMS = Schema("grunfeld", [
    {"name": "firm", "type": "string", "distinct": 10, "values": ["General Motors", "US Steel", "Chrysler"]},
    {"name": "year", "type": "number", "distinct": 20}, {"name": "invest", "type": "number", "distinct": 200},
    {"name": "value", "type": "number", "distinct": 200},
])  # fmt: skip
PATIENTS = Schema("diabetes", [
    {"name": "age", "type": "number", "distinct": 58}, {"name": "sex", "type": "number", "distinct": 2, "values": [1, 2]},
    {"name": "bmi", "type": "number", "distinct": 163}, {"name": "bp", "type": "number", "distinct": 100},
    {"name": "progression", "type": "number", "distinct": 214},
])  # fmt: skip
PLANTS = Schema("plants", [
    {"name": "site", "type": "string", "distinct": 4, "values": ["ridge", "valley", "meadow", "forest"]},
    {"name": "height_cm", "type": "number", "distinct": 90}, {"name": "leaf_count", "type": "number", "distinct": 40},
    {"name": "planted", "type": "date", "distinct": 30},
])  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (IRIS, "Which species has the highest mean petal length?",
         {"kind": "compare", "group": "species", "measures": ["petal_length_cm"], "direction": "high"}),
        (IRIS, "Which species has the narrowest sepals on average?",
         {"kind": "compare", "group": "species", "measures": ["sepal_width_cm"], "direction": "low"}),
        (PLANTS, "At which site are the tallest plants?",
         {"kind": "compare", "group": "site", "measures": ["height_cm"], "direction": "high"}),
        (PATIENTS, "Is disease progression higher for sex 1 or sex 2?",
         {"kind": "compare", "group": "sex", "measures": ["progression"]}),
        (IRIS, "What is the median petal width per species?",
         {"kind": "compare", "group": "species", "statistic": "median"}),
        (IRIS, "Which measurements differ most between the species?",
         {"kind": "rank_differences", "group": "species"}),
        (IRIS, "What features best distinguish the species?", {"kind": "rank_differences", "group": "species"}),
        (IRIS, "How strongly is petal length related to petal width?",
         {"kind": "association", "pair": True, "measures": ["petal_length_cm"], "outcome": "petal_width_cm"}),
        (IRIS, "Is there a correlation between sepal_length_cm and sepal_width_cm?",
         {"kind": "association", "pair": True, "outcome": "sepal_width_cm"}),
        (PATIENTS, "Which variable is most strongly associated with the outcome?",
         {"kind": "association", "pair": False, "outcome": "progression"}),
        (PATIENTS, "What predicts disease progression best?", {"kind": "association", "outcome": "progression"}),
        (FIRMS, "Did investment rise over the years?",
         {"kind": "trend", "time": "year", "measures": ["invest"]}),
        (FIRMS, "How has the total invest changed per year?",
         {"kind": "trend", "time": "year", "statistic": "sum"}),
        (FIRMS, "Which firm grew its investment the most over the period?",
         {"kind": "growth", "entity": "firm", "time": "year", "measures": ["invest"]}),
        (FIRMS, "Which firm had the biggest percentage change in value?",
         {"kind": "growth", "entity": "firm", "measures": ["value"]}),
        (IRIS, "What share of the flowers belongs to each species?", {"kind": "share", "group": "species"}),
        (PLANTS, "Which site is most common?", {"kind": "share", "group": "site"}),
        (PLANTS, "What percentage of all leaves does each site account for?",
         {"kind": "share", "group": "site"}),
        (IRIS, "What is the 90th percentile of sepal length?",
         {"kind": "statistic", "measures": ["sepal_length_cm"], "statistic": "percentile", "percentile": 90}),
        (IRIS, "What is the total petal length?", {"kind": "statistic", "statistic": "sum"}),
        (PATIENTS, "What is the standard deviation of bmi?", {"kind": "statistic", "statistic": "sd"}),
        (PATIENTS, "What is the maximum blood pressure (bp)?", {"kind": "statistic", "statistic": "max",
                                                                 "measures": ["bp"]}),
        (IRIS, "Average petal length for flowers with sepal width above 3.5",
         {"kind": "statistic", "measures": ["petal_length_cm"],
          "filters": [{"column": "sepal_width_cm", "op": ">", "value": 3.5}]}),
        (IRIS, "Mean sepal length excluding setosa",
         {"kind": "statistic", "filters": [{"column": "species", "op": "!=", "value": "setosa"}]}),
    ],
)  # fmt: skip
def test_each_kind_of_question_is_read_into_its_request(schema, text, expected):
    request = read_question(text, schema).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_the_statistic_said_last_wins_and_instead_of_names_the_one_not_wanted():
    request = read_question("Which species has the highest mean petal length? Use the median instead of the mean", IRIS)
    assert request.statistic == "median"


def test_a_question_naming_no_measure_says_what_is_missing():
    request = read_question("Which species has the happiest gardeners?", IRIS)
    assert request.kind == "compare" and request.missing == ["measure"]


CARS = Schema("cars", [
    {"name": "origin", "type": "string", "distinct": 3, "values": ["usa", "europe", "japan"]},
    {"name": "model_year", "type": "number", "distinct": 13, "min": 1970, "max": 1982},
    {"name": "weight_kg", "type": "number", "distinct": 300, "min": 700, "max": 2300},
    {"name": "fuel_l_per_100km", "type": "number", "distinct": 120, "min": 5, "max": 26},
])  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which origin has the most cars?", {"kind": "share", "group": "origin"}),
        ("Do heavier cars use more fuel?",
         {"kind": "association", "pair": True, "measures": ["weight_kg"], "outcome": "fuel_l_per_100km"}),
        ("What is the average fuel use of cars made after 1976?",
         {"kind": "statistic", "filters": [{"column": "model_year", "op": ">", "value": 1976}]}),
        ("Mean weight in 1980?", {"filters": [{"column": "model_year", "op": "=", "value": 1980}]}),
        ("Mean weight of cars with fuel use greater than or equal to 10",
         {"filters": [{"column": "fuel_l_per_100km", "op": ">=", "value": 10}]}),
        ("How does Japanese fuel use compare with European?", {"kind": "compare", "group": "origin"}),
    ],
)  # fmt: skip
def test_questions_that_name_no_statistic_or_say_their_filters_in_time_words(text, expected):
    request = read_question(text, CARS).as_dict()
    assert {key: request[key] for key in expected} == expected


SALES = Schema("sales", [
    {"name": "date", "type": "date", "distinct": 48},
    {"name": "region", "type": "string", "distinct": 4, "values": ["north", "south", "east", "west"]},
    {"name": "revenue", "type": "number", "distinct": 190, "min": 900, "max": 9000},
    {"name": "smoker", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
    {"name": "Year_Built", "type": "number", "distinct": 90, "min": 1890, "max": 2020},
])  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which month of the year has the highest average revenue?",
         {"kind": "compare", "group": "date", "cycle": "month_of_year"}),
        ("What was the mean revenue over 2021-2023?",
         {"filters": [{"and": [{"column": "date", "op": ">=", "value": "2021-01-01"},
                               {"column": "date", "op": "<=", "value": "2023-12-31"}]}]}),
        ("How much revenue did places built before 1950 bring in on average?",
         {"filters": [{"column": "Year_Built", "op": "<", "value": 1950}]}),
        ("Mean revenue of smokers", {"filters": [{"column": "smoker", "op": "=", "value": 1}]}),
        ("Mean revenue among non-smokers", {"filters": [{"column": "smoker", "op": "=", "value": 0}]}),
        ("Which region lost the most revenue?", {"kind": "growth", "entity": "region"}),
    ],
)  # fmt: skip
def test_cycles_year_ranges_and_yes_no_columns(text, expected):
    request = read_question(text, SALES).as_dict()
    assert {key: request[key] for key in expected} == expected


PANEL = Schema("gapminder", [
    {"name": "Country", "type": "string", "distinct": 142}, {"name": "Continent", "type": "string", "distinct": 5,
     "values": ["Africa", "Americas", "Asia", "Europe", "Oceania"]},
    {"name": "Year", "type": "number", "distinct": 12, "min": 1952, "max": 2007},
    {"name": "Population", "type": "number", "distinct": 1700, "min": 60000, "max": 1.3e9},
    {"name": "Income_1975", "type": "number", "distinct": 900, "min": 1500, "max": 96000},
])  # fmt: skip


def test_growth_is_per_the_entity_the_question_names_however_many_there_are():
    request = read_question("Which country's population grew fastest in percentage terms from 1952 to 2007?", PANEL)
    assert (request.kind, request.entity, request.measures) == ("growth", "Country", ["Population"])


def test_a_year_in_a_column_name_names_the_column_and_filters_nothing():
    request = read_question("What was the mean 1975 income?", PANEL)
    assert request.measures == ["Income_1975"] and request.filters == []


RESTAURANTS = Schema("fast_food", [
    {"name": "chain", "type": "string", "distinct": 4, "values": ["Burger King", "KFC", "Wendy's"]},
    {"name": "state", "type": "string", "distinct": 2, "values": ["NJ", "PA"]},
    {"name": "area", "type": "string", "distinct": 3, "values": ["east", "west", "central"]},
    {"name": "fries_price", "type": "number", "distinct": 40},
])  # fmt: skip


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        (
            "What do fries cost on average at the restaurants in Pennsylvania?",
            {"column": "state", "op": "=", "value": "PA"},
        ),
        ("What is the mean fries price of the western restaurants?", {"column": "area", "op": "=", "value": "west"}),
    ],
)
def test_values_are_read_as_people_say_them(text, condition):
    assert condition in read_question(text, RESTAURANTS).filters


def test_a_number_that_names_a_column_filters_nothing_and_a_year_said_alone_keeps_that_year():
    earnings = Schema("training", [
        {"name": "earnings_1974", "type": "number", "distinct": 300, "min": 0, "max": 40000},
        {"name": "earnings_1978", "type": "number", "distinct": 300, "min": 0, "max": 60000},
    ])  # fmt: skip
    request = read_question("How spread out were 1978 earnings? Give me the standard deviation.", earnings)
    assert (request.measures, request.filters, request.statistic) == (["earnings_1978"], [], "sd")
    request = read_question("Looking only at 2007, which continent had the lowest average population?", PANEL)
    assert {"column": "Year", "op": "=", "value": 2007} in request.filters


WAGES = Schema("young_men", [
    {"name": "year", "type": "number", "distinct": 8, "min": 1980, "max": 1987},
    {"name": "hours", "type": "number", "distinct": 900}, {"name": "hourly_wage", "type": "number", "distinct": 900},
    {"name": "days_in_office", "type": "number", "distinct": 900},
])  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Did these young men's hourly wages rise over 1980-87? Mean per year.",
            {"kind": "trend", "measures": ["hourly_wage"]},
        ),
        (
            "Bottom quarter: below what hourly wage do the lowest 25% fall?",
            {"statistic": "percentile", "percentile": 25},
        ),
        ("Add up the hours for each year. Which way is it going?", {"kind": "trend", "statistic": "sum"}),
    ],
)
def test_fuller_names_quarters_and_adding_up(text, expected):
    request = read_question(text, WAGES).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_the_longest_anyone_spent_is_the_maximum():
    senate = Schema("senators", [
        {"name": "party", "type": "string", "distinct": 5, "values": ["Liberal", "Conservative"]},
        {"name": "days_in_senate", "type": "number", "distinct": 900},
    ])  # fmt: skip
    request = read_question("Longest time anyone has spent in the Senate, in days?", senate)
    assert (request.kind, request.statistic, request.measures) == ("statistic", "max", ["days_in_senate"])


def test_a_threshold_said_in_millions_is_in_millions():
    request = read_question(
        "For countries with more than 100 million people in 2007, what was the mean population?", PANEL
    )
    assert {"column": "Population", "op": ">", "value": 100_000_000} in request.filters


TUMOURS = Schema("trial", [
    {"name": "tumour_grade", "type": "string", "distinct": 3, "values": ["I", "II", "III"]},
    {"name": "tumour_size", "type": "number", "distinct": 80}, {"name": "nodes", "type": "number", "distinct": 30},
    {"name": "year", "type": "number", "distinct": 17, "min": 1970, "max": 1986},
])  # fmt: skip


def test_which_group_comes_with_the_most_is_a_comparison_and_a_short_year_range_runs_on():
    request = read_question("Which tumour grade comes with the biggest tumour size, on average?", TUMOURS)
    assert (request.kind, request.group, request.measures) == ("compare", "tumour_grade", ["tumour_size"])
    request = read_question("Which tumour grade had the highest mean nodes over 1970-86?", TUMOURS)
    assert request.filters == [
        {"and": [{"column": "year", "op": ">=", "value": 1970}, {"column": "year", "op": "<=", "value": 1986}]}
    ]


MONTHLY = Schema("monthly_sales", [
    {"name": "year", "type": "number", "distinct": 14, "min": 1980, "max": 1993},
    {"name": "month", "type": "string", "distinct": 12, "values": ["Apr", "Aug", "Dec", "Feb", "Jan", "Jul"]},
    {"name": "kilolitres", "type": "number", "distinct": 168},
], rows=168)  # fmt: skip
SENATORS = Schema("senators", [
    {"name": "Party", "type": "string", "distinct": 8, "values": ["Liberal", "Conservative", "Progressive"]},
    {"name": "Appointed", "type": "date", "distinct": 900},
    {"name": "Days in Senate", "type": "number", "distinct": 900},
], rows=933)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (MONTHLY, "From 1980 to 1993, which month's sales rose the most in % terms?",
         {"kind": "growth", "entity": "month", "time": "year", "measures": ["kilolitres"], "direction": "high"}),
        (MONTHLY, "Which calendar month grew least between 1980 and 1993?",
         {"kind": "growth", "entity": "month", "time": "year", "direction": "low"}),
        (MONTHLY, "Which month brings in the biggest slice of total sales?",
         {"kind": "share", "group": "month", "weight": "kilolitres"}),
        (SENATORS, "What share of Senate appointments went to the biggest party?",
         {"kind": "share", "group": "Party", "weight": None}),
        (SENATORS, "Which party dominates the appointments?", {"kind": "share", "group": "Party", "weight": None}),
        (MONTHLY, "Which is the strongest month for wine sales?",
         {"kind": "compare", "group": "month", "measures": ["kilolitres"]}),
    ],
)  # fmt: skip
def test_the_only_measure_is_meant_when_none_is_named_and_a_word_of_one_shares_nothing(schema, text, expected):
    request = read_question(text, schema)
    assert {key: getattr(request, key) for key in expected} == expected
    assert request.missing == []


PAROLEES = Schema("parolees", [
    {"name": "financial_aid", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "age_at_release", "type": "number", "distinct": 20},
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "survival_weeks", "type": "number", "distinct": 50},
    {"name": "arrested", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "readmission_rate", "type": "number", "distinct": 90}, {"name": "admissions", "type": "number", "distinct": 90},
], rows=432)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What separates the men who were rearrested from those who weren't, most clearly?",
         {"kind": "rank_differences", "group": "arrested"}),
        ("Who survived longer on average, men or women?",
         {"kind": "compare", "group": "sex", "measures": ["survival_weeks"]}),
        ("Men vs women at release: what differs most between them?", {"kind": "rank_differences", "group": "sex"}),
        ("Which group has the best readmission record, meaning the lowest average readmission rate?",
         {"measures": ["readmission_rate"]}),
    ],
)  # fmt: skip
def test_forms_of_a_name_and_everyday_words_for_values_name_what_they_mean(text, expected):
    request = read_question(text, PAROLEES)
    assert {key: getattr(request, key) for key in expected} == expected


MURDERS = Schema("state_murders", [
    {"name": "State", "type": "string", "distinct": 51}, {"name": "Year", "type": "number", "distinct": 3},
    {"name": "Murders per 100k", "type": "number", "distinct": 140},
    {"name": "sex", "type": "string", "distinct": 3, "values": ["child", "man", "woman"]},
    {"name": "starting_wage", "type": "number", "distinct": 40}, {"name": "median_income", "type": "number", "distinct": 300},
], rows=153)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In which of the three years was the median state murder rate highest?",
         {"kind": "compare", "group": "Year", "statistic": "median"}),
        ("What's the lowest starting wage anyone pays?", {"kind": "statistic", "statistic": "min"}),
        ("What proportion were men versus women?", {"kind": "share", "group": "sex"}),
    ],
)  # fmt: skip
def test_a_timeline_asked_which_of_groups_and_a_superlative_asks_one_extreme(text, expected):
    request = read_question(text, MURDERS)
    assert {key: getattr(request, key) for key in expected} == expected


def test_a_value_said_right_after_a_few_valued_number_column_filters_on_it_and_measures_nothing():
    lung = Schema("lung", [
        {"name": "survival_days", "type": "number", "distinct": 200},
        {"name": "ecog_score", "type": "number", "distinct": 4, "values": [0, 1, 2, 3]},
    ], rows=228)  # fmt: skip
    request = read_question("Median survival in days for the patients the doctor scored ECOG 0?", lung)
    assert request.filters == [{"column": "ecog_score", "op": "=", "value": 0}]
    assert request.measures == ["survival_days"] and request.statistic == "median"


CARS_AND_ROADS = Schema("roads", [
    {"name": "model", "type": "string", "distinct": 38, "values": ["corolla", "civic", "jetta"]},
    {"name": "highway_mpg", "type": "number", "distinct": 27},
    {"name": "Year", "type": "number", "distinct": 7, "min": 1982, "max": 1988},
    {"name": "State", "type": "string", "distinct": 48, "values": ["Alabama", "Arizona", "Ohio"]},
    {"name": "Miles per Driver", "type": "number", "distinct": 300},
], rows=336)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("best highway mpg of any model in the data?",
         {"kind": "statistic", "statistic": "max", "measures": ["highway_mpg"], "group": None}),
        ("Between 1982 and 1988, did people drive more or less? Average miles per driver, year by year.",
         {"kind": "trend", "time": "Year", "measures": ["Miles per Driver"]}),
    ],
)  # fmt: skip
def test_any_of_a_group_asks_one_extreme_and_driving_is_no_cause(text, expected):
    request = read_question(text, CARS_AND_ROADS)
    assert {key: getattr(request, key) for key in expected} == expected
