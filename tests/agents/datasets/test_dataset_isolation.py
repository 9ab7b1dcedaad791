"""The database, not the SQL check, keeps a session's queries inside its own data (SQLite and
PostgreSQL); values JSON cannot carry come back encoded; bad input is a structured error."""

import json

import pytest
from django.core.checks import run_checks
from django.db import connections

from agents.operations import files
from agents.operations.datasets.store import open_store
from protocol.errors import ProtocolError
from sessions.membership import agent_join
from sessions.models import Message
from tests.agents.sap_calls import load_sales, one
from tests.factories import make_session

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def postgres():
    return connections["datasets"].vendor == "postgresql"


@pytest.fixture
def other(world):
    """Another session of the same agent, with a secret table."""
    session = make_session(owner=world["owner"])
    agent_join(session=session, agent=world["agent"])
    other_world = {**world, "session": session}
    one(other_world, "action", "dataset.create-table", {"table": "secrets", "columns": [{"name": "word"}]})
    one(other_world, "action", "dataset.insert", {"table": "secrets", "rows": [{"word": "swordfish"}]})
    return other_world


def read_directly(world, sql):
    """Past the friendly SQL check, straight to the database: what the wall alone allows."""
    with open_store(world["session"].pk) as store:
        return store.read(sql, [], limit=10, offset=0)


def test_shadowing_cte_does_not_reach_another_sessions_table(world, other):
    load_sales(world)
    with open_store(other["session"].pk) as store:
        secret = store.qualified("secrets")
    attack = f"SELECT * FROM (WITH {secret} AS (SELECT 1 AS a) SELECT a FROM {secret}) AS q, {secret}"
    answer = one(world, "query", "dataset.query", {"sql": attack})
    assert answer.type == "error" and "swordfish" not in json.dumps(answer.body)
    shadow = 'SELECT * FROM (WITH "secrets" AS (SELECT 1 AS a) SELECT a FROM "secrets") AS q, "secrets"'
    answer = one(world, "query", "dataset.query", {"sql": shadow})
    assert answer.type == "error" and "swordfish" not in json.dumps(answer.body)


def test_a_with_query_names_a_table_only_in_its_own_scope(world, other):
    load_sales(world)
    attack = (
        "SELECT (WITH pg_namespace AS (SELECT 1) SELECT 1) AS a, "
        "(SELECT string_agg(nspname, ' ') FROM pg_namespace) AS b"
    )
    answer = one(world, "query", "dataset.query", {"sql": attack})
    assert answer.body["code"] == "PERMISSION_DENIED" and answer.body["details"]["catalogue"] == "pg_namespace"
    assert "session_" not in json.dumps(answer.body)
    leaked = one(world, "query", "dataset.query", {"sql": attack.replace("pg_namespace", "secrets")})
    assert leaked.body["code"] == "PERMISSION_DENIED" and leaked.body["details"]["table"] == "secrets"
    inner = "WITH t AS (SELECT region FROM sales) SELECT (SELECT COUNT(*) FROM t) AS n, region FROM t LIMIT 1"
    assert one(world, "query", "dataset.query", {"sql": inner}).body["rows"] == [[4, "EU"]]
    nested = "SELECT a FROM (WITH t AS (SELECT COUNT(*) AS a FROM sales) SELECT a FROM t) AS q"
    assert one(world, "query", "dataset.query", {"sql": nested}).body["rows"] == [[4]]


@pytest.mark.parametrize(
    "catalogue",
    [
        "SELECT relname FROM pg_class",
        "SELECT * FROM pg_catalog.pg_roles",
        "SELECT table_name FROM information_schema.tables",
        "SELECT * FROM INFORMATION_SCHEMA.columns",
        "SELECT name FROM sqlite_master",
        "WITH t AS (SELECT 1 AS a) SELECT relname FROM pg_class AS t",
        "SELECT region FROM sales WHERE region IN (SELECT nspname FROM PG_NAMESPACE)",
        "SELECT 2200::regnamespace::text AS schema_name FROM sales",
        "SELECT CAST(10 AS regrole) AS role_name FROM sales",
        "SELECT 'sales'::pg_catalog.regclass AS t FROM sales",
    ],
)
def test_dataset_sql_may_not_read_the_catalogue(world, catalogue):
    load_sales(world)
    answer = one(world, "query", "dataset.query", {"sql": catalogue})
    assert answer.type == "error" and answer.body["code"] == "PERMISSION_DENIED", answer.body
    assert "catalogue" in answer.body["details"] and answer.body["suggestion"]


@pytest.mark.parametrize("name", ["pg_class", "PG_Roles", "sqlite_stat1", "information_schema_x"])
def test_no_table_takes_a_catalogue_name(world, name):
    answer = one(world, "action", "dataset.create-table", {"table": name, "columns": [{"name": "a"}]})
    assert answer.body["code"] == "VALIDATION_FAILED" and answer.body["details"]["violations"] == {"table": name}
    assert one(world, "query", "dataset.table-exists", {"table": name}).body["exists"] is False


@pytest.mark.parametrize(
    "attack",
    [
        "SELECT * FROM {secret}",
        "SELECT (SELECT word FROM {secret}) AS w",
        "SELECT region FROM sales UNION SELECT word FROM {secret}",
    ],
)
def test_the_database_refuses_another_sessions_table_even_past_the_check(world, other, attack):
    load_sales(world)
    with open_store(other["session"].pk) as store:
        secret = store.qualified("secrets") if postgres() else '"secrets"'
    with pytest.raises(ProtocolError) as refused:
        read_directly(world, attack.format(secret=secret))
    assert refused.value.code in ("PERMISSION_DENIED", "VALIDATION_FAILED")
    assert "swordfish" not in json.dumps(refused.value.as_dict())


