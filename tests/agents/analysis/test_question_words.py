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
    ],
)
def test_a_year_held_fixed_is_each_year_on_its_own_unless_said_as_a_number(question, fixed):
    request = read_question(question, DAYS)
    assert (request.kind, request.controls, request.fixed, request.outcome) == ("adjusted", ["year"], fixed, "rides")


MAKES = Schema("makes", [
    {"name": "region", "type": "string", "distinct": 3, "values": ["EU", "JP", "US"]},
    {"name": "body", "type": "string", "distinct": 4, "values": ["car", "pickup", "suv", "van"]},
    {"name": "mpg", "type": "number", "distinct": 300, "min": 9, "max": 50},
], 2400)  # fmt: skip


@pytest.mark.parametrize(
    "question",
    ["Does the mix of body styles depend on where the maker is from?",
     "Is the body of a car related to where it comes from?"],
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
