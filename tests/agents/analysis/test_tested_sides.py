"""A test between the groups a question names: the values it says are the sides (said in full, by either
half of "Washed / Wet", or by a weekday's full name), a yes/no column beside a number groups it, and the
test's own words count inside the span of the values; a name led by its unit (kwh_total) is what that
unit measures; outliers are within groups only where the grouping follows "in its", "for its"; and
independence asked by name is a cross-tab that keeps a value left out (plain Python)."""

from agents.analysis.question import read_question
from agents.analysis.schema import Schema
from agents.analysis.value_words import value_mentions

BEANS = Schema("beans", [
    {"name": "lot_id", "type": "number", "distinct": 200},
    {"name": "method", "type": "string", "distinct": 4,
     "values": ["Anaerobic / Other", "Natural / Dry", "Semi-washed", "Washed / Wet"]},
    {"name": "site", "type": "string", "distinct": 3, "values": ["Lab", "R&D", "manufacturing"]},
    {"name": "audited", "type": "boolean", "distinct": 2, "values": ["no", "yes"]},
    {"name": "cup_score", "type": "number", "distinct": 150, "min": 78, "max": 90},
    {"name": "haul_km", "type": "number", "distinct": 150, "min": 1, "max": 900},
], 200)  # fmt: skip
FLEET = Schema("fleet", [
    {"name": "trip_id", "type": "number", "distinct": 900},
    {"name": "pool_car", "type": "boolean", "distinct": 2, "values": ["no", "yes"]},
    {"name": "kwh_total", "type": "number", "distinct": 800, "min": 0, "max": 60},
    {"name": "distance_miles", "type": "number", "distinct": 300, "min": 1, "max": 90},
], 900)  # fmt: skip


def test_either_half_of_a_slashed_value_and_a_weekdays_full_name_say_the_value():
    values = {"method": ["Natural / Dry", "Washed / Wet"], "day": ["Sat", "Sun", "Tues"]}
    said = value_mentions("washed lots against dry ones, on Saturdays and Tuesdays", values)
    assert [(column, value) for column, value, _ in said] == [
        ("method", "Washed / Wet"), ("method", "Natural / Dry"), ("day", "Sat"), ("day", "Tues")
    ]  # fmt: skip


def test_the_groups_said_are_the_sides_tested_even_where_the_test_words_fall_between_them():
    request = read_question("Do washed lots score significantly higher than natural ones on cup score?", BEANS)
    assert (request.kind, request.group, request.measures) == ("significance", "method", ["cup_score"])
    assert request.filters == [{"column": "method", "op": "in", "value": ["Washed / Wet", "Natural / Dry"]}]


def test_a_share_tested_between_two_sites_said_keeps_those_two():
    request = read_question("Is the share of audited lots significantly different at R&D than at manufacturing?", BEANS)
    assert (request.kind, request.group) == ("significance", "site")
    assert request.filters == [{"column": "site", "op": "in", "value": ["R&D", "manufacturing"]}]


def test_a_yes_no_column_beside_a_number_groups_it_in_a_test():
    request = read_question("Do drivers of pool cars live significantly farther away than the rest (distance)?", FLEET)
    assert (request.kind, request.group, request.measures) == ("significance", "pool_car", ["distance_miles"])


def test_a_name_led_by_its_unit_is_named_by_what_the_unit_measures():
    request = read_question("Is the energy delivered correlated with the distance?", FLEET)
    assert request.kind == "association" and {*request.measures, request.outcome} == {"kwh_total", "distance_miles"}


def test_outliers_are_within_groups_only_where_the_grouping_follows_its_words():
    pooled = read_question("Which lot is the biggest outlier in its cup score?", BEANS)
    grouped = read_question("Which lot is unusual in its cup score for its method?", BEANS)
    assert (pooled.kind, pooled.within) == ("outliers", None)
    assert (grouped.kind, grouped.within) == ("outliers", "method")


def test_independence_asked_by_name_is_a_cross_tab_and_a_value_left_out_stays_out():
    request = read_question("Leaving out 'Semi-washed', is the method independent of the site?", BEANS)
    assert (request.kind, {request.group, request.second}) == ("crosstab", {"method", "site"})
    assert request.filters == [{"column": "method", "op": "!=", "value": "Semi-washed"}]


def test_two_yes_no_columns_related_stay_a_cross_tab():
    request = read_question("Is being audited related to using a pool car? chi-square please", Schema("lots", [
        {"name": "audited", "type": "boolean", "distinct": 2, "values": ["no", "yes"]},
        {"name": "pool_car", "type": "boolean", "distinct": 2, "values": ["no", "yes"]},
        {"name": "haul_km", "type": "number", "distinct": 150, "min": 1, "max": 900},
    ], 200))  # fmt: skip
    assert request.kind == "crosstab"


RIVERS = Schema("rivers", [
    {"name": "day", "type": "date", "distinct": 700},
    {"name": "upstream_flow", "type": "number", "distinct": 650, "min": 2, "max": 90},
    {"name": "delta_flow", "type": "number", "distinct": 650, "min": 3, "max": 120},
    {"name": "gauge", "type": "number", "distinct": 3, "min": 1, "max": 3},
], 700)  # fmt: skip


def test_two_measures_of_the_same_rows_set_against_each_other_are_a_paired_test():
    for text in (
        "Was the delta flow significantly higher than the upstream flow on the same days?",
        "Does delta flow beat upstream flow by a statistically significant margin?",
        "Is upstream flow significantly different from delta flow?",
        "Day by day, do upstream flow and delta flow differ significantly on average (same days paired)?",
    ):
        request = read_question(text, RIVERS)
        pair = {*request.measures, request.second}
        assert (request.kind, request.group, pair) == ("significance", None, {"delta_flow", "upstream_flow"}), text


def test_a_correlation_asked_significant_stays_a_correlation_and_a_few_valued_number_groups():
    assert read_question("Is the correlation of upstream flow and delta flow significant?", RIVERS).kind == (
        "association"
    )
    request = read_question("Do the three gauges differ significantly in upstream flow?", RIVERS)
    assert (request.kind, request.group, request.second) == ("significance", "gauge", None)


def test_the_rows_a_threshold_keeps_against_the_others_are_the_two_groups_tested():
    text = "Is the mean delta flow significantly different between days where upstream flow was below 10 and the rest?"
    request = read_question(text, RIVERS)
    assert (request.kind, request.measures, request.group, request.above) == (
        "significance", ["delta_flow"], "upstream_flow", 10
    )  # fmt: skip
    assert request.filters == []
