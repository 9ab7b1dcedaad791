"""Parameters are checked before pandas or the database sees them, and heavy operations are held to
their budget: each refusal a structured error with details and a suggestion, never INTERNAL_ERROR."""

import json

import pytest

from agents.sap import Block, Dispatcher, Operation, Registry
from agents.sap.dispatcher import Budget, Worker
from tests.agents.sap_calls import block, load_sales, one, sap
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def world():
    world = with_agent(session_of("viewer"), "statistician", allowed_operations=["dataset.*", "stats.*", "file.*"])
    assert load_sales(world).type == "result"  # region, amount, paid, day
    return world


@pytest.mark.parametrize(
    ("name", "body", "where"),
    [
        ("stats.compare", {"measure": "amount", "group_by": "*"}, "group_by"),
        ("stats.compare", {"measure": "*", "group_by": "region"}, "measure"),
        ("stats.share", {"column": "*"}, "column"),
        ("stats.trend", {"time": "*", "measure": "amount"}, "time"),
        ("stats.growth", {"entity": "region", "time": "day", "measure": "*"}, "measure"),
        ("stats.describe", {"columns": ["amount", "*"]}, "columns[1]"),
        ("stats.associate", {"outcome": "amount", "variables": ["*"]}, "variables[0]"),
        ("dataset.query", {"group_by": ["%"]}, "group_by[0]"),
    ],
)
def test_a_wildcard_in_a_column_parameter_is_refused_naming_the_columns(world, name, body, where):
    answer = one(world, "query", name, {"table": "sales", **body}, user=world["viewer"])
    assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED", answer.body
    assert where in answer.body["details"]["invalid"]
    assert answer.body["details"]["known"]["column"] == ["amount", "day", "paid", "region"]
    assert "wildcards name nothing here" in " ".join(answer.body["suggestion"])


def test_an_unknown_column_is_refused_with_the_closest_before_any_rows_are_read(world):
    answer = one(world, "query", "stats.compare", {"table": "sales", "measure": "amonut", "group_by": "Region"})
    assert answer.body["code"] == "VALIDATION_FAILED"
    assert answer.body["details"]["invalid"] == {"measure": "no column 'amonut'", "group_by": "no column 'Region'"}
    assert answer.body["suggestion"] == ["did you mean 'amount'?", "did you mean 'region'?"]


def test_a_filter_nested_past_its_depth_is_refused_with_the_limit(world):
    condition = {"column": "amount", "op": ">", "value": 1}
    for _ in range(12):
        condition = {"and": [condition]}
    for name, body in (
        ("stats.compare", {"measure": "amount", "group_by": "region"}),
        ("dataset.query", {}),
    ):
        answer = one(world, "query", name, {"table": "sales", "filters": condition, **body})
        assert answer.body["code"] == "VALIDATION_FAILED", answer.body
        assert answer.body["details"]["violations"] == {"filters": "nests 25 levels deep, at most 18"}


def test_a_csv_wider_than_the_database_holds_is_refused_with_the_limit(world):
    wide = 5000
    header = ",".join(f"c{n}" for n in range(wide))
    one(world, "action", "file.write", {"path": "wide.csv", "content": header + "\n" + ",".join(["1"] * wide) + "\n"})
    answer = one(world, "action", "dataset.import-csv", {"path": "wide.csv", "table": "wide"})
    assert answer.type == "error" and answer.body["code"] == "LIMIT_EXCEEDED", answer.body
    limit = answer.body["details"]["limit"]
    assert answer.body["details"]["columns"] == wide and limit in (1600, 2000)
    assert f"at most {limit}" in answer.body["suggestion"][0]
    assert one(world, "query", "dataset.table-exists", {"table": "wide"}).body["exists"] is False


def test_column_names_differing_only_by_case_import_alike_on_both_databases(world):
    """SQLite's column names ignore case: Region beside region was an internal error there, and two
    columns on PostgreSQL; the second is now Region_ on both, and create-table refuses the pair."""
    one(world, "action", "file.write", {"path": "cased.csv", "content": "region,Region,REGION\nEU,x,1\n"})
    answer = one(world, "action", "dataset.import-csv", {"path": "cased.csv", "table": "cased"})
    assert answer.type == "result", answer.body
    assert [column["name"] for column in answer.body["columns"]] == ["region", "Region_", "REGION__"]
    columns = [{"name": "amount", "type": "number"}, {"name": "Amount", "type": "number"}]
    answer = one(world, "action", "dataset.create-table", {"table": "twice", "columns": columns})
    assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED", answer.body
    assert answer.body["details"]["violations"]["columns"] == "duplicate names"


