"""dataset.* through the SAP endpoint, on whichever database the suite runs on."""

import pytest

from sessions.membership import agent_join
from tests.agents.sap_calls import load_sales, one
from tests.factories import make_session

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def test_reference_progressive_errors_for_create_table_end_to_end(world):
    first = one(world, "action", "dataset.create-table", {"columns": "id"})
    assert first.body["details"] == {"missing": ["table"]}
    second = one(world, "action", "dataset.create-table", {"table": "users", "columns": "id"})
    assert second.body["details"] == {"invalid": {"columns": "expected array, got string"}}
    cols = [{"name": "id", "type": "number", "nullable": False}, {"name": "name", "type": "string", "nullable": False}]
    created = one(world, "action", "dataset.create-table", {"table": "users", "columns": cols})
    assert created.type == "result" and [c["type"] for c in created.body["columns"]] == ["number", "string"]
    third = one(world, "action", "dataset.create-table", {"table": "users", "columns": cols})
    assert third.body["code"] == "RESOURCE_ALREADY_EXISTS" and "such as 'users_v2'" in third.body["suggestion"]
    assert (
        one(world, "action", "dataset.create-table", {"table": "users", "columns": cols, "if_not_exists": True}).body[
            "status"
        ]
        == "exists"
    )
    assert one(world, "query", "dataset.table-exists", {"table": "users"}).body["exists"] is True


def test_import_describe_query_and_export(world):
    report = load_sales(world)
    assert report.body["rows_loaded"] == 4 and report.body["rows_rejected"] == 1
    assert report.body["rejected"][0]["line"] == 6
    assert [c["type"] for c in report.body["columns"]] == ["string", "number", "boolean", "date"]
    described = one(world, "query", "dataset.describe-table", {"table": "sales"}).body
    amount = described["columns"][1]
    assert described["row_count"] == 4 and (amount["null_count"], amount["min"], amount["max"]) == (1, 7, 20)
    grouped = one(
        world,
        "query",
        "dataset.query",
        {
            "table": "sales",
            "select": ["region", {"fn": "sum", "column": "amount", "as": "total"}, {"fn": "count", "as": "n"}],
            "group_by": ["region"],
            "order_by": [{"column": "total", "direction": "desc"}],
        },
    ).body
    assert grouped["columns"] == ["region", "total", "n"]
    assert grouped["rows"] == [["EU", 30.5, 2], ["US", 7.0, 2]]
    filtered = one(
        world,
        "query",
        "dataset.query",
        {
            "table": "sales",
            "select": ["day"],
            "filters": {"or": [{"column": "amount", "op": ">=", "value": 20}, {"column": "amount", "op": "is_null"}]},
            "order_by": [{"column": "day"}],
        },
    ).body
    assert [row[0] for row in filtered["rows"]] in ([None, "2024-01-02"], ["2024-01-02", None])
    cut = one(world, "query", "dataset.query", {"table": "sales", "limit": 3}).body
    assert cut["truncated"] is True and cut["total_rows"] == 4 and cut["row_count"] == 3
    raw = one(
        world,
        "query",
        "dataset.query",
        {"sql": "SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY region"},
    ).body
    assert raw["rows"] == [["EU", 2], ["US", 2]]
    exported = one(world, "action", "dataset.export-csv", {"table": "sales", "path": "out/sales.csv"})
    assert exported.body["rows"] == 4
    read = one(world, "query", "file.read", {"path": "out/sales.csv"}).body["content"]
    assert read.splitlines()[0] == "region,amount,paid,day"
    listing = one(world, "query", "dataset.list-tables", {}).body
    assert listing["tables"] == [{"table": "sales", "rows": 4}]


def test_query_names_and_values_the_table_cannot_take_get_structured_errors(world):
    load_sales(world)
    misspelt = one(world, "query", "dataset.query", {"table": "sales", "select": ["regoin"]}).body
    assert misspelt["code"] == "VALIDATION_FAILED" and misspelt["suggestion"] == ["did you mean 'region'?"]
    assert misspelt["details"]["invalid"] == {"select[0]": "unknown column 'regoin'"}
    ordered = one(world, "query", "dataset.query", {"table": "sales", "order_by": [{"column": "nope"}]}).body
    assert ordered["details"]["invalid"] == {"order_by[0].column": "unknown column 'nope'"}
    mistyped = {"table": "sales", "filters": {"column": "day", "op": ">", "value": "not a date"}}
    compared = one(world, "query", "dataset.query", mistyped)  # SQLite compares text; PostgreSQL refuses
    assert compared.type == "result" or compared.body["code"] == "VALIDATION_FAILED"
    everything = one(world, "query", "dataset.query", {"table": "sales", "select": ["*"], "limit": 1}).body
    assert everything["columns"] == ["region", "amount", "paid", "day"]


