"""stats.* through the SAP endpoint: the figures a notebook gives on public data, charts that carry
their data, and structured errors for a wrong column, a text measure or a missing permission."""

import pytest

from agents.operations.stats import in_engine
from agents.tokens import token_issue
from sessions.membership import agent_join
from tests.agents.sap_calls import call, iris_world
from tests.factories import make_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def world():
    return iris_world()


@pytest.fixture(autouse=True, params=["rows", "in engine"])
def path(request, monkeypatch):
    """Every test on both paths: the rows read into pandas, and the aggregates DuckDB computes for a big
    table (every table counted as big)."""
    if request.param == "in engine":
        monkeypatch.setattr(in_engine, "IN_ENGINE_FROM_ROWS", 0)
    return request.param


def test_compare_ranks_the_species_by_mean_petal_length_with_anova_and_a_bar_chart(world):
    answer = call(world, "query", "stats.compare", {"table": "iris", "measure": "petal_length", "group_by": "species"})
    assert answer.type == "result"
    groups = {g["group"]: round(g["value"], 3) for g in answer.body["groups"]}
    assert groups == {"virginica": 5.552, "versicolor": 4.26, "setosa": 1.462}  # Fisher's iris, known means
    assert answer.body["groups"][0]["group"] == "virginica"
    assert answer.body["test"]["name"] == "one-way ANOVA" and answer.body["test"]["effect_size"] > 0.9
    chart = answer.body["chart"]
    assert chart["mark"]["type"] == "bar" and len(chart["data"]["values"]) == 3 and chart["description"]


def test_compare_takes_any_statistic_and_the_rows_a_filter_keeps(world):
    body = {"table": "iris", "measure": "sepal_width", "group_by": "species", "statistic": "median",
            "filters": {"column": "species", "op": "!=", "value": "setosa"}}  # fmt: skip
    answer = call(world, "query", "stats.compare", body)
    assert {g["group"]: g["value"] for g in answer.body["groups"]} == {"virginica": 3.0, "versicolor": 2.8}
    assert answer.body["test"]["name"] == "Welch's t-test" and answer.body["test"]["effect"] == "cohens_d"


def test_associate_names_petal_width_as_closest_to_petal_length(world):
    answer = call(world, "query", "stats.associate", {"table": "iris", "outcome": "petal_length"})
    top = answer.body["variables"][0]
    assert top["variable"] == "petal_width" and round(top["pearson_r"], 4) == 0.9629 and top["n"] == 150
    assert top["ci95"][0] < top["pearson_r"] < top["ci95"][1] and top["p_value"] < 1e-10
    assert [layer["mark"]["type"] for layer in answer.body["chart"]["layer"]] == ["point", "line"]


def test_associate_with_a_text_outcome_compares_by_eta(world):
    answer = call(world, "query", "stats.associate", {"table": "iris", "outcome": "species"})
    assert answer.body["method"] == "eta" and answer.body["variables"][0]["variable"] == "petal_length"


def test_share_counts_each_species(world):
    answer = call(world, "query", "stats.share", {"table": "iris", "column": "species"})
    assert [round(c["percent"], 2) for c in answer.body["categories"]] == [33.33, 33.33, 33.33]
    assert answer.body["total"] == 150


def test_rank_differences_of_two_species_uses_cohens_d(world):
    body = {"table": "iris", "group_by": "species", "filters": {"column": "species", "op": "!=", "value": "setosa"}}
    answer = call(world, "query", "stats.rank-differences", body)
    assert answer.body["groups"] == ["versicolor", "virginica"]
    assert answer.body["measures"][0]["measure"] == "petal_width" and answer.body["measures"][0]["effect"] == "cohens_d"


def test_describe_lists_percentiles_and_draws_one_columns_histogram(world):
    body = {"table": "iris", "columns": ["sepal_length"], "percentiles": [50, 90]}
    [column] = call(world, "query", "stats.describe", body).body["columns"]
    assert column["n"] == 150 and round(column["mean"], 3) == 5.843 and column["percentiles"]["p50"] == 5.8
    assert round(column["sd"], 4) == 0.8281  # the sample SD, as R and pandas give it


