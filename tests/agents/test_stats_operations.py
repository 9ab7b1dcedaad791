"""stats.* through the SAP endpoint: the figures a notebook gives on public data, charts that carry
their data, and structured errors for a wrong column, a text measure or a missing permission."""

import json

import pytest
from sklearn.datasets import load_iris

from agents.tokens import token_issue
from sessions.membership import agent_join
from tests.agents.sap_calls import block, sap
from tests.factories import make_agent
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def iris_csv() -> str:
    iris = load_iris()
    lines = ["sepal_length,sepal_width,petal_length,petal_width,species"]
    for row, target in zip(iris.data, iris.target, strict=True):
        lines.append(",".join(f"{v:g}" for v in row) + f",{iris.target_names[target]}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def world():
    world = with_agent(session_of(), "statistician", allowed_operations=["dataset.*", "stats.*", "file.*"])
    call(world, "action", "file.write", {"path": "iris.csv", "content": iris_csv()})
    call(world, "action", "dataset.import-csv", {"path": "iris.csv", "table": "iris"})
    return world


def call(world, kind, name, body):
    return sap(world, block(kind, name, json.dumps(body), "1"))[-1]


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
    assert growth["entities"][0]["first_time"] == "2025-01-01"