@pytest.mark.parametrize(
    "filters",
    [
        {"column": "amount", "op": "=", "value": 2**70},
        {"column": "amount", "op": "in", "value": [1, -(2**64)]},
    ],
)
def test_a_filter_integer_past_64_bits_is_refused_with_a_suggestion(world, filters):
    """SQLite binds 64-bit integers: a larger one in a filter was INTERNAL_ERROR there."""
    for name, body in [("stats.compare", {"measure": "amount", "group_by": "region"}), ("stats.describe", {})]:
        answer = one(world, "query", name, {"table": "sales", "filters": filters, **body}, user=world["viewer"])
        assert answer.type == "error" and answer.body["code"] == "VALIDATION_FAILED", answer.body
        assert "past 64 bits" in answer.body["message"] and "e+" in answer.body["suggestion"][0]


def test_an_integer_past_64_bits_is_stored_in_a_number_column_and_one_past_a_double_refused(world):
    """A number column holds doubles: 2**70 is stored as one (it was INTERNAL_ERROR on SQLite), and
    10**400, a JSON integer no double holds, is refused naming the row."""
    stored = one(world, "action", "dataset.insert", {"table": "sales", "rows": [{"region": "XL", "amount": 2**70}]})
    assert stored.type == "result", stored.body
    answer = one(world, "query", "dataset.query", {"table": "sales", "filters": {"column": "region", "value": "XL"}})
    amount = answer.body["columns"].index("amount")
    assert [row[amount] for row in answer.body["rows"]] == [float(2**70)]
    refused = one(world, "action", "dataset.insert", {"table": "sales", "rows": [{"amount": 10**400}]})
    assert refused.type == "error" and refused.body["code"] == "VALIDATION_FAILED", refused.body
    assert "rows[0].amount" in refused.body["details"]["invalid"]


def test_a_caller_past_its_heavy_operations_a_minute_is_told_when_to_come_back(world, settings):
    settings.CHAP_SAP_HEAVY_PER_MINUTE = 3
    ask = block("query", "stats.share", json.dumps({"table": "sales", "column": "region"}))
    answers = [sap(world, ask)[-1] for _ in range(4)]
    assert [a.type for a in answers[:3]] == ["result"] * 3
    refused = answers[3].body
    assert refused["code"] == "RATE_LIMITED" and refused["retryable"] is True
    assert refused["details"]["retry_after_s"] == 20 and refused["suggestion"][0] == "wait 20 s and send it again"
    cheap = sap(world, block("query", "dataset.query", json.dumps({"table": "sales"})))[-1]
    assert cheap.type == "result", "only heavy operations are counted"


def _worker() -> Worker:
    from contextlib import nullcontext

    return Worker(admit=lambda context: nullcontext(), separable=lambda: True, in_child=lambda: None)


def _run_heavy(handler, **budget) -> Block:
    registry = Registry([Operation("test.heavy", "query", "Heavy.", handler, heavy=True)])
    dispatcher = Dispatcher(registry, budget=Budget(5, **budget), worker=_worker())
    return list(dispatcher.execute(Block("query", "test.heavy", "h", {})))[-1]


def test_a_heavy_operation_past_the_time_left_is_stopped_with_timeout():
    answer = _run_heavy(lambda call, params: [0 for _ in iter(int, 1)], max_seconds=1)
    assert answer.body["code"] == "TIMEOUT" and answer.body["retryable"] is True and answer.body["suggestion"]
    assert answer.body["details"] == {"measure": "time", "limit_s": 1}


def test_a_heavy_operation_past_its_memory_is_stopped_with_limit_exceeded():
    answer = _run_heavy(
        lambda call, params: {"n": len(bytearray(400 << 20))}, max_seconds=30, max_memory_bytes=64 << 20
    )
    assert answer.body["code"] == "LIMIT_EXCEEDED" and answer.body["details"]["measure"] == "memory"


def test_a_heavy_answer_past_its_size_is_refused_with_its_size():
    answer = _run_heavy(lambda call, params: {"text": "x" * 2000}, max_seconds=30, max_answer_bytes=1000)
    assert answer.body["code"] == "LIMIT_EXCEEDED" and answer.body["details"]["measure"] == "answer"
    assert answer.body["details"]["bytes"] > 2000 and answer.body["details"]["limit_bytes"] == 1000


KILLED_PARENT = """
import os, sys, threading, time
from agents.sap.bounded import Bounds, run_in_child

def work():
    print(os.getpid(), flush=True)  # the child's pid, for the test
    time.sleep(60)

run_in_child(work, Bounds(time.monotonic() + 60, 1 << 30, 1 << 20), in_child=lambda: None)
"""


def test_a_heavy_operations_process_dies_with_the_server_that_started_it():
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    parent = subprocess.Popen(
        [sys.executable, "-c", KILLED_PARENT],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    child = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Path(f"/proc/{child}").exists() and "Z" not in _state(child):
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists() or "Z" in _state(child)


def _state(pid):
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