def test_a_text_column_as_a_measure_is_a_structured_error_naming_the_number_columns(world):
    answer = call(world, "query", "stats.compare", {"table": "iris", "measure": "species", "group_by": "species"})
    assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED"
    answer = call(world, "query", "stats.trend", {"table": "iris", "time": "sepal_length", "measure": "species"})
    assert answer.body["code"] == "VALIDATION_FAILED" and "petal_length" in answer.body["details"]["number_columns"]


def test_an_unknown_column_is_named_with_the_closest_one(world):
    answer = call(world, "query", "stats.share", {"table": "iris", "column": "specie"})
    assert answer.type == "error" and "did you mean 'species'?" in answer.body["suggestion"]


def test_an_agent_without_the_permission_is_refused(world):
    outsider = make_agent("reader", allowed_operations=["dataset.*"])
    agent_join(session=world["session"], agent=outsider)
    world = {**world, "agent": outsider, "token": token_issue(agent=outsider)}
    answer = call(world, "query", "stats.share", {"table": "iris", "column": "species"})
    assert answer.type == "error" and answer.body["code"] == "PERMISSION_DENIED"


def test_trend_per_month_and_growth_per_shop_over_a_date_column_with_a_date_filter(world):
    rows = [
        {"month": f"2025-{m:02d}-01", "shop": shop, "sales": base * (1 + rate) ** (m - 1)}
        for m in range(1, 13)
        for shop, base, rate in (("A", 100, 0.10), ("B", 200, 0.02))
    ]
    columns = [{"name": "month", "type": "date"}, {"name": "shop"}, {"name": "sales", "type": "number"}]
    call(world, "action", "dataset.create-table", {"table": "monthly", "columns": columns})
    call(world, "action", "dataset.insert", {"table": "monthly", "rows": rows})
    since_june = {"column": "month", "op": ">=", "value": "2025-06-01"}
    trend = call(world, "query", "stats.trend", {"table": "monthly", "time": "month", "measure": "sales",
                                                  "statistic": "sum", "filters": since_june}).body  # fmt: skip
    assert trend["period"] == "month" and [p["period"] for p in trend["points"]][:2] == ["2025-06", "2025-07"]
    assert round(trend["points"][0]["value"], 2) == round(100 * 1.1**5 + 200 * 1.02**5, 2)
    assert trend["change"] > 0 and trend["chart"]["mark"]["type"] == "line"
    growth = call(world, "query", "stats.growth", {"table": "monthly", "entity": "shop", "time": "month",
                                                   "measure": "sales"}).body  # fmt: skip
    assert [e["entity"] for e in growth["entities"]] == ["A", "B"]
    assert round(growth["entities"][0]["percent_change"], 1) == round((1.1**11 - 1) * 100, 1)
    assert growth["period"] == "day" and growth["entities"][0]["first_time"] == "2025-01-01"
    quarters = call(world, "query", "stats.growth", {"table": "monthly", "entity": "shop", "time": "month",
                                                     "measure": "sales", "from": "2025Q1", "to": "2025Q4"}).body  # fmt: skip
    a = quarters["entities"][0]  # a quarter named: the mean of its three months
    assert quarters["period"] == "quarter" and (a["first_time"], a["first_n"]) == ("2025Q1", 3)
    assert round(a["first"], 4) == round(100 * (1 + 1.1 + 1.1**2) / 3, 4)


def test_growth_of_each_calendar_month_from_one_year_to_another(world):
    rows = [
        {"month": f"{year}-{m:02d}-01", "riders": 100 * m * (2 if m == 7 and year == 2021 else 1) + year - 2020}
        for year in (2020, 2021)
        for m in range(1, 13)
    ]
    columns = [{"name": "month", "type": "date"}, {"name": "riders", "type": "number"}]
    call(world, "action", "dataset.create-table", {"table": "rides", "columns": columns})
    call(world, "action", "dataset.insert", {"table": "rides", "rows": rows})
    growth = call(world, "query", "stats.growth", {"table": "rides", "entity": "month", "time": "month",
                                                   "measure": "riders", "period": "year",
                                                   "cycle": "month_of_year"}).body  # fmt: skip
    assert len(growth["entities"]) == 12 and growth["entities"][0]["entity"] == "July"
    assert round(growth["entities"][0]["percent_change"], 1) == round((1401 / 700 - 1) * 100, 1)


