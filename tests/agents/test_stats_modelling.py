"""The modelling operations over SAP: a forecast with its interval and a warning for a long horizon, a
rate per group, and an association that turns once a grouping is accounted for (Simpson's paradox)."""

import numpy as np
import pytest

from tests.agents.sap_calls import stats_on

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def ask():
    rng = np.random.default_rng(3)
    lines = ["year,region,dose,response,day,feed,weight,recovered"]
    for i in range(300):
        region = "abc"[i % 3]
        dose = rng.normal({"a": 1, "b": 5, "c": 9}[region], 1)  # dose rises by region ...
        response = (
            {"a": 30, "b": 20, "c": 10}[region] + 2 * (dose - {"a": 1, "b": 5, "c": 9}[region]) + rng.normal(0, 0.5)
        )
        feed, day = "xy"[i % 2], i % 21
        weight = 40 + (8 if feed == "x" else 5) * day + rng.normal(0, 2)
        recovered = "yes" if rng.random() < 1 / (1 + np.exp(-(dose - 5))) else "no"
        lines.append(f"{2000 + i % 20},{region},{dose:.4f},{response:.4f},{day},{feed},{weight:.3f},{recovered}")
    return stats_on("t", "\n".join(lines) + "\n")


def test_an_association_that_turns_within_the_groups_is_flagged(ask):
    fit = ask("stats.regress", {"outcome": "response", "variable": "dose", "controls": ["region"]})
    assert fit["unadjusted"]["coefficient"] < 0 < fit["adjusted"]["coefficient"] and fit["sign_reversed"]
    assert fit["adjusted"]["coefficient"] == pytest.approx(2, abs=0.1) and fit["model"] == "OLS, HC3 robust errors"


def test_the_chart_of_an_association_that_turns_draws_it_within_each_group(ask):
    chart = ask("stats.regress", {"outcome": "response", "variable": "dose", "controls": ["region"]})["chart"]
    points, within, pooled = chart["layer"]
    assert points["encoding"]["color"]["field"] == "group"
    ends = within["data"]["values"]
    for region in "abc":
        (x0, y0), (x1, y1) = [(e["x"], e["y"]) for e in ends if e["group"] == region]
        assert (y1 - y0) / (x1 - x0) == pytest.approx(2, abs=0.1)  # the adjusted slope, rising in each region
    (x0, y0), (x1, y1) = [(e["x"], e["y"]) for e in pooled["data"]["values"]]
    assert y1 < y0 and pooled["mark"]["strokeDash"]  # the pooled line falls, dashed


def test_a_yes_no_outcome_is_fitted_by_logistic_regression(ask):
    fit = ask("stats.regress", {"outcome": "recovered", "variable": "dose"})
    assert fit["model"].startswith("logistic") and fit["outcome_coded_1"] == "yes"
    assert fit["adjusted"]["coefficient"] > 0.5


def test_rates_per_group_are_slopes_steepest_first(ask):
    found = ask("stats.rates", {"time": "day", "measure": "weight", "group_by": "feed"})
    assert [g["group"] for g in found["groups"]] == ["x", "y"] and found["per"] == "day"
    assert found["groups"][0]["slope"] == pytest.approx(8, abs=0.1)


def test_a_forecast_gives_the_line_and_its_interval_and_says_a_long_horizon(ask):
    near = ask("stats.forecast", {"time": "year", "measure": "weight", "to": "2021"})
    assert near["forecast"]["history"] == [2000, 2019] and not near["long_horizon"]
    low, high = near["forecast"]["interval95"]
    assert low < near["forecast"]["value"] < high
    far = ask("stats.forecast", {"time": "year", "measure": "weight", "to": "2040"})
    assert far["long_horizon"] and far["forecast"]["steps_ahead"] == 21


def test_a_past_period_is_no_forecast(ask):
    past = ask("stats.forecast", {"time": "year", "measure": "weight", "to": "2005"})
    assert past["forecast"] is None and "not after the last period" in past["why"]