def test_the_database_refuses_the_workbench_tables_and_the_way_back_to_its_role(world):
    load_sales(world)
    attacks = ["SELECT password FROM auth_user", "SELECT * FROM main.sqlite_master", "SELECT zeroblob(10) AS z"]
    if postgres():
        attacks = [
            "SELECT password FROM public.auth_user",
            "SELECT query_to_xml('select password from public.auth_user', true, true, '') AS x",
            "SELECT set_config('role', 'none', true) AS r",
            "SELECT pg_read_file('/etc/passwd') AS f",
            "SELECT lo_import('/etc/passwd') AS f",
        ]
    for attack in attacks:
        with pytest.raises(ProtocolError) as refused:
            read_directly(world, attack)
        assert refused.value.code in ("PERMISSION_DENIED", "VALIDATION_FAILED"), attack
    assert read_directly(world, "SELECT COUNT(*) AS n FROM sales")[1] == [[4]]


def test_sqlite_reads_cannot_attach_pragma_or_write(world, other):
    if postgres():
        pytest.skip("SQLite's authorizer and read-only file")
    load_sales(world)
    with open_store(other["session"].pk) as store:
        path = store.path
    for attack in [f"ATTACH DATABASE '{path}' AS b", "PRAGMA table_info(sales)", "DELETE FROM sales"]:
        with pytest.raises(ProtocolError):
            read_directly(world, attack)
    assert read_directly(world, "SELECT COUNT(*) FROM sales")[1] == [[4]]


def test_a_structured_query_column_with_a_quote_is_refused(world):
    load_sales(world)
    evil = 'region" FROM public.auth_user --'
    answer = one(world, "query", "dataset.query", {"table": "sales", "select": [evil]})
    assert answer.body["code"] == "VALIDATION_FAILED"
    answer = one(world, "query", "dataset.query", {"table": "sales", "order_by": [{"column": evil}]})
    assert answer.body["code"] == "VALIDATION_FAILED"


def test_values_json_cannot_carry_come_back_encoded_and_are_logged(world):
    load_sales(world)
    if postgres():
        sql = (
            "SELECT 'NaN'::float8 AS nan, 'Infinity'::float8 AS inf, '\\x00ff'::bytea AS blob, "
            "(10::numeric ^ 30) AS big, '-Infinity'::float8 AS ninf FROM sales LIMIT 1"
        )
    else:
        sql = (
            "SELECT x'00ff' AS blob, 1e999 AS inf, -1e999 AS ninf, 9223372036854775807 AS big, "
            "CAST(x'eda080' AS TEXT) AS broken FROM sales LIMIT 1"
        )
    answer = one(world, "query", "dataset.query", {"sql": sql})
    assert answer.type == "result", answer.body
    row = dict(zip(answer.body["columns"], answer.body["rows"][0], strict=True))
    assert row["blob"] == {"base64": "AP8="}
    assert row["inf"] == "Infinity" and row["ninf"] == "-Infinity"
    assert isinstance(row["big"], str) and row["big"].startswith(("1000", "9223"))
    if postgres():
        assert row["nan"] == "NaN"
    else:
        assert "\ufffd" in row["broken"]
    logged = Message.objects.filter(session=world["session"], payload_type="operation_record").order_by("seq").last()
    record = logged.envelope["payload"]
    assert record["operation"] == "dataset.query" and record["outcome"] == "result"


@pytest.mark.parametrize(
    "body",
    [
        {"table": "sales", "offset": 2**63},
        {"table": "sales", "select": [5]},
        {"table": "sales", "select": [None]},
        {"table": "sales", "order_by": ["amount"]},
        {"table": "sales", "group_by": [5]},
    ],
)
def test_odd_structured_queries_are_validation_errors(world, body):
    load_sales(world)
    answer = one(world, "query", "dataset.query", body)
    assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED", answer.body


def test_file_names_past_255_bytes_and_files_under_files_are_validation_errors(world):
    long_name = "é" * 200 + ".csv"
    answer = one(world, "action", "file.write", {"path": long_name, "content": "x"})
    assert answer.body["code"] == "VALIDATION_FAILED"
    one(world, "action", "file.write", {"path": "notes.txt", "content": "x"})
    answer = one(world, "action", "file.write", {"path": "notes.txt/inner.txt", "content": "x"})
    assert answer.body["code"] == "VALIDATION_FAILED" and "is a file" in answer.body["message"]


def test_datasets_have_a_quota(world, settings):
    load_sales(world)
    settings.DATASET_QUOTA_BYTES = 1
    answer = one(world, "action", "dataset.insert", {"table": "sales", "rows": [{"region": "EU"}]})
    assert answer.body["code"] == "LIMIT_EXCEEDED"
    settings.DATASET_QUOTA_BYTES = 10**9
    assert one(world, "query", "dataset.describe-table", {"table": "sales"}).body["row_count"] == 4


def test_export_csv_obeys_the_file_size_limit(world, monkeypatch):
    load_sales(world)
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)
    answer = one(world, "action", "dataset.export-csv", {"table": "sales", "path": "out.csv"})
    assert answer.body["code"] == "LIMIT_EXCEEDED"
    assert not (files.workspace_root(world["session"].pk) / "out.csv").exists()


def test_the_check_refuses_postgresql_when_queries_could_leave_their_role():
    if not postgres():
        pytest.skip("a PostgreSQL property")
    ids = lambda: {message.id for message in run_checks(databases=["default"])}  # noqa: E731
    assert "chap_datasets.E001" not in ids()
    with connections["datasets"].cursor() as cursor:
        cursor.execute("GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO PUBLIC")
    try:
        assert "chap_datasets.E001" in ids()
    finally:
        with connections["datasets"].cursor() as cursor:
            cursor.execute("REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC")
