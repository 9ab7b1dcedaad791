"""Everyday ways of naming things that public tables spell otherwise: a rate for a per-1,000 column, a
country by its common name, a year said as "the 2007 ...", "from 1990 on", "on average" (no value), a
peak (a row asked for). Each is read into the request a careful analyst would run."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema
from agents.analysis.words import mentions

COUNTRIES = ["Canada", "Korea, Rep.", "Japan", "United Kingdom", "United States", "Russian Federation", "Viet Nam"]
EMISSIONS = Schema("emissions", [
    {"name": "country", "type": "string", "distinct": 7, "values": COUNTRIES},
    {"name": "year", "type": "number", "distinct": 60, "min": 1950, "max": 2012, "role": "time"},
    {"name": "co2_tonnes_per_person", "type": "number", "distinct": 400, "min": 0, "max": 30},
], 420)  # fmt: skip
MARRIAGES = Schema("marriages", [
    {"name": "year", "type": "number", "distinct": 145, "min": 1867, "max": 2011, "role": "time"},
    {"name": "marriages", "type": "number", "distinct": 145, "min": 3e5, "max": 2.5e6},
    {"name": "marriages_per_1000", "type": "number", "distinct": 100, "min": 6, "max": 17},
], 145)  # fmt: skip
POKER = Schema("poker", [
    {"name": "skill", "type": "string", "distinct": 2, "values": ["average", "expert"]},
    {"name": "hand", "type": "string", "distinct": 3, "values": ["bad", "neutral", "good"]},
    {"name": "balance", "type": "number", "distinct": 300, "min": -5, "max": 30},
], 300)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("How did CO2 per person change in the US?", "United States"),
        ("CO2 per person trend for the UK", "United Kingdom"),
        ("How has South Korea's CO2 per person moved?", "Korea, Rep."),
        ("co2 per person in Russia over the years", "Russian Federation"),
        ("What about Vietnam's CO2 per person over time?", "Viet Nam"),
    ],
)
def test_a_country_said_by_its_common_name_keeps_its_rows(text, country):
    request = read_question(text, EMISSIONS)
    assert {"column": "country", "op": "=", "value": country} in request.filters


def test_us_and_uk_in_lower_case_are_words_not_countries():
    request = read_question("Let us see the trend of co2 per person, uk-style", EMISSIONS)
    assert not [f for f in request.filters if f["column"] == "country"]


@pytest.mark.parametrize(
    "text",
    ["What year had the highest marriage rate?", "Plot the trend in the marriage rate", "marriage rate in 1950?"],
)
def test_a_rate_names_the_per_1000_column_over_the_count(text):
    assert read_question(text, MARRIAGES).measures == ["marriages_per_1000"]


def test_the_count_is_still_the_count():
    assert read_question("How many marriages were there in 1950?", MARRIAGES).measures == ["marriages"]


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("the 2007 CO2 per person of each country", {"column": "year", "op": "=", "value": 2007}),
        ("What was 2007's highest CO2 per person?", {"column": "year", "op": "=", "value": 2007}),
        ("From 1990 on, which country cut CO2 per person the most?", {"column": "year", "op": ">=", "value": 1990}),
    ],
)
def test_a_year_said_in_passing_keeps_its_rows(text, condition):
    assert condition in read_question(text, EMISSIONS).filters


def test_on_average_is_no_average_player():
    request = read_question("Which hand ended with the highest balance on average?", POKER)
    assert request.filters == [] and request.group == "hand"
    assert read_question("Do average players end with a lower balance?", POKER).filters == [
        {"column": "skill", "op": "=", "value": "average"}
    ]


def test_a_peak_asks_for_the_row():
    request = read_question("When did Japan's CO2 per person peak?", EMISSIONS)
    assert request.kind == "which_row" and request.label == "year" and request.direction == "high"


TOOTH = Schema("tooth_growth", [
    {"name": "animal_no", "type": "number", "distinct": 60, "min": 101, "max": 160, "role": "identifier"},
    {"name": "supplement", "type": "string", "distinct": 2, "values": ["OJ", "VC"]},
    {"name": "dose_mg", "type": "number", "distinct": 3, "min": 0.5, "max": 2, "values": [0.5, 1, 2]},
    {"name": "tooth_length", "type": "number", "distinct": 43, "min": 4.2, "max": 33.9},
], 60)  # fmt: skip
TB = Schema("tb_cases", [
    {"name": "country", "type": "string", "distinct": 4, "values": ["China", "Kenya", "Mexico", "Viet Nam"]},
    {"name": "year", "type": "number", "distinct": 14, "min": 2000, "max": 2013, "role": "time"},
    {"name": "new_cases", "type": "number", "distinct": 56, "min": 10, "max": 9e5},
    {"name": "population", "type": "number", "distinct": 56, "min": 1e6, "max": 1.4e9},
    {"name": "cases_per_100k", "type": "number", "distinct": 56, "min": 1, "max": 800},
], 56)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("At the 1 mg dose, which supplement gives longer teeth?",
         {"kind": "compare", "measures": ["tooth_length"], "filters": [{"column": "dose_mg", "op": "=", "value": 1}]}),
        ("Which supplement and dose combination produced the shortest teeth on average?",
         {"kind": "two_factor", "group": "supplement", "second": "dose_mg", "measures": ["tooth_length"]}),
        ("Test whether the three doses lead to different mean tooth lengths.",
         {"kind": "significance", "group": "dose_mg", "measures": ["tooth_length"]}),
        ("Check whether supplement and dose are associated.",
         {"kind": "crosstab", "group": "supplement", "second": "dose_mg"}),
        ("For which supplement does tooth length increase more steeply as the dose goes up?",
         {"kind": "rate", "group": "supplement", "time": "dose_mg", "measures": ["tooth_length"]}),
    ],
)  # fmt: skip
def test_a_few_valued_number_is_a_level_a_grouping_or_the_x_of_a_slope(text, expected):
    request = read_question(text, TOOTH).as_dict()
    assert {key: request[key] for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("For China, which year had the lowest TB rate per 100,000 population?",
         {"measures": ["cases_per_100k"], "filters": [{"column": "country", "op": "=", "value": "China"}]}),
        ("Fit a linear trend of new cases against year for each of Kenya, Mexico and China: which is steepest?",
         {"kind": "rate", "group": "country", "measures": ["new_cases"]}),
    ],
)  # fmt: skip
def test_a_count_per_100000_and_a_slope_are_read_as_said(text, expected):
    request = read_question(text, TB).as_dict()
    assert {key: request[key] for key in expected} == expected


CARD = Schema("card_wages", [
    {"name": "wage_cents_per_hour", "type": "number", "distinct": 600, "min": 100, "max": 2404},
    {"name": "age", "type": "number", "distinct": 11, "min": 24, "max": 34},
    {"name": "lives_in_city", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "region", "type": "string", "distinct": 2, "values": ["South", "elsewhere"]},
    {"name": "night_temp_c", "type": "number", "distinct": 100, "min": 15, "max": 32},
    {"name": "net_use", "type": "string", "distinct": 2, "values": ["with net", "without net"]},
], 3010)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("Median hourly wage of Southern men who do not live in a city.",
         [{"column": "lives_in_city", "op": "=", "value": "no"}, {"column": "region", "op": "=", "value": "South"}]),
        ("For men without a car where the night temperature is 28 degrees C or more, what is the mean wage?",
         [{"column": "night_temp_c", "op": ">=", "value": 28}]),
        ("mean wage except where night temperature is 28 or more",
         [{"or": [{"column": "night_temp_c", "op": "<", "value": 28},
                  {"column": "night_temp_c", "op": "is_null", "value": True}]}]),
    ],
)  # fmt: skip
def test_a_negation_rules_only_its_own_condition(text, filters):
    assert read_question(text, CARD).filters == filters


def test_a_place_code_is_no_measure():
    counties = Schema("counties", [
        {"name": "County FIPS", "type": "number", "distinct": 159, "min": 13001, "max": 13321},
        {"name": "Pct rural", "type": "number", "distinct": 150, "min": 0, "max": 100},
        {"name": "Setting", "type": "string", "distinct": 2, "values": ["mostly rural", "mostly urban"]},
    ], 159)  # fmt: skip
    assert counties.numbers == ["Pct rural"]


STORMS = Schema("hurricanes", [
    {"name": "storm", "type": "string", "distinct": 512},
    {"name": "year", "type": "number", "distinct": 46, "min": 1975, "max": 2020, "role": "time"},
    {"name": "min_pressure_mb", "type": "number", "distinct": 120, "min": 882, "max": 1015},
    {"name": "max_storm_diameter_nmi", "type": "number", "distinct": 80, "min": 0, "max": 1000},
], 512)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which three storms reached the lowest central pressure?",
         {"kind": "top", "n": 3, "label": "storm", "filters": []}),
        ("Before the year 2000, which storm had the lowest minimum pressure?",
         {"kind": "which_row", "filters": [{"column": "year", "op": "<", "value": 2000}]}),
        ("Lowest pressure of any storm, 2005.", {"filters": [{"column": "year", "op": "=", "value": 2005}]}),
        ("Take the mean pressure for each year, fit a line, and read it off at 2030.",
         {"kind": "forecast", "to": "2030", "measures": ["min_pressure_mb"]}),
    ],
)  # fmt: skip
def test_years_and_counts_said_in_passing(text, expected):
    request = read_question(text, STORMS).as_dict()
    assert {key: request[key] for key in expected} == expected


HURRICANES = Schema("hurricanes", [
    {"name": "storm_no", "type": "number", "distinct": 512, "min": 1, "max": 512, "role": "identifier"},
    {"name": "month", "type": "number", "distinct": 10, "min": 1, "max": 12},
    {"name": "peak_status", "type": "string", "distinct": 3, "values": ["hurricane", "tropical storm", "depression"]},
    {"name": "year", "type": "number", "distinct": 46, "min": 1975, "max": 2020, "role": "time"},
    {"name": "max_wind_knots", "type": "number", "distinct": 30, "min": 20, "max": 160},
    {"name": "min_pressure_mb", "type": "number", "distinct": 120, "min": 882, "max": 1015},
], 512)  # fmt: skip
JUNE_TO_NOVEMBER = {"and": [{"column": "month", "op": ">=", "value": 6}, {"column": "month", "op": "<=", "value": 11}]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("For storms that started between June and November, is the month related to peak status?",
         {"kind": "crosstab", "filters": [JUNE_TO_NOVEMBER]}),
        ("Looking only at the June-November season, does peak status depend on the month?",
         {"kind": "crosstab", "filters": [JUNE_TO_NOVEMBER]}),
        ("Once you account for max wind, have minimum pressures gone up or down over the years?",
         {"kind": "adjusted", "controls": ["max_wind_knots"], "outcome": "min_pressure_mb"}),
        ("Taking each storm's max wind into account, is the year associated with lower minimum pressure?",
         {"kind": "adjusted", "controls": ["max_wind_knots"]}),
    ],
)  # fmt: skip
def test_month_names_over_a_numbered_month_and_what_is_accounted_for(text, expected):
    request = read_question(text, HURRICANES).as_dict()
    assert {key: request[key] for key in expected} == expected


MEAT = Schema("meat_production", [
    {"name": "date", "type": "date", "distinct": 827},
    {"name": "pork", "type": "number", "distinct": 800, "min": 600, "max": 2300},
    {"name": "veal", "type": "number", "distinct": 500, "min": 8, "max": 215},
], 827)  # fmt: skip
SALMON = Schema("salmon_catch", [
    {"name": "year", "type": "number", "distinct": 39, "min": 1974, "max": 2012, "role": "time"},
    {"name": "fisher_type", "type": "string", "distinct": 3, "values": ["Sport", "Treaty", "Non-Treaty"]},
    {"name": "sockeye", "type": "number", "distinct": 117, "min": 0, "max": 9e5},
], 117)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "expected"),
    [
        (MEAT, "In which month was the most pork ever produced?", {"kind": "which_row", "label": "date"}),
        (MEAT, "Find the month with the smallest veal output on record.", {"kind": "which_row", "label": "date"}),
        (MEAT, "Which calendar month has the highest average pork?", {"kind": "compare", "cycle": "month_of_year"}),
        (SALMON, "Before 2000, in which year was the sockeye catch lowest?",
         {"kind": "which_row", "label": "year", "filters": [{"column": "year", "op": "<", "value": 2000}]}),
        (SALMON, "Which fisher type's sockeye catch declined fastest per year?",
         {"kind": "rate", "group": "fisher_type", "direction": "fall"}),
        (SALMON, "whose sockeye catch grew quickest over the years", {"kind": "rate", "group": "fisher_type"}),
    ],
)  # fmt: skip
def test_the_row_on_record_and_the_steepest_fall(schema, text, expected):
    request = read_question(text, schema).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_a_number_said_names_the_column_it_is_part_of():
    trials = Schema("chopsticks", [
        {"name": "person_no", "type": "number", "distinct": 31, "min": 1, "max": 31, "role": "identifier"},
        {"name": "efficiency_180mm", "type": "number", "distinct": 31, "min": 10, "max": 40},
        {"name": "efficiency_240mm", "type": "number", "distinct": 31, "min": 10, "max": 40},
    ], 31)  # fmt: skip
    assert read_question("How are the efficiency scores at 240 mm distributed?", trials).measures == [
        "efficiency_240mm"
    ]


def test_an_outlier_of_a_series_is_named_by_its_date_and_a_row_by_its_own_name():
    assert read_question("Flag the most anomalous month for veal", MEAT).label == "date"
    pigeons = Schema("pigeon_race", [
        {"name": "breeder", "type": "string", "distinct": 150},
        {"name": "band", "type": "string", "distinct": 400},
        {"name": "entries", "type": "number", "distinct": 12, "min": 1, "max": 13},
    ], 400)  # fmt: skip
    assert read_question("any pigeon with a weird number of entries?", pigeons).label == "band"


CHOPSTICKS = Schema("chopsticks", [
    {"name": "person_no", "type": "number", "distinct": 31, "min": 1, "max": 31, "role": "identifier"},
    *({"name": f"efficiency_{mm}mm", "type": "number", "distinct": 31, "min": 10, "max": 40} for mm in (180, 240, 270)),
], 31)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Is the drop in efficiency from 240 mm to 270 mm significant?", ("efficiency_240mm", "efficiency_270mm")),
        ("same ppl, 270mm vs 180mm sticks - real difference in efficiency or just noise?",
         ("efficiency_270mm", "efficiency_180mm")),
    ],
)  # fmt: skip
def test_sibling_columns_told_apart_by_a_number_are_tested_as_pairs(text, pair):
    request = read_question(text, CHOPSTICKS)
    assert (request.kind, request.measures[0], request.second, request.group) == ("significance", *pair, None)


def test_no_figure_for_a_column_asks_for_its_missing_values():
    request = read_question("How many months have no veal figure?", MEAT)
    assert (request.kind, request.measures, request.filters) == ("missing", ["veal"], [])


def test_groups_compared_where_none_was_asked_for_is_a_doubt():
    from agents.analysis.reading import read_back

    states = Schema("state_economies", [
        {"name": "State", "type": "string", "distinct": 50, "values": ["Alabama", "Michigan", "Ohio"]},
        {"name": "Year", "type": "number", "distinct": 20, "min": 1976, "max": 1995, "role": "time"},
        {"name": "Unemployment Rate", "type": "number", "distinct": 100, "min": 2, "max": 18},
    ], 1000)  # fmt: skip
    texts = ("What was the mean unemployment rate across the states in 1982?",
             "Which state had the highest unemployment rate in 1982?")  # fmt: skip
    unasked, asked = (read_back(text, states, read_question(text, states)) for text in texts)
    assert unasked.certainty <= 0.5 and any("stands out" in d.words for d in unasked.doubts)
    assert not any("stands out" in d.words for d in asked.doubts)


@pytest.mark.parametrize(
    ("text", "statistic"),
    [
        ("What's the median max wind?", "median"),
        ("What is the typical max wind of the storms?", "mean"),
        ("What was the highest max wind?", "max"),
        ("If the trend carried on, what would the yearly average max wind be in 2030?", "mean"),
    ],
)
def test_a_statistic_word_in_a_columns_own_name_asks_no_statistic(text, statistic):
    request = read_question(text, HURRICANES)
    assert (request.statistic, request.measures) == (statistic, ["max_wind_knots"])


POULTRY = Schema("poultry", [
    {"name": "date", "type": "date", "distinct": 827},
    {"name": "turkey", "type": "number", "distinct": 600, "min": 10, "max": 600},
    {"name": "paid_hours", "type": "number", "distinct": 300, "min": 1, "max": 900},
    {"name": "price_index", "type": "number", "distinct": 700, "min": 80, "max": 240},
], 827)  # fmt: skip
CATCH = Schema("salmon_catch", [
    {"name": "year", "type": "number", "distinct": 39, "min": 1974, "max": 2012, "role": "time"},
    {"name": "fisher_type", "type": "string", "distinct": 3, "values": ["Sport", "Treaty", "Non-Treaty"]},
    {"name": "chum", "type": "number", "distinct": 117, "min": 556, "max": 1.2e6},
    {"name": "total_catch", "type": "number", "distinct": 117, "min": 2e5, "max": 6.5e6},
], 117)  # fmt: skip


def test_a_word_that_merely_ends_like_an_identifier_is_a_measure():
    assert POULTRY.numbers == ["turkey", "paid_hours", "price_index"]
    assert read_question("Extrapolate the average monthly turkey production to 2014.", POULTRY).measures == ["turkey"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("For sport fishers only, what were the three best years by total catch?",
         {"kind": "top", "label": "year", "measures": ["total_catch"], "n": 3}),
        ("Since 1990, which group of fishers has seen its chum catch rise fastest each year?",
         {"kind": "rate", "group": "fisher_type", "measures": ["chum"],
          "filters": [{"column": "year", "op": ">=", "value": 1990}]}),
    ],
)  # fmt: skip
def test_the_years_ranked_and_a_measure_named_beside_a_year_filter(text, expected):
    request = read_question(text, CATCH).as_dict()
    assert {key: request[key] for key in expected} == expected


COAL = Schema("coal_employment", [
    {"name": "year", "type": "number", "distinct": 105, "min": 1913, "max": 2017, "role": "time"},
    {"name": "employment", "type": "number", "distinct": 105, "min": 600, "max": 1.2e6},
], 105)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what was the post-1950 peak year for coal jobs",
         {"kind": "which_row", "label": "year", "filters": [{"column": "year", "op": ">", "value": 1950}]}),
        ("Mean employment pre 1930?",
         {"kind": "statistic", "measures": ["employment"], "filters": [{"column": "year", "op": "<", "value": 1930}]}),
    ],
)  # fmt: skip
def test_pre_and_post_a_year_and_the_peak_year(text, expected):
    request = read_question(text, COAL).as_dict()
    assert {key: request[key] for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Had the 1913-1950 trend simply carried on, about how many people would coal mining have employed in 1955?",
         {"kind": "forecast", "to": "1955", "measures": ["employment"], "statistic": "mean",
          "filters": [{"and": [{"column": "year", "op": ">=", "value": 1913}, {"column": "year", "op": "<=", "value": 1950}]}]}),
        ("Based on the years from 1990 through 2011, what yearly employment total would a linear trend predict for 2030?",
         {"kind": "forecast", "to": "2030", "statistic": "sum"}),
    ],
)  # fmt: skip
def test_a_forecast_from_a_window_of_years_and_its_statistic(text, expected):
    request = read_question(text, COAL).as_dict()
    assert {key: request[key] for key in expected} == expected


@pytest.mark.parametrize("last", [None, "2012-12-01"])
def test_a_forecast_to_a_year_past_a_dated_tables_last(last):
    dated = Schema("meat", [{**MEAT.columns[0], "max": last}, *MEAT.columns[1:]], MEAT.rows)
    request = read_question("If the trend continues, what will pork be in 2030?", dated).as_dict()
    expected = {"kind": "forecast", "to": "2030", "filters": []}
    assert {key: request[key] for key in expected} == expected


def test_a_difference_within_chance_asks_for_a_test_and_the_forecast_year_is_no_doubt():
    request = read_question(
        "Did sport fishers catch more chum than treaty fishers, or is the gap within chance?", CATCH
    )
    assert request.kind == "significance"
    text = "Extrapolate the average employment to 2030 with a linear trend."
    reading = read_back(text, COAL, read_question(text, COAL))
    assert not any("2030" in doubt for doubt in reading.said())


@pytest.mark.parametrize(("plural", "column"), [("breeders", "breeder"), ("feeders", "feeder"), ("owners", "owner")])
def test_a_plural_of_an_agent_noun_names_its_column(plural, column):
    assert [m.column for m in mentions(f"the top 3 {plural} by speed", [column, "speed"])] == [column, "speed"]


INFANTS = Schema("infant_health", [
    {"name": "child_no", "type": "number", "distinct": 985, "min": 1, "max": 985, "role": "identifier"},
    {"name": "iq_36_months", "type": "number", "distinct": 90, "min": 40, "max": 140},
    {"name": "mother_race", "type": "string", "distinct": 3, "values": ["black", "hispanic", "white"]},
    {"name": "site", "type": "number", "distinct": 8, "values": list(range(1, 9)), "min": 1, "max": 8},
], 985)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rank the study sites by the children's mean IQ at 36 months and give me the top two.",
         {"kind": "top", "label": "site", "combine": "mean", "n": 2}),
        ("Does the racial mix of the mothers vary from one study site to another?",
         {"kind": "crosstab", "group": "mother_race", "second": "site"}),
    ],
)  # fmt: skip
def test_a_numbered_site_is_a_grouping_ranked_or_crossed(text, expected):
    assert INFANTS.categories == ["mother_race", "site"]
    request = read_question(text, INFANTS).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_the_words_of_a_forecast_asked_are_the_readings_own():
    text = "If the trend continues, what will employment be in 2030?"
    assert read_back(text, COAL, read_question(text, COAL)).said() == []


def test_a_word_that_runs_a_columns_name_together_read_past_is_a_doubt():
    markdowns = Schema("walmart", [
        {"name": "Weekly_Sales", "type": "number", "distinct": 900, "min": 0, "max": 9e4},
        *({"name": f"MarkDown{n}", "type": "number", "distinct": 300, "min": 0, "max": 9e4} for n in (1, 2)),
    ], 1001)  # fmt: skip
    text = "How many rows lack a value for the first markdown?"
    reading = read_back(text, markdowns, read_question(text, markdowns))
    assert any("MarkDown1" in doubt for doubt in reading.said()) and reading.certainty <= 0.6  # a guess, said


STORES = Schema("store_weeks", [
    {"name": "Dept", "type": "number", "distinct": 7, "values": [1, 3, 8, 13, 38, 93, 95], "min": 1, "max": 95},
    {"name": "Weekly_Sales", "type": "number", "distinct": 900, "min": 0, "max": 2e5},
    {"name": "IsHoliday", "type": "number", "distinct": 2, "values": [0, 1], "min": 0, "max": 1},
    {"name": "Qty", "type": "number", "distinct": 90, "min": 0, "max": 400},
], 1001)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which department has the lowest median weekly sales?",
         {"kind": "compare", "group": "Dept", "measures": ["Weekly_Sales"], "statistic": "median"}),
        ("Which department has the largest quantity on average?",
         {"kind": "compare", "group": "Dept", "measures": ["Qty"]}),
    ],
)  # fmt: skip
def test_a_column_named_by_its_contraction_is_the_word_said_in_full(text, expected):
    request = read_question(text, STORES).as_dict()
    assert {key: request[key] for key in expected} == expected


def test_a_word_merely_sharing_a_contractions_letters_names_nothing():
    assert mentions("How did the discount and the debt change?", ["Dept"]) == []
    assert [m.column for m in mentions("the department", ["Dept"])] == ["Dept"]


BIKES = Schema("bike_orders", [
    {"name": "order_date", "type": "date", "distinct": 300, "role": "time"},
    {"name": "quantity", "type": "number", "distinct": 3, "min": 1, "max": 3},
    {"name": "unit_price_usd", "type": "number", "distinct": 90, "min": 400, "max": 12000},
    {"name": "line_total_usd", "type": "number", "distinct": 200, "min": 400, "max": 36000},
    {"name": "model", "type": "string", "distinct": 97, "values": ["Trigger Carbon 2", "Habit 4"]},
    {"name": "bike_type", "type": "string", "distinct": 2, "values": ["Mountain", "Road"]},
    {"name": "state", "type": "string", "distinct": 12, "values": ["KS", "CO", "NY"]},
], 2466)  # fmt: skip
EVENTS = Schema("decathlon", [
    {"name": "athlete", "type": "string", "distinct": 28, "values": ["Sebrle", "Clay"]},
    {"name": "meeting", "type": "string", "distinct": 2, "values": ["Decastar", "Olympics"]},
    {"name": "sprint_100m_s", "type": "number", "distinct": 40, "min": 10.4, "max": 11.7},
    {"name": "run_400m_s", "type": "number", "distinct": 40, "min": 46, "max": 54},
    {"name": "run_1500m_s", "type": "number", "distinct": 40, "min": 262, "max": 317},
    {"name": "javelin_m", "type": "number", "distinct": 40, "min": 50, "max": 71},
], 41)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which state's shops spent the most with us in total dollars?",
         {"measures": ["line_total_usd"], "group": "state", "statistic": "sum"}),
        ("What percentage of revenue came from mountain bikes?", {"kind": "share", "measures": ["line_total_usd"]}),
        ("Our three best-selling models by revenue?",
         {"kind": "top", "measures": ["line_total_usd"], "label": "model", "combine": "sum", "n": 3}),
    ],
)  # fmt: skip
def test_money_said_in_words_is_the_tables_amount_in_a_currency(text, expected):
    request = read_question(text, BIKES).as_dict()
    assert {key: request[key] for key in expected} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("At the Decastar, who ran the slowest 1500 m?",
         {"measures": ["run_1500m_s"], "direction": "high"}),
        ("What was the quickest 100 metres run?",
         {"measures": ["sprint_100m_s"], "direction": "low", "statistic": "min"}),
        ("the 3 longest javelin throws, who threw them", {"kind": "top", "label": "athlete", "n": 3}),
    ],
)  # fmt: skip
def test_an_event_said_by_its_distance_is_its_column_and_a_slow_time_the_longest(text, expected):
    request = read_question(text, EVENTS).as_dict()
    assert {key: request[key] for key in expected} == expected


@pytest.mark.parametrize(
    "text", ["Do clubs that ship more goals end up with fewer points?", "Does conceding goals cost points?"]
)
def test_goals_let_in_are_the_other_sides_goals(text):
    league = Schema("league", [
        {"name": "club", "type": "string", "distinct": 20, "values": ["Arsenal", "Chelsea"]},
        {"name": "goals_for", "type": "number", "distinct": 40, "min": 20, "max": 100},
        {"name": "goals_against", "type": "number", "distinct": 40, "min": 20, "max": 100},
        {"name": "points", "type": "number", "distinct": 40, "min": 20, "max": 100},
    ], 60)  # fmt: skip
    assert "goals_for" not in read_question(text, league).as_dict()["measures"]
    assert [m.column for m in mentions(text, ["goals_for", "goals_against"])] == ["goals_against"]


def test_a_share_of_one_value_between_two_groups_is_tested_for_that_value():
    frames = Schema("bike_orders", [
        *BIKES.columns, {"name": "frame", "type": "string", "distinct": 2, "values": ["Aluminium", "Carbon"]}
    ], 2466)  # fmt: skip
    text = "The carbon share of our mountain-bike lines versus our road-bike lines: significantly different or not?"
    request = read_question(text, frames).as_dict()
    assert {key: request[key] for key in ("kind", "measures", "group", "share_of")} == {
        "kind": "significance",
        "measures": ["frame"],
        "group": "bike_type",
        "share_of": "Carbon",
    }


@pytest.mark.parametrize(
    "text",
    [
        "If the 2000-2018 path of annual average Baa yields continues in a straight line, where will it be in 2021?",
        "If the trend of Baa yields from 2000 to 2018 continues, where will it be in 2021?",
    ],
)
def test_a_forecast_fits_its_line_on_the_years_said_before_the_year_asked(text):
    yields = Schema("bond_yields", [
        {"name": "month", "type": "date", "distinct": 1200, "role": "time", "min": "1919-01-01", "max": "2018-12-01"},
        {"name": "baa_yield_pct", "type": "number", "distinct": 500, "min": 2, "max": 17},
    ], 1200)  # fmt: skip
    request = read_question(text, yields).as_dict()
    assert request["kind"] == "forecast" and request["to"] == "2021"
    assert request["filters"] == [{"and": [
        {"column": "month", "op": ">=", "value": "2000-01-01"}, {"column": "month", "op": "<=", "value": "2018-12-31"}
    ]}]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("On the really hot days - 85 degrees F or hotter - how many deaths per day on average?", (">=", 85)),
        ("How many deaths a day on average on days of 10 degrees or colder?", ("<=", 10)),
    ],
)
def test_a_number_or_a_comparative_after_it_bounds_that_side_and_measures_nothing(text, bound):
    chicago = Schema("chicago", [
        {"name": "deaths", "type": "number", "distinct": 150, "min": 60, "max": 411},
        {"name": "temp_f", "type": "number", "distinct": 100, "min": -16, "max": 92},
    ], 4018)  # fmt: skip
    request = read_question(text, chicago).as_dict()
    assert request["measures"][0] == "deaths"
    assert request["filters"] == [{"column": "temp_f", "op": bound[0], "value": bound[1]}]


def test_percent_said_as_the_unit_of_a_measure_asks_no_share():
    yields = Schema("bond_yields", [
        {"name": "month", "type": "date", "distinct": 1200, "role": "time", "min": "1919-01-01", "max": "2018-12-01"},
        {"name": "aaa_yield_pct", "type": "number", "distinct": 500, "min": 2, "max": 15},
    ], 1200)  # fmt: skip
    for text in (
        "What's the lowest Aaa yield on record in this series (percent)?",
        "The lowest Aaa yield, in percent?",
    ):
        request = read_question(text, yields).as_dict()
        assert (request["kind"], request["statistic"]) == ("statistic", "min")


def test_what_goes_most_with_a_score_is_never_the_scores_own_rank():
    decathlon = Schema("decathlon", [*EVENTS.columns,
        {"name": "rank", "type": "number", "distinct": 41, "min": 1, "max": 41},
        {"name": "points", "type": "number", "distinct": 41, "min": 7000, "max": 8900},
    ], 41)  # fmt: skip
    text = "Which single event's result is most strongly correlated with a decathlete's final score?"
    request = read_question(text, decathlon).as_dict()
    assert request["outcome"] == "points" and "rank" not in request["measures"]
    assert "javelin_m" in request["measures"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("solar power per person, averaged over all the countries each year: going up or down since 1995?", "trend"),
        ("Is solar power per person moving together with wind power per person, or against it?", "association"),
    ],
)
def test_a_course_or_a_moving_together_is_read_past_a_colon_and_its_filter(text, kind):
    energy = Schema("energy", [
        {"name": "country", "type": "string", "distinct": 79, "values": ["Sweden", "Chile"]},
        {"name": "year", "type": "number", "distinct": 25, "min": 1995, "max": 2019, "role": "time"},
        {"name": "solar_kwh", "type": "number", "distinct": 900, "min": 0, "max": 2000},
        {"name": "wind_kwh", "type": "number", "distinct": 900, "min": 0, "max": 5000},
    ], 1975)  # fmt: skip
    assert read_question(text, energy).kind == kind


@pytest.mark.parametrize("said", ["22/23", "2022/23", "22-23", "2022-23"])
def test_a_season_is_kept_however_its_two_years_are_written(said):
    league = Schema("league", [
        {"name": "club", "type": "string", "distinct": 20, "values": ["Arsenal", "Chelsea"]},
        {"name": "season", "type": "string", "distinct": 3, "values": ["2021-22", "2022-23", "2023-24"]},
        {"name": "points", "type": "number", "distinct": 40, "min": 20, "max": 100},
    ], 60)  # fmt: skip
    request = read_question(f"top three of these clubs on points in {said}?", league).as_dict()
    assert request["filters"] == [{"column": "season", "op": "=", "value": "2022-23"}]


@pytest.mark.parametrize(
    "text",
    [
        "Department 95 does better in holiday weeks than in ordinary ones. Does a proper test back that up?",
        "Would a statistical test say the weekly sales of department 95 are higher in holiday weeks?",
    ],
)
def test_a_test_asked_for_in_plain_words_is_a_significance_test(text):
    request = read_question(text, STORES).as_dict()
    assert (request["kind"], request["group"]) == ("significance", "IsHoliday")
    assert request["filters"] == [{"column": "Dept", "op": "=", "value": 95}]


FRAMES = Schema("bike_orders", [
    *BIKES.columns, {"name": "frame", "type": "string", "distinct": 2, "values": ["Aluminum", "Carbon"]}
], 2466)  # fmt: skip


def test_the_rows_said_as_order_lines_are_counted_and_one_value_named_asks_its_groupings_shares():
    share = read_question("What fraction of the order lines are for carbon frames?", FRAMES).as_dict()
    assert {key: share[key] for key in ("kind", "group", "measures", "filters")} == {
        "kind": "share", "group": "frame", "measures": [], "filters": []
    }  # fmt: skip
    crossed = read_question("Does the road/mountain mix of the order lines differ between states?", FRAMES).as_dict()
    assert {key: crossed[key] for key in ("kind", "group", "second")} == {
        "kind": "crosstab", "group": "state", "second": "bike_type"
    }  # fmt: skip


@pytest.mark.parametrize(("said", "value"), [("aluminium", "Aluminum"), ("carbon", "Carbon")])
def test_a_value_is_kept_in_either_spelling(said, value):
    request = read_question(f"Among the {said} bikes only, what is the mean line total?", FRAMES).as_dict()
    assert request["filters"] == [{"column": "frame", "op": "=", "value": value}]


def test_which_nation_added_the_most_per_year_asks_each_countrys_rate():
    energy = Schema("energy", [
        {"name": "country", "type": "string", "distinct": 79},
        {"name": "continent", "type": "string", "distinct": 6, "values": ["Africa", "Asia", "Europe"]},
        {"name": "year", "type": "number", "distinct": 25, "min": 1995, "max": 2019, "role": "time"},
        {"name": "wind_kwh", "type": "number", "distinct": 900, "min": 0, "max": 5000},
    ], 1975)  # fmt: skip
    text = "since 2010 which nation added wind power per head the quickest, kWh per year"
    request = read_question(text, energy).as_dict()
    assert {key: request[key] for key in ("kind", "group", "time", "measures")} == {
        "kind": "rate", "group": "country", "time": "year", "measures": ["wind_kwh"]
    }  # fmt: skip


WEATHER = Schema("tmy_daily", [
    {"name": "station", "type": "string", "distinct": 2, "values": ["Greensboro", "Sand Point"]},
    {"name": "date", "type": "date", "distinct": 365, "role": "time", "min": "2005-01-01", "max": "2005-12-31"},
    {"name": "month", "type": "number", "distinct": 12, "min": 1, "max": 12, "values": list(range(1, 13))},
    {"name": "temp_mean_c", "type": "number", "distinct": 300, "min": -10, "max": 30},
    {"name": "ghi_kwh_m2", "type": "number", "distinct": 300, "min": 0, "max": 9},
    {"name": "pressure_mbar", "type": "number", "distinct": 300, "min": 950, "max": 1040},
], 730)  # fmt: skip
CLINIC = Schema("clinic", [
    {"name": "RANDID", "type": "number", "distinct": 4434, "min": 1, "max": 9999, "role": "identifier"},
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "total_chol", "type": "number", "distinct": 300, "min": 100, "max": 600},
    {"name": "alk_phos", "type": "number", "distinct": 300, "min": 200, "max": 14000},
    {"name": "close_usd", "type": "number", "distinct": 300, "min": 1, "max": 900},
], 4434)  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "text", "measure"),
    [
        (WEATHER, "Which station gets more sunshine on an average day (global horizontal, kWh/m2)?", "ghi_kwh_m2"),
        (WEATHER, "the three months (by number) with the most total irradiation?", "ghi_kwh_m2"),
        (CLINIC, "Is there a real difference in total cholesterol between men and women?", "total_chol"),
        (CLINIC, "Which alkaline phosphatase reading is the most extreme outlier?", "alk_phos"),
        (CLINIC, "What was the average price?", "close_usd"),
    ],
)
def test_a_measure_said_by_its_unit_its_whole_word_or_its_meaning(schema, text, measure):
    assert read_question(text, schema).as_dict()["measures"][0] == measure


def test_a_number_in_a_name_is_no_list_and_a_list_said_by_number_is_one():
    assert read_question("the three months (by number) with the most total irradiation?", WEATHER).n == 3
    index = Schema("stocks", [
        {"name": "month_end", "type": "date", "distinct": 396, "role": "time", "min": "1990-01-31", "max": "2022-12-31"},
        {"name": "sp500_index", "type": "number", "distinct": 396, "min": 300, "max": 4800},
    ], 396)  # fmt: skip
    request = read_question("Since 2000, at which month-end did the S&P 500 close at its lowest?", index)
    assert request.n <= 100


def test_a_code_in_capitals_is_kept_when_said_as_the_word_it_shortens():
    funds = Schema("funds", [
        {"name": "month", "type": "date", "distinct": 108, "role": "time", "min": "2014-01-31", "max": "2022-12-30"},
        {"name": "etf", "type": "string", "distinct": 5, "values": ["MTUM", "QUAL", "SIZE", "USMV", "VLUE"]},
        {"name": "close_usd", "type": "number", "distinct": 500, "min": 20, "max": 180},
    ], 540)  # fmt: skip
    for said, code in (("quality", "QUAL"), ("momentum", "MTUM")):
        request = read_question(f"What was the mean close of the {said} fund?", funds).as_dict()
        assert request["filters"] == [{"column": "etf", "op": "=", "value": code}]


THREE_TEMPERATURES = Schema("weather", [
    {"name": "date", "type": "date", "distinct": 365, "role": "time", "min": "2005-01-01", "max": "2005-12-31"},
    {"name": "temp_mean_c", "type": "number", "distinct": 300, "min": -10, "max": 30},
    {"name": "temp_max_c", "type": "number", "distinct": 300, "min": -5, "max": 36},
    {"name": "temp_min_c", "type": "number", "distinct": 300, "min": -16, "max": 25},
    {"name": "wait_min", "type": "number", "distinct": 60, "min": 0, "max": 60},
], 365)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "measure"),
    [
        ("What was the hottest temperature reached on any day?", "temp_max_c"),
        ("What was the coldest temperature of the year?", "temp_min_c"),
        ("What was the average daily temperature?", "temp_mean_c"),
        ("On which date was the hottest day by the day's mean temperature?", "temp_mean_c"),
        ("How long is the average wait in minutes?", "wait_min"),
    ],
)
def test_siblings_told_apart_by_a_statistic_are_chosen_by_the_statistic_asked(text, measure):
    assert read_question(text, THREE_TEMPERATURES).as_dict()["measures"][0] == measure


def test_a_measure_that_changes_per_year_of_another_is_the_outcome():
    heart = Schema("heart", [
        {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
        {"name": "age", "type": "number", "distinct": 40, "min": 32, "max": 70},
        {"name": "sys_bp", "type": "number", "distinct": 200, "min": 80, "max": 290},
    ], 4434)  # fmt: skip
    text = "Holding sex constant, how does systolic blood pressure change per year of age? Coefficient please."
    request = read_question(text, heart).as_dict()
    assert (request["kind"], request["measures"], request["outcome"]) == ("adjusted", ["age"], "sys_bp")
