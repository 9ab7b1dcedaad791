"""The analyst's sentences name a statistic and its column once: "the highest mean radius"."""

import pandas as pd

from agents.analysis import prose
from agents.analysis.prose import measure_words
from agents.analysis.request import Request
from agents.operations.stats import timeline
from agents.operations.stats.charts import percentage


def test_a_column_named_after_its_statistic_is_not_said_twice():
    assert measure_words("mean", "mean_radius") == "mean radius"
    assert measure_words("median", "mean_radius") == "median mean radius"
    assert measure_words("mean", "petal_length") == "mean petal length"


def test_percentages_are_said_to_one_decimal_or_two_significant_digits_when_tiny():
    frame = pd.DataFrame({"year": [2000, 2001, 2002], "price": [1381.7, 1381.2, 1380.7]})
    [lead, *_] = prose.trend(Request("trend", "prices"), timeline.trend(frame, "year", "price"))
    assert "-0.072%" in lead and "0.0723" not in lead  # -0.07237%: precision the data cannot carry
    frame = pd.DataFrame({"shop": ["a", "a", "b", "b"], "year": [1, 2, 1, 2], "sales": [3, 10, 7, 8]})
    lines = prose.growth(Request("growth", "shops"), timeline.growth(frame, "shop", "year", "sales"), "who grew most")
    assert "**+233.3%**" in lines[0] and lines[2].startswith("- b: +14.3% ")
    assert [percentage(v) for v in (50.0, -12.345, 1.26, 0.72, 0.0, 0.001234)] == [
        "50",
        "-12.3",
        "1.3",
        "0.72",
        "0",
        "0.0012",
    ]


SHOPS = pd.DataFrame({"shop": ["a", "a", "b", "b"], "year": [1, 2, 1, 2], "sales": [3, 10, 700, 760]})


def test_a_growth_asked_in_absolute_terms_leads_with_the_change_in_the_measures_units():
    result = timeline.growth(SHOPS, "shop", "year", "sales", change="absolute")
    lead = prose.growth(Request("growth", "shops"), result, "which shop added the most sales in absolute terms")[0]
    assert lead.startswith("**b** grew most") and "**+60**" in lead and "(+8.6%)" in lead


def test_the_first_movement_said_tells_which_end_of_the_growth_is_asked():
    result = timeline.growth(SHOPS, "shop", "year", "sales")
    for text, leader in [
        ("which shop grew the most (or dropped least)?", "a"),
        ("which shop fell the most?", "b"),
        ("which shop grew least?", "b"),
        ("which shop shrank the least?", "a"),
        ("the worst performer", "b"),
    ]:
        assert prose.growth(Request("growth", "shops"), result, text)[0].startswith(f"**{leader}**"), text


def test_an_improvement_said_as_a_drop_asks_for_the_largest_fall():
    result = timeline.growth(SHOPS, "shop", "year", "sales")
    text = "Where did the rate improve the most, i.e. drop by the largest percentage?"
    assert prose.growth(Request("growth", "shops"), result, text)[0].startswith("**b**")


def test_the_n_most_common_asked_are_all_in_the_lead():
    categories = [{"value": v, "amount": a, "percent": a / 5} for v, a in (("ABB", 302), ("SMA", 172), ("Fronius", 26))]
    result = {"column": "maker", "weight": None, "total": 500, "categories": categories}
    lead = prose.share(
        Request(kind="share", table="inverters"), result, "Which two manufacturers have the most models?"
    )[0]
    assert lead.startswith("The 2 maker values with the most rows: **ABB** (**302**, 60.4%), then SMA (172, 34.4%)")
    assert "Fronius" not in lead


def test_a_share_of_the_rows_over_a_column_of_values_each_once_ranks_nothing_and_says_so():
    categories = [{"value": code, "amount": 1, "percent": 100 / 3} for code in ("ABW", "AFG", "AGO")]
    result = {"column": "iso3", "weight": None, "total": 3, "categories": categories}
    lines = prose.share(Request(kind="share", table="energy"), result, "Which country has the largest slice?")
    assert lines == [
        "Every iso3 appears once (3 rows), so a share of the rows ranks nothing: I could not tell which measure "
        "to share out. Name it (“the share of the total ...”)."
    ]


def test_a_temperature_compared_is_never_said_as_a_ratio():
    groups = [{"group": "Greensboro", "value": 14.42, "n": 365}, {"group": "Sand Point", "value": 4.42, "n": 365}]
    result = {"groups": groups, "ratio": 3.263, "difference": 10.0, "test": None}
    warm = prose.compare(Request(kind="compare", table="days", measures=["temp_mean_c"], group="station"), result)
    heavy = prose.compare(Request(kind="compare", table="days", measures=["weight_kg"], group="station"), result)
    assert not any(" times " in line for line in warm) and any(" times Sand Point" in line for line in heavy)
