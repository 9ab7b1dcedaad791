"""A page of query results keeps the same limits on SQLite and PostgreSQL, refused before the
workbench holds what is too big, and dataset SQL is the user's text, whatever characters it has."""

import tracemalloc

import pytest
from django.db import connections

from agents.operations.datasets import pages
from agents.operations.datasets.store import open_store
from tests.agents.sap_calls import load_sales, one

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def postgres():
    return connections["datasets"].vendor == "postgresql"


def test_a_percent_sign_in_sql_is_just_a_character(world):
    load_sales(world)
    answer = one(world, "query", "dataset.query", {"sql": "SELECT region FROM sales WHERE region LIKE 'E%' LIMIT 1"})
    assert answer.type == "result", answer.body
    assert answer.body["rows"] == [["EU"]]
    literal = one(world, "query", "dataset.query", {"sql": "SELECT '100%s %% %(x)s' AS said FROM sales LIMIT 1"})
    assert literal.body["rows"] == [["100%s %% %(x)s"]]
    structured = {"table": "sales", "select": ["region"], "filters": {"column": "region", "op": "like", "value": "U%"}}
    assert one(world, "query", "dataset.query", structured).body["rows"] == [["US"], ["US"]]


def huge_value_sql() -> str:
    """A 30 MB value built by the database from a few characters of SQL."""
    if postgres():
        return "SELECT lpad('x', 30000000, 'y') AS big"
    return (
        "WITH RECURSIVE r(s, n) AS (SELECT 'xxxxxxxxxxxxxxx', 0 UNION ALL SELECT s || s, n + 1 FROM r WHERE n < 21) "
        "SELECT s AS big FROM r"
    )


def test_a_value_past_the_limit_is_refused_with_limit_exceeded(world):
    load_sales(world)
    answer = one(world, "query", "dataset.query", {"sql": huge_value_sql()})
    assert answer.type == "error" and answer.body["code"] == "LIMIT_EXCEEDED", answer.body
    assert answer.body["details"]["limit_bytes"] == pages.MAX_VALUE_BYTES
    assert answer.body["details"]["measure"] == "value"
    assert answer.body["suggestion"]


def test_postgresql_refuses_a_huge_value_before_the_workbench_reads_it(world):
    if not postgres():
        pytest.skip("a PostgreSQL property (SQLite refuses to build the value at all)")
    load_sales(world)
    tracemalloc.start()
    try:
        with open_store(world["session"].pk) as store, pytest.raises(pages.ProtocolError) as refused:
            store.read(huge_value_sql(), [], limit=10, offset=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.code == "LIMIT_EXCEEDED" and refused.value.details["bytes"] == 30_000_000
    assert peak < pages.MAX_VALUE_BYTES // 10


def test_a_page_past_the_byte_limit_is_refused_and_a_smaller_page_is_not(world, monkeypatch):
    load_sales(world)
    monkeypatch.setattr(pages, "MAX_PAGE_BYTES", 30)
    answer = one(world, "query", "dataset.query", {"sql": "SELECT region, day FROM sales"})
    assert answer.type == "error" and answer.body["code"] == "LIMIT_EXCEEDED", answer.body
    assert answer.body["details"]["measure"] == "page" and answer.body["details"]["limit_bytes"] == 30
    structured = one(world, "query", "dataset.query", {"table": "sales", "select": ["region", "day"]})
    assert structured.body["code"] == "LIMIT_EXCEEDED"
    smaller = one(world, "query", "dataset.query", {"sql": "SELECT region FROM sales ORDER BY region", "limit": 2})
    assert smaller.type == "result" and smaller.body["rows"] == [["EU"], ["EU"]] and smaller.body["truncated"]
    assert smaller.body["total_rows"] == 4


def test_an_empty_page_and_an_offset_past_the_end_are_empty(world):
    load_sales(world)
    empty = one(world, "query", "dataset.query", {"sql": "SELECT region FROM sales WHERE region = 'nowhere'"})
    assert empty.body["rows"] == [] and empty.body["columns"] == ["region"]
    past = one(world, "query", "dataset.query", {"table": "sales", "offset": 10})
    assert past.body["rows"] == [] and past.body["total_rows"] == 10