@pytest.fixture
def regions(world):
    """Two countries per region and year: North's first row (a, 2000) and last row (b, 2010) are two
    different countries, so first-to-last rows say North fell 80%, yet its yearly mean doubled."""
    values = {("North", "a", 2000): 100, ("North", "b", 2000): 10, ("North", "a", 2010): 200,
              ("North", "b", 2010): 20, ("South", "c", 2000): 50, ("South", "d", 2000): 50,
              ("South", "c", 2005): 55, ("South", "c", 2010): 60, ("South", "d", 2010): 60}  # fmt: skip
    rows = [{"region": r, "country": c, "year": y, "gdp": v} for (r, c, y), v in values.items()]
    columns = [{"name": "region"}, {"name": "country"}, {"name": "year", "type": "number"},
               {"name": "gdp", "type": "number"}]  # fmt: skip
    call(world, "action", "dataset.create-table", {"table": "regions", "columns": columns})
    call(world, "action", "dataset.insert", {"table": "regions", "rows": rows})
    return lambda **more: call(world, "query", "stats.growth", {"table": "regions", "entity": "region",
                                                                "time": "year", "measure": "gdp", **more})  # fmt: skip


def test_growth_compares_each_entitys_period_means_not_its_first_and_last_rows(regions):
    answer = regions().body
    north, south = answer["entities"]
    assert north["entity"] == "North" and (north["first"], north["last"], north["percent_change"]) == (55, 110, 100)
    assert (north["first_time"], north["last_time"], north["first_n"], north["last_n"]) == (2000, 2010, 2, 2)
    assert south["entity"] == "South" and south["percent_change"] == 20
    assert answer["chart"]["data"]["values"] == [{"entity": "North", "change": 100}, {"entity": "South", "change": 20}]


def test_growth_ranks_by_absolute_change_between_named_periods(regions):
    absolute = regions(change="absolute", to="2005").body  # North has no 2005: left out, and counted
    assert [(e["entity"], e["change"], e["last_n"]) for e in absolute["entities"]] == [("South", 5, 1)]
    assert absolute["skipped"] == 1 and absolute["to"] == "2005" and absolute["change_by"] == "absolute"
    # 2000 to 2010 in absolute terms: North's mean rose 55, South's 10; in percent 100% and 20%
    named = regions(change="absolute", **{"from": "2000", "to": "2010"}).body
    assert [(e["entity"], e["change"]) for e in named["entities"]] == [("North", 55), ("South", 10)]
    assert "from 2000 to 2010" in named["chart"]["title"] and "(%)" not in named["chart"]["title"]


def test_growth_ranks_by_absolute_change_when_percent_would_rank_otherwise(world):
    rows = [{"shop": s, "year": y, "sales": v} for s, y, v in
            (("big", 2000, 1000), ("big", 2001, 1100), ("small", 2000, 10), ("small", 2001, 20))]  # fmt: skip
    columns = [{"name": "shop"}, {"name": "year", "type": "number"}, {"name": "sales", "type": "number"}]
    call(world, "action", "dataset.create-table", {"table": "shops", "columns": columns})
    call(world, "action", "dataset.insert", {"table": "shops", "rows": rows})
    body = {"table": "shops", "entity": "shop", "time": "year", "measure": "sales"}
    assert [e["entity"] for e in call(world, "query", "stats.growth", body).body["entities"]] == ["small", "big"]
    absolute = call(world, "query", "stats.growth", {**body, "change": "absolute"}).body
    assert [e["entity"] for e in absolute["entities"]] == ["big", "small"]


@pytest.mark.parametrize(
    ("more", "where", "kind"),
    [
        ({"change": "relative"}, "change", "violations"),
        ({"from": "last year"}, "from", "invalid"),
        ({"from": ""}, "from", "violations"),
        ({"to": 2010}, "to", "invalid"),
        ({"from": "1999"}, "from", "invalid"),
        ({"from": "2010", "to": "2000"}, "to", "invalid"),
        ({"period": "decade"}, "period", "violations"),
    ],
)
def test_bad_growth_parameters_are_structured_errors_naming_the_parameter(regions, more, where, kind):
    answer = regions(**more)
    assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED"
    assert where in answer.body["details"][kind]


def test_a_period_the_rows_lack_is_answered_with_the_periods_they_have(regions):
    answer = regions(**{"from": "1999"})
    assert answer.body["details"]["periods"] == ["2000", "2005", "2010"]
    assert "from 2000 to 2010" in answer.body["suggestion"][0]
