"""dataset.join through the SAP endpoint, on whichever database the suite runs on: what matched, the key
it found, and the structured errors of a bad key, a many-to-many join past its bound and a caller
without the permission."""

import pytest

from tests.agents.sap_calls import one
from tests.people import with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

COUNTRIES = (
    "iso3,name,region\nFRA,France,Europe\nDEU,Germany,Europe\nJPN,Japan,Asia\nKEN,Kenya,Africa\nXKX,Kosovo,Europe\n"
)
POPULATIONS = (
    "iso3,name,population\nFRA,France,68.2\nDEU,Germany,84.1\nJPN,Japan,124.5\nKEN,Kenya,55.1\nTWN,Taiwan,23.9\n"
)


def load(world, table, content):
    one(world, "action", "file.write", {"path": f"{table}.csv", "content": content})
    assert one(world, "action", "dataset.import-csv", {"path": f"{table}.csv", "table": table}).type == "result"


@pytest.fixture
def tables(world):
    load(world, "countries", COUNTRIES)
    load(world, "populations", POPULATIONS)
    return world


def test_an_inner_join_says_what_matched_and_what_did_not(tables):
    joined = one(tables, "action", "dataset.join", {"left": "countries", "right": "populations", "on": ["iso3"]})
    assert joined.type == "result", joined.body
    body = joined.body
    assert body["table"] == "countries_populations" and body["on"] == ["iso3"] and body["rows"] == 4
    assert (body["left"]["rows"], body["left"]["matched"], body["left"]["unmatched"]) == (5, 4, 1)
    assert body["left"]["unmatched_keys"] == ["XKX"] and body["right"]["unmatched_keys"] == ["TWN"]
    assert body["left"]["key_unique"] and body["right"]["key_unique"]
    # The right table's own "name" is kept beside the left's, renamed.
    assert [c["name"] for c in body["columns"]] == ["iso3", "name", "region", "name_populations", "population"]
    rows = one(
        tables,
        "query",
        "dataset.query",
        {"table": "countries_populations", "select": ["iso3", "population"], "order_by": [{"column": "iso3"}]},
    ).body["rows"]
    assert rows == [["DEU", 84.1], ["FRA", 68.2], ["JPN", 124.5], ["KEN", 55.1]]


def test_a_left_join_keeps_every_left_row_and_the_key_is_found(tables):
    body = one(tables, "action", "dataset.join", {"left": "countries", "right": "populations", "how": "left"}).body
    # iso3 and name are both shared and unique; the id-like name wins.
    assert body["on"] == ["iso3"] and body["key"]["found"] is True and "iso3" in body["key"]["why"]
    assert body["rows"] == 5
    kosovo = one(
        tables,
        "query",
        "dataset.query",
        {"table": "countries_populations", "select": ["population"], "filters": {"column": "iso3", "value": "XKX"}},
    ).body["rows"]
    assert kosovo == [[None]]


def test_a_key_not_in_both_tables_is_a_structured_error(tables):
    error = one(tables, "action", "dataset.join", {"left": "countries", "right": "populations", "on": ["region"]})
    assert error.type == "error" and error.body["code"] == "VALIDATION_FAILED"
    assert error.body["category"] == "validation" and error.body["retryable"] is False
    assert error.body["details"]["invalid"] == {"on[0]": "no column 'region' in 'populations'"}
    assert error.body["details"]["shared_columns"] == ["iso3", "name"]
    assert any("iso3" in hint for hint in error.body["suggestion"])


def test_tables_without_a_shared_key_are_refused(world):
    load(world, "countries", COUNTRIES)
    load(world, "prices", "sku,price\nA1,3.5\nB2,4\n")
    error = one(world, "action", "dataset.join", {"left": "countries", "right": "prices"}).body
    assert error["code"] == "VALIDATION_FAILED" and "share no column" in error["message"]


def test_a_many_to_many_join_past_its_bound_is_refused_before_anything_is_written(world):
    load(world, "visits", "shop,day\nA,1\nA,2\nA,3\nB,1\n")
    load(world, "staff", "shop,person\nA,x\nA,y\nA,z\nB,w\n")
    error = one(world, "action", "dataset.join", {"left": "visits", "right": "staff", "max_rows": 5}).body
    assert error["code"] == "LIMIT_EXCEEDED" and error["category"] == "limit" and error["retryable"] is False
    assert error["details"]["result_rows"] == 10 and error["details"]["many_to_many"] is True
    assert "many-to-many" in error["message"] and error["suggestion"]
    listed = one(world, "query", "dataset.list-tables", {}).body["tables"]
    assert {t["table"] for t in listed} == {"visits", "staff"}
    made = one(world, "action", "dataset.join", {"left": "visits", "right": "staff"}).body
    assert made["rows"] == 10 and not made["left"]["key_unique"] and not made["right"]["key_unique"]


def test_an_existing_table_is_replaced_only_when_a_join_made_it(tables):
    body = {"left": "countries", "right": "populations", "into": "populations"}
    assert one(tables, "action", "dataset.join", body).body["code"] == "VALIDATION_FAILED"
    body["into"] = "joined"
    assert one(tables, "action", "dataset.join", body).type == "result"
    assert one(tables, "action", "dataset.join", body).body["code"] == "RESOURCE_ALREADY_EXISTS"
    assert one(tables, "action", "dataset.join", {**body, "replace": True}).body["rows"] == 4


def test_a_caller_without_dataset_writes_may_not_join(tables):
    reader = with_agent(tables, "reader", allowed_operations=["dataset.query", "dataset.list-tables"])
    error = one(reader, "action", "dataset.join", {"left": "countries", "right": "populations"}).body
    assert error["code"] == "PERMISSION_DENIED"
