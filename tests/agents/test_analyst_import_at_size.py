"""A big file's import says how far it is while it runs: the analyst's status shows the rows loaded of
the whole, a bounded number of times, and then what was loaded; the report's "Data as read" agrees."""

import pytest

from agents.operations.datasets import csv_stream
from agents.operations.files import workspace_root
from sessions.models import Message
from tests.agents.teamwork import plan_and_run

# Committed as a deployment commits: the worker renews its lease from a thread of its own, which sees
# only committed rows (a long import outlives the first renewal).
pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)

ROWS = 90_000  # about 3 MB: past the 2 MB from which a file streams


def write_sales(folder, rows=ROWS):
    shops = ("east", "west", "north")
    with (folder / "sales.csv").open("w") as out:
        out.write("day,shop,basket_value,items\n")
        for i in range(rows):
            out.write(
                f"2024-{1 + i % 12:02d}-{1 + i % 28:02d},{shops[i % 3]},{10 + (i * 7) % 50 + i % 3 * 5}.25,{1 + i % 4}\n"
            )
    return folder / "sales.csv"


def statuses(session):
    rows = Message.objects.filter(session=session, payload_type="agent_status", sender_id="analyst").order_by("seq")
    return [envelope["payload"] for envelope in rows.values_list("envelope", flat=True)]


def test_a_big_import_shows_its_progress_then_what_it_loaded(team, settings, monkeypatch):
    settings.CHAP_IMPORT_PROGRESS_SECONDS = 0  # every tenth of the rows, however quick
    monkeypatch.setattr(csv_stream, "CHUNK_ROWS", 10_000)
    assert write_sales(workspace_root(team["session"].pk)).stat().st_size > csv_stream.STREAM_FROM_BYTES
    report = plan_and_run(team, "Which shop has the highest mean basket_value?", "sales.csv")
    said = statuses(team["session"])
    loading = [s for s in said if s["activity"].startswith("loading sales.csv into table sales:")]
    done = [s["progress"]["done"] for s in loading]
    assert 3 <= len(loading) <= 10 and done == sorted(done) and {s["progress"]["total"] for s in loading} == {ROWS}
    assert f"{done[0]:,} of {ROWS:,} rows" in loading[0]["activity"]
    after = said[said.index(loading[-1]) + 1]
    assert after["activity"] == f"imported sales.csv → table sales: {ROWS:,} rows in the file, all of them loaded"
    read = next(s for s in report["payload"]["content"]["sections"] if s["id"] == "data-as-read")["body"]
    assert f"sales.csv → table sales: {ROWS:,} rows in the file, all of them loaded." in read


def test_a_small_import_says_nothing_of_its_progress(team, settings):
    settings.CHAP_IMPORT_PROGRESS_SECONDS = 0
    write_sales(workspace_root(team["session"].pk), rows=200)
    plan_and_run(team, "Which shop has the highest mean basket_value?", "sales.csv")
    assert not [s for s in statuses(team["session"]) if s["activity"].startswith(("loading", "reading", "imported"))]
