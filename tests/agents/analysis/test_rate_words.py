"""How fast, and how much, a measure changes in each group, asked in everyday words: the number the rate
is per said after the change ("climbs with age"), a change said as warming, a slope of each year's mean,
a growth between two years' means."""

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

HEART = Schema("heart", [
    {"name": "patient_no", "type": "number", "distinct": 4000, "min": 1, "max": 9999, "role": "identifier"},
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "age", "type": "number", "distinct": 40, "min": 32, "max": 70},
    {"name": "sys_bp", "type": "number", "distinct": 300, "min": 80, "max": 300},
], 4000)  # fmt: skip
DAYS = Schema("days", [
    {"name": "station", "type": "string", "distinct": 2, "values": ["Greensboro", "Sand Point"]},
    {"name": "month", "type": "number", "distinct": 12, "min": 1, "max": 12, "values": list(range(1, 13))},
    {"name": "temp_mean_c", "type": "number", "distinct": 300, "min": -10, "max": 30},
], 730)  # fmt: skip
FUNDS = Schema("funds", [
    {"name": "month", "type": "date", "distinct": 107, "role": "time", "min": "2014-02-01", "max": "2022-12-01"},
    {"name": "etf", "type": "string", "distinct": 5, "values": ["MTUM", "QUAL", "SIZE", "USMV", "VLUE"]},
    {"name": "close_usd", "type": "number", "distinct": 500, "min": 40, "max": 200},
], 535)  # fmt: skip


def _rate(text: str, schema: Schema) -> dict:
    request = read_question(text, schema).as_dict()
    return {key: request.get(key) for key in ("kind", "measures", "time", "group", "period", "direction")}


def test_a_measure_that_climbs_with_a_number_is_a_rate_per_that_number():
    text = "Systolic pressure climbs with age - but faster for men or for women? mmHg per year of age"
    assert _rate(text, HEART) == {
        "kind": "rate", "measures": ["sys_bp"], "time": "age", "group": "sex", "period": "auto", "direction": "high"
    }  # fmt: skip


def test_warming_up_faster_per_month_is_a_rate():
    text = "From January to July, which station warms up faster - degrees per month on a linear fit of the daily means?"
    assert _rate(text, DAYS) == {
        "kind": "rate", "measures": ["temp_mean_c"], "time": "month", "group": "station", "period": "auto",
        "direction": "high",
    }  # fmt: skip


def test_the_flattest_slope_of_the_yearly_average_is_the_slowest_rate_per_year():
    text = "Per fund, regress the yearly average price on the year: which fund's slope is the flattest?"
    assert _rate(text, FUNDS) == {
        "kind": "rate", "measures": ["close_usd"], "time": "month", "group": "etf", "period": "year", "direction": "low"
    }  # fmt: skip


def test_a_measure_that_varies_significantly_by_a_numbered_stage_is_tested_between_the_stages():
    trial = Schema("trial", [
        {"name": "albumin", "type": "number", "distinct": 300, "min": 1.9, "max": 4.6},
        {"name": "stage", "type": "number", "distinct": 4, "min": 1, "max": 4, "values": [1, 2, 3, 4]},
        {"name": "age", "type": "number", "distinct": 300, "min": 26, "max": 78},
    ], 312)  # fmt: skip
    request = read_question("does albumin vary significantly by histologic stage?", trial)
    assert (request.kind, request.measures, request.group) == ("significance", ["albumin"], "stage")


def test_growth_between_two_years_said_of_a_date_compares_the_years_means():
    request = read_question("Using each fund's average price in 2014 and in 2022, which fund grew the least?", FUNDS)
    assert (request.kind, request.entity, request.time, request.period) == ("growth", "etf", "month", "year")
