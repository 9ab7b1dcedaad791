"""One extreme of one measure, and the share of a total, asked in everyday words: the unit said after a
measure names no second one; a grouping named in full groups the shares."""

from agents.analysis.question import read_question
from agents.analysis.schema import Schema

STATIONS = Schema("stations", [
    {"name": "station", "type": "string", "distinct": 2, "values": ["Greensboro", "Sand Point"]},
    {"name": "date", "type": "date", "distinct": 365, "role": "time", "min": "2005-01-01", "max": "2005-12-31"},
    {"name": "temp_mean_c", "type": "number", "distinct": 300, "min": -10, "max": 30},
    {"name": "temp_max_c", "type": "number", "distinct": 300, "min": -5, "max": 36},
    {"name": "temp_min_c", "type": "number", "distinct": 300, "min": -20, "max": 25},
    {"name": "wind_ms", "type": "number", "distinct": 300, "min": 0, "max": 20},
], 730)  # fmt: skip


def test_the_hottest_temperature_in_celsius_is_one_measure_of_the_daily_maxima_not_a_pair():
    request = read_question("Hottest temperature reached on any day at either station, in Celsius?", STATIONS)
    assert request.kind != "association" and not request.pair and request.measures == ["temp_max_c"]


def test_a_share_by_a_text_column_of_many_values_named_in_full_is_grouped_by_it():
    inverters = Schema("inverters", [
        {"name": "maker", "type": "string", "distinct": 177},
        {"name": "grid_support", "type": "string", "distinct": 2, "values": ["no", "yes"]},
        {"name": "ac_voltage", "type": "number", "distinct": 40, "min": 110, "max": 600},
        {"name": "ac_power_w", "type": "number", "distinct": 900, "min": 100, "max": 900000},
    ], 3264)  # fmt: skip
    text = "Adding up the AC power of every listed model, which maker accounts for the biggest chunk of the total?"
    request = read_question(text, inverters)
    assert (request.kind, request.group, request.weight) == ("share", "maker", "ac_power_w")


GRIDS = Schema("grids", [
    {"name": "region", "type": "string", "distinct": 40},
    {"name": "city", "type": "string", "distinct": 38},
    {"name": "grid_gco2_kwh", "type": "number", "distinct": 40, "min": 2, "max": 723},
], 40)  # fmt: skip


def test_the_best_of_a_measure_worse_when_high_is_its_lowest_and_the_worst_its_highest():
    clean = read_question("the three cities with the cleanest grid (carbon per kWh)?", GRIDS)
    dirty = read_question("Worst region for carbon - which region?", GRIDS)
    prices = Schema("prices", [*GRIDS.columns[:2], {"name": "price_usd", "type": "number", "distinct": 40}], 40)
    best_price = read_question("Which region has the best price?", prices)  # a price is no harm: as said
    assert (clean.measures, clean.direction) == (["grid_gco2_kwh"], "low")
    assert (dirty.measures, dirty.direction) == (["grid_gco2_kwh"], "high")
    assert best_price.direction == "high"
