"""dataset.unpivot through the SAP endpoint, on whichever database the suite runs on: a wide table's
columns of one kind stacked as rows, its statistics read on the new table, and the structured errors of
columns of two kinds, a name taken and a table past the row bound."""

import pytest

from tests.agents.sap_calls import one, statistician_world

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

PRICES = "month,index_level,AAPL,MSFT,O'NEIL\n2020-01-31,3225,77.4,170.2,1.5\n2020-02-29,2954,68.3,162.0,\n"


@pytest.fixture
def prices():
    world = statistician_world()
    one(world, "action", "file.write", {"path": "prices.csv", "content": PRICES})
    assert one(world, "action", "dataset.import-csv", {"path": "prices.csv", "table": "prices"}).type == "result"
    return world


def test_the_columns_named_are_stacked_beside_the_kept_ones_and_can_be_compared(prices):
    body = {"table": "prices", "columns": ["AAPL", "MSFT"], "keep": ["month"], "name": "ticker", "value": "price"}
    made = one(prices, "action", "dataset.unpivot", body)
    assert made.type == "result", made.body
    assert (made.body["table"], made.body["rows"], made.body["keep"]) == ("prices_long", 4, ["month"])
    rows = one(prices, "query", "dataset.query", {
        "table": "prices_long", "select": ["ticker", "price"], "order_by": [{"column": "ticker"}, {"column": "price"}],
    }).body["rows"]  # fmt: skip
    assert rows == [["AAPL", 68.3], ["AAPL", 77.4], ["MSFT", 162.0], ["MSFT", 170.2]]
    compared = one(prices, "query", "stats.compare", {"table": "prices_long", "measure": "price", "group_by": "ticker"})
    assert [g["group"] for g in compared.body["groups"]] == ["MSFT", "AAPL"]


def test_a_column_named_as_the_import_named_it_and_a_missing_value_are_stacked_as_they_are(prices):
    body = {"table": "prices", "columns": ["AAPL", "O_NEIL"], "keep": ["month"], "into": "quoted"}
    made = one(prices, "action", "dataset.unpivot", body)
    assert made.body.get("rows") == 4, made.body
    rows = one(prices, "query", "dataset.query", {
        "table": "quoted", "select": ["name", "value"], "filters": {"column": "name", "op": "=", "value": "O_NEIL"},
    }).body["rows"]  # fmt: skip
    assert sorted(rows, key=str) == sorted([["O_NEIL", 1.5], ["O_NEIL", None]], key=str)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"table": "prices", "columns": ["AAPL", "month"]}, "VALIDATION_FAILED"),  # a number and a date
        ({"table": "prices", "columns": ["AAPL", "nope"]}, "VALIDATION_FAILED"),
        ({"table": "prices", "columns": ["AAPL", "MSFT"], "name": "month"}, "VALIDATION_FAILED"),
        ({"table": "prices", "columns": ["AAPL", "MSFT"], "into": "prices"}, "VALIDATION_FAILED"),
        ({"table": "nothing", "columns": ["AAPL", "MSFT"]}, "RESOURCE_NOT_FOUND"),
    ],
)
def test_a_bad_stack_gets_a_structured_error_and_writes_nothing(prices, body, code):
    refused = one(prices, "action", "dataset.unpivot", body)
    assert (refused.type, refused.body["code"]) == ("error", code)
    tables = one(prices, "query", "dataset.list-tables", {}).body["tables"]
    assert [t["table"] for t in tables] == ["prices"]


def test_a_stack_made_again_replaces_only_its_own_table(prices):
    body = {"table": "prices", "columns": ["AAPL", "MSFT"], "keep": ["month"]}
    assert one(prices, "action", "dataset.unpivot", body).type == "result"
    assert one(prices, "action", "dataset.unpivot", body).body["code"] == "RESOURCE_ALREADY_EXISTS"
    assert one(prices, "action", "dataset.unpivot", {**body, "replace": True}).body["rows"] == 4
    onto_the_file = {**body, "into": "prices", "replace": True}
    assert one(prices, "action", "dataset.unpivot", onto_the_file).body["code"] == "VALIDATION_FAILED"
