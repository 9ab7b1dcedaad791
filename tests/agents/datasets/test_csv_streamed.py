"""A big CSV is imported by streaming (its head read carefully, the whole by DuckDB), with the same
table, types and figures a whole read gives; a file DuckDB would read otherwise is read whole."""

import pytest

from agents.operations.datasets import csv_stream
from tests.agents.sap_calls import call, statistician_world

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def sales_csv(rows: int, day_first: bool = False) -> str:
    lines = ["day,shop,amount,note"]
    for i in range(rows):
        day = f"{1 + i % 28:02d}/03/2024" if day_first else f"2024-03-{1 + i % 28:02d}"
        amount = "" if i % 97 == 0 else f"{(i * 37) % 1000 / 10:g}"
        lines.append(f'{day},shop {"ABC"[i % 3]},{amount},"note, {i}"')
    return "\n".join(lines) + "\n"


@pytest.fixture
def big_is_small(monkeypatch):
    """Any file past 2 KB is big; the head is its first 4 KB."""
    monkeypatch.setattr(csv_stream, "STREAM_FROM_BYTES", 2_000)
    monkeypatch.setattr(csv_stream, "HEAD_BYTES", 4_000)


@pytest.fixture
def world():
    return statistician_world()


def _imported(world: dict, table: str, content: str) -> tuple[dict, dict]:
    call(world, "action", "file.write", {"path": f"{table}.csv", "content": content})
    imported = call(world, "action", "dataset.import-csv", {"path": f"{table}.csv", "table": table}).body
    compared = call(world, "query", "stats.compare", {"table": table, "measure": "amount", "group_by": "shop"})
    counted = call(world, "query", "dataset.query", {"table": table, "select": [{"fn": "count", "as": "n"}]})
    return imported, {"compare": compared.body["groups"], "count": counted.body["rows"][0][0]}


def test_a_big_file_is_streamed_and_reads_as_a_whole_read_does(world, big_is_small, monkeypatch):
    streamed, streamed_figures = _imported(world, "streamed", sales_csv(3000))
    assert streamed["streamed"]["facts_from_first_rows"] < 3000
    assert (streamed["rows_in_file"], streamed["rows_loaded"]) == (3000, 3000)
    assert {c["name"]: c["type"] for c in streamed["columns"]} == {
        "day": "date", "shop": "string", "amount": "number", "note": "string"
    }  # fmt: skip
    monkeypatch.setattr(csv_stream, "STREAM_FROM_BYTES", 10**9)
    whole, whole_figures = _imported(world, "whole", sales_csv(3000))
    assert "streamed" not in whole and streamed_figures == whole_figures


def test_day_first_dates_are_read_whole_by_the_careful_reader(world, big_is_small):
    imported, figures = _imported(world, "sales", sales_csv(3000, day_first=True))
    assert "streamed" not in imported and figures["count"] == 3000
    assert {c["name"]: c["type"] for c in imported["columns"]}["day"] == "date"
