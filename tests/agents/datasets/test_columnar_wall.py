"""The statistics' columnar copy of a table: walled in by construction, and never stale."""

import uuid

import duckdb
import pytest

from agents.operations.datasets.columnar import copy_path, read_copy
from tests.agents.sap_calls import call, statistician_world
from tests.factories import make_session
from tests.people import with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def world():
    world = statistician_world()
    call(world, "action", "file.write", {"path": "s.csv", "content": "shop,amount\nA,1\nA,3\nB,10\n"})
    call(world, "action", "dataset.import-csv", {"path": "s.csv", "table": "sales"})
    return world


def _hex(world) -> str:
    return uuid.UUID(str(world["session"].pk)).hex


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "ATTACH '/tmp/elsewhere.duckdb' AS other",
        "SET enable_external_access = true",
        "INSTALL httpfs",
        "INSERT INTO sales VALUES ('C', 5)",
        "COPY sales TO '/tmp/out.csv'",
    ],
)
def test_a_copy_reads_its_own_file_and_nothing_else(world, sql):
    with read_copy(_hex(world), "sales") as connection:
        assert connection is not None
        with pytest.raises(duckdb.Error):
            connection.execute(sql)


def test_another_sessions_copy_is_not_reachable_by_name_or_path(world):
    other = with_agent({"session": make_session(owner=world["owner"]), "owner": world["owner"]}, "other_statistician",
                       allowed_operations=["dataset.*", "stats.*", "file.*"])  # fmt: skip
    call(other, "action", "file.write", {"path": "s.csv", "content": "shop,amount\nZ,99\n"})
    call(other, "action", "dataset.import-csv", {"path": "s.csv", "table": "secret"})
    with read_copy(_hex(world), "sales") as connection:
        with pytest.raises(duckdb.Error):
            connection.execute("SELECT * FROM secret")
        with pytest.raises(duckdb.Error):
            connection.execute(f"ATTACH '{copy_path(_hex(other), 'secret')}' AS theirs (READ_ONLY)")


def test_the_statistics_see_a_write_at_once(world):
    shares = lambda: call(world, "query", "stats.compare", {"table": "sales", "measure": "amount", "group_by": "shop"})  # noqa: E731
    assert {g["group"]: g["value"] for g in shares().body["groups"]} == {"A": 2, "B": 10}
    call(world, "action", "dataset.insert", {"table": "sales", "rows": [{"shop": "C", "amount": 7}]})
    assert {g["group"]: g["value"] for g in shares().body["groups"]} == {"A": 2, "B": 10, "C": 7}