def test_a_rate_per_year_of_a_date_is_the_slope_of_each_years_mean():
    lines = ["day,shop,sales"]
    for year, (a_mean, b_mean) in enumerate([(10, 50), (20, 40), (30, 30)]):
        for month, wobble in ((1, -4), (6, 0), (12, 4)):  # each year's mean is its middle value
            lines += [f"{2020 + year}-{month:02d}-15,a,{a_mean + wobble}", f"{2020 + year}-{month:02d}-15,b,{b_mean}"]
    found = stats_on("s", "\n".join(lines) + "\n")(
        "stats.rates", {"time": "day", "measure": "sales", "group_by": "shop", "period": "year"}
    )
    assert found["per"] == "year" and [g["group"] for g in found["groups"]] == ["a", "b"]
    assert [g["slope"] for g in found["groups"]] == [10, -10] and [g["n"] for g in found["groups"]] == [3, 3]


def test_a_year_held_fixed_is_one_intercept_per_year_as_statsmodels_fits_it(ask):
    import pandas as pd
    import statsmodels.formula.api as smf

    fixed = ask(
        "stats.regress", {"outcome": "weight", "variable": "day", "controls": ["year"], "fixed_effects": ["year"]}
    )
    linear = ask("stats.regress", {"outcome": "weight", "variable": "day", "controls": ["year"]})
    assert fixed["n"] == linear["n"] == 300
    assert fixed["adjusted"]["coefficient"] != pytest.approx(linear["adjusted"]["coefficient"], abs=1e-9)
    frame = pd.DataFrame(ask("dataset.query", {"select": ["weight", "day", "year"], "limit": 1000})["rows"],
                         columns=["weight", "day", "year"])  # fmt: skip
    expected = smf.ols("weight ~ day + C(year)", data=frame).fit().params["day"]
    assert fixed["adjusted"]["coefficient"] == pytest.approx(expected, rel=1e-6)


def test_fixed_effects_outside_the_controls_are_refused_with_a_structured_error(ask):
    refused = ask("stats.regress", {"outcome": "weight", "variable": "day", "fixed_effects": ["year"]})
    assert refused["code"] == "VALIDATION_FAILED" and refused["details"]["invalid"] == {"fixed_effects": ["year"]}


SEASONAL = "\n".join(
    ["day,station,temp,rain"]
    + [
        f"{2000 + y}-{m:02d}-15,{s},{(20 if m in (6, 7, 8) else 5) + (2 * y if m in (12, 1, 2) else 0.5 * y)},"
        f"{(m * 7 + y) % 5}"
        for y in range(4)
        for m in range(1, 13)
        for s in ("x", "y")
    ]
)  # winter warms 2 a year, the other seasons 0.5


def test_a_date_read_as_its_season_groups_a_rate_over_the_same_date():
    found = stats_on("w", SEASONAL + "\n")(
        "stats.rates", {"time": "day", "measure": "temp", "group_by": "day", "cycle": "season", "period": "year"}
    )
    assert found["group_by"] == "season of day" and found["groups"][0]["group"] == "winter"
    assert [g["group"] for g in found["groups"]].count("winter") == 1 and len(found["groups"]) == 4


def test_a_date_read_as_its_season_is_a_control_of_an_adjusted_fit():
    fit = stats_on("w", SEASONAL + "\n")(
        "stats.regress", {"outcome": "temp", "variable": "rain", "controls": ["day"], "cycle": "season"}
    )
    assert fit["controls"] == ["season of day"] and fit["n"] == 96


def test_a_cycle_of_a_column_that_is_no_date_is_refused_with_a_structured_error():
    refused = stats_on("w", SEASONAL + "\n")(
        "stats.significance", {"measure": "temp", "group_by": "station", "cycle": "season"}
    )
    assert refused["code"] == "VALIDATION_FAILED" and refused["details"]["invalid"]["group_by"] == "station"


def test_a_date_read_as_its_month_shares_the_rows_out_by_calendar_month():
    shares = stats_on("w", SEASONAL + "\n")("stats.share", {"column": "day", "cycle": "month_of_year"})
    assert shares["column"] == "month of day" and len(shares["categories"]) == 12
    assert {c["value"] for c in shares["categories"]} >= {"January", "December"}
