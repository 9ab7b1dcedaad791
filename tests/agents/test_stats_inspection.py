"""The inspection operations over SAP on a session's own table: the top rows by name, outliers beyond
Tukey's fences (within groups too), a distribution's shape in words, and what is missing."""

import pytest

from tests.agents.sap_calls import stats_on

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

TOWNS = """town,region,founded,population,area
Alby,north,1820-05-01,1200,10
Bram,north,1850-01-01,1500,12
Cole,north,1790-03-01,1300,11
Dent,north,1901-07-01,1250,
Eske,south,1811-02-01,1400,9
Fenn,south,1870-06-01,1350,13
Gile,south,1833-08-01,98000,14
Holt,south,1840-09-01,1450,
Isle,south,1860-10-01,-99,12
"""


@pytest.fixture
def ask():
    return stats_on("towns", TOWNS)


def test_the_top_rows_are_named_and_a_lowest_first_list_starts_at_the_bottom(ask):
    top = ask("stats.top", {"measure": "population", "label": "town", "n": 3})
    assert [(r["label"], r["value"]) for r in top["listed"]] == [("Gile", 98000), ("Bram", 1500), ("Holt", 1450)]
    when = ask("stats.top", {"measure": "population", "label": "founded", "n": 1, "direction": "low"})
    assert when["listed"] == [{"label": "1860-10-01", "value": -99}]
    bars = when["chart"]["data"]["values"]  # the row asked for first, among the others: one bar says nothing
    assert bars[0]["row"] == "1860-10-01" and len(bars) == 9


def test_groups_combined_first_when_a_statistic_is_asked(ask):
    top = ask("stats.top", {"measure": "population", "label": "region", "n": 2, "statistic": "sum"})
    assert [r["label"] for r in top["listed"]] == ["south", "north"] and top["listed"][1]["value"] == 5250


def test_outliers_are_the_rows_beyond_the_fences_farthest_first(ask):
    found = ask("stats.outliers", {"measure": "population", "label": "town"})
    assert [(r["label"], r["side"]) for r in found["listed"]] == [("Gile", "high"), ("Isle", "low")]
    assert found["count"] == 2 and all(r["mad_flags"] for r in found["listed"])
    within = ask("stats.outliers", {"measure": "population", "label": "town", "within": "region"})
    assert {f["group"]: f["outliers"] for f in within["fences"]} == {"north": 0, "south": 2}


def test_a_distribution_is_said_in_words(ask):
    shape = ask("stats.distribution", {"measure": "population"})
    assert shape["shape"] == "strongly right-skewed" and shape["percentiles"]["p50"] == 1350
    assert shape["chart"]["layer"][0]["mark"]["type"] == "bar"


def test_missing_values_and_codes_are_counted(ask):
    gaps = ask("stats.missing", {})
    assert gaps["columns"][0] == {"column": "area", "missing": 2, "percent": pytest.approx(22.22, 0.01),
                                  "suspicious_codes": {}}  # fmt: skip
    population = next(c for c in gaps["columns"] if c["column"] == "population")
    assert population["suspicious_codes"] == {"-99": 1} and gaps["complete_rows"] == 7


def test_a_label_that_is_the_measure_is_refused(ask):
    refused = ask("stats.top", {"measure": "population", "label": "population"})
    assert refused["code"] == "VALIDATION_FAILED" and refused["message"] == "each role needs a column of its own"
    assert refused["details"]["invalid"] == {"measure": "population", "label": "population"}