def test_insert_checks_types_and_columns(world):
    cols = [{"name": "id", "type": "number", "nullable": False}, {"name": "ok", "type": "boolean"}]
    one(world, "action", "dataset.create-table", {"table": "t", "columns": cols})
    assert (
        one(world, "action", "dataset.insert", {"table": "t", "rows": [{"id": 1, "ok": True}, {"id": 2}]}).body[
            "inserted"
        ]
        == 2
    )
    bad = one(world, "action", "dataset.insert", {"table": "t", "rows": [{"id": "x"}]})
    assert bad.body["code"] == "VALIDATION_FAILED" and "rows[0].id" in bad.body["details"]["invalid"]
    assert (
        one(world, "action", "dataset.insert", {"table": "t", "rows": [{"ok": True}]}).body["code"]
        == "VALIDATION_FAILED"
    )
    assert (
        one(world, "action", "dataset.insert", {"table": "t", "rows": [{"id": 3, "nope": 1}]}).body["code"]
        == "VALIDATION_FAILED"
    )
    assert (
        one(world, "action", "dataset.insert", {"table": "missing", "rows": [{"id": 1}]}).body["code"]
        == "RESOURCE_NOT_FOUND"
    )


@pytest.mark.parametrize(
    "sql",
    [
        "DROP TABLE sales",
        "SELECT 1; DROP TABLE sales",
        "DELETE FROM sales",
        "SELECT * FROM chap_sessions_message",
        "SELECT * FROM auth_user",
        "SELECT * INTO stolen FROM sales",
        "SELECT pg_sleep(10)",
        "SELECT * FROM main.sqlite_master",
        "SELECT * FROM public.auth_user",
        "WITH x AS (SELECT * FROM auth_user) SELECT * FROM x",
    ],
)
def test_sql_that_is_not_a_read_of_own_tables_is_refused(world, sql):
    load_sales(world)
    error = one(world, "query", "dataset.query", {"sql": sql})
    assert error.type == "error" and error.body["code"] in ("PERMISSION_DENIED", "VALIDATION_FAILED"), error.body
    assert one(world, "query", "dataset.table-exists", {"table": "sales"}).body["exists"] is True


def test_injection_through_identifiers_and_values_changes_nothing(world):
    load_sales(world)
    evil = 'x"; DROP TABLE sales; --'
    assert (
        one(world, "action", "dataset.create-table", {"table": evil, "columns": [{"name": "a"}]}).body["code"]
        == "VALIDATION_FAILED"
    )
    assert (
        one(world, "query", "dataset.query", {"table": "sales", "select": [evil]}).body["code"] == "VALIDATION_FAILED"
    )
    assert (
        one(world, "query", "dataset.query", {"table": "sales", "select": [{"fn": "count", "as": evil}]}).body["code"]
        == "VALIDATION_FAILED"
    )
    safe = one(
        world,
        "query",
        "dataset.query",
        {"table": "sales", "filters": {"column": "region", "op": "=", "value": "EU' OR '1'='1"}},
    ).body
    assert safe["rows"] == []
    assert one(world, "query", "dataset.describe-table", {"table": "sales"}).body["row_count"] == 4


def test_another_sessions_tables_are_invisible(world):
    load_sales(world)
    other = make_session(owner=world["owner"])
    agent_join(session=other, agent=world["agent"])
    other_world = {**world, "session": other}
    assert one(other_world, "query", "dataset.list-tables", {}).body["tables"] == []
    assert one(other_world, "query", "dataset.query", {"table": "sales"}).body["code"] == "RESOURCE_NOT_FOUND"
    assert (
        one(other_world, "query", "dataset.query", {"sql": "SELECT * FROM sales"}).body["code"] == "PERMISSION_DENIED"
    )


