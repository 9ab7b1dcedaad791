"""stats.compare, associate, trend and growth computed in DuckDB (a big table's path) answer as the row
path does, side by side on the same calls (test_stats_operations runs each of its tests on both paths)."""

import pytest

from agents.operations.stats import in_engine
from tests.agents.sap_calls import call, iris_world

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

CALLS = [
    ("stats.compare", {"table": "iris", "measure": "petal_length", "group_by": "species"}),
    ("stats.compare", {"table": "iris", "measure": "sepal_width", "group_by": "species", "statistic": "median",
                       "filters": {"column": "species", "op": "!=", "value": "setosa"}}),
    ("stats.compare", {"table": "iris", "measure": "petal_width", "group_by": "species", "statistic": "percentile",
                       "percentile": 90}),
    ("stats.associate", {"table": "iris", "outcome": "petal_length"}),
    ("stats.associate", {"table": "iris", "outcome": "species"}),
    ("stats.associate", {"table": "iris", "outcome": "species", "filters": {"column": "species", "op": "in",
                                                                            "value": ["setosa", "virginica"]}}),
]  # fmt: skip


@pytest.fixture
def world():
    return iris_world()


def _close(a, b, path=""):
    """Equal, numbers to 1e-9 relative (the two paths sum in different orders)."""
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for key in a:
            _close(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-9, abs=1e-12), path
    else:
        assert a == b, path


@pytest.mark.parametrize(("name", "body"), CALLS)
def test_the_in_engine_answer_is_the_row_paths_answer(world, monkeypatch, name, body):
    rows = call(world, "query", name, body).body
    monkeypatch.setattr(in_engine, "IN_ENGINE_FROM_ROWS", 0)
    engine = call(world, "query", name, body).body
    assert "sample" not in engine  # 150 rows: every one of them
    for answer in (rows, engine):
        answer.pop("chart", None)
        for variable in answer.get("variables", []):
            variable.pop("spearman_rho", None)  # the same rows, read in another order
    _close(rows, engine)


def test_the_report_says_which_figure_came_from_a_sample(world):
    from agents.analysis import prose
    from agents.analysis.request import Request

    answer = call(world, "query", "stats.associate", {"table": "iris", "outcome": "petal_length"}).body
    said = "\n".join(prose.association(Request(kind="association", table="iris", outcome="petal_length"), answer))
    assert "rho = " in said and "sample" not in said
    answer["sample"] = {"rows": 50_000, "of": 10_000_000, "seed": 41, "used_for": ["spearman_rho", "chart"]}
    said = "\n".join(prose.association(Request(kind="association", table="iris", outcome="petal_length"), answer))
    assert "on a random sample of about 50,000 of the 10,000,000 rows" in said