@pytest.mark.parametrize(
    ("operation", "body", "way_out"),
    [
        ("file.write", {"path": "taken.csv", "content": "x"}, "write to another path"),
        ("file.copy", {"source": "sales.csv", "destination": "taken.csv"}, "choose another destination"),
        ("file.move", {"source": "sales.csv", "destination": "taken.csv"}, "choose another destination"),
        ("dataset.export-csv", {"table": "sales", "path": "taken.csv"}, "choose another path"),
    ],
)
def test_every_call_that_could_replace_a_file_refuses_then_waits_for_a_person(world, operation, body, way_out):
    load_sales(world)
    one(world, "action", "file.write", {"path": "taken.csv", "content": "keep me"})
    refused = one(world, "action", operation, body)
    assert refused.type == "error" and refused.body["code"] == "RESOURCE_ALREADY_EXISTS"
    assert refused.body["details"]["resource_name"] == "taken.csv"
    assert refused.body["suggestion"][0] == way_out
    assert refused.body["suggestion"][-1] == 'set "overwrite": true (needs approval)'
    asked = one(world, "action", operation, {**body, "overwrite": True})
    assert asked.type == "event" and asked.body["event"] == "approval.requested"
    assert "overwrites the existing file 'taken.csv'" in asked.body["reason"]
    assert one(world, "query", "file.read", {"path": "taken.csv"}).body["content"] == "keep me"


def test_drop_table_needs_approval(world):
    load_sales(world)
    requested = one(world, "action", "dataset.drop-table", {"table": "sales"})
    assert requested.type == "event" and requested.body["event"] == "approval.requested"
    assert one(world, "query", "dataset.table-exists", {"table": "sales"}).body["exists"] is True


def test_a_query_past_the_time_limit_is_stopped_with_timeout(world, settings):
    from django.db import connections

    load_sales(world)
    datasets = connections["datasets"]
    if datasets.vendor == "postgresql":
        with datasets.cursor() as cursor:
            cursor.execute("SET statement_timeout = 50")
    settings.DATASET_QUERY_TIMEOUT_S = 0.05
    slow = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000000) SELECT COUNT(*) FROM r"
    try:
        error = one(world, "query", "dataset.query", {"sql": slow})
    finally:
        if datasets.vendor == "postgresql":
            with datasets.cursor() as cursor:
                cursor.execute("SET statement_timeout = 5000")
    assert error.body["code"] == "TIMEOUT" and error.body["retryable"] is True
    assert one(world, "query", "dataset.query", {"table": "sales", "limit": 1}).type == "result"


def test_an_import_says_rows_in_the_file_how_it_read_it_and_each_column_s_missing_values(world):
    text = "Region;Preis;Note\nNord;1.234,5;NA\nSüd;2,5;ok\nNord;NA;\n\nSüd;3;x;y\n"
    one(world, "action", "file.write", {"path": "preise.csv", "content": text})
    report = one(world, "action", "dataset.import-csv", {"path": "preise.csv", "table": "preise"}).body
    assert (report["rows_in_file"], report["rows_loaded"], report["rows_rejected"]) == (4, 3, 1)
    assert report["rejected"] == [{"line": 6, "reason": "4 fields, expected 3"}]
    assert report["dialect"] == {"encoding": "utf-8", "separator": ";", "quote": '"', "decimal": ",", "thousands": "."}
    preis = report["columns"][1]
    assert (preis["type"], preis["missing_markers"]) == ("number", {"NA": 1})
    assert any("decimal mark is a comma" in g for g in report["guessed"])
    rows = one(world, "query", "dataset.query", {"table": "preise", "select": ["Preis"]}).body["rows"]
    assert rows == [[1234.5], [2.5], [None]]


def test_replace_reads_a_file_again_over_its_own_table_only(world):
    load_sales(world)
    again = {"path": "sales.csv", "table": "sales", "replace": True, "types": {"amount": "string"}}
    assert one(world, "action", "dataset.import-csv", again).body["columns"][1]["type"] == "string"
    assert one(world, "query", "dataset.describe-table", {"table": "sales"}).body["columns"][1]["type"] == "string"
    one(world, "action", "dataset.create-table", {"table": "mine", "columns": [{"name": "a"}]})
    refused = one(world, "action", "dataset.import-csv", {"path": "sales.csv", "table": "mine", "replace": True})
    assert refused.body["code"] == "RESOURCE_ALREADY_EXISTS" and "is not a copy of" in refused.body["message"]
    one(world, "action", "file.write", {"path": "other.csv", "content": "a\n1\n"})
    other = one(world, "action", "dataset.import-csv", {"path": "other.csv", "table": "sales", "replace": True})
    assert other.body["code"] == "RESOURCE_ALREADY_EXISTS"
    typo = one(world, "action", "dataset.import-csv", {"path": "sales.csv", "table": "s2", "types": {"amt": "number"}})
    assert typo.body["code"] == "VALIDATION_FAILED" and typo.body["details"]["invalid"] == {"types.amt": "number"}
