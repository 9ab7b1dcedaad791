"""An import's time grows with its file and stops at the upload limit's worth; a small file gets no more
than any request. Its progress is paced: one event a tenth of the rows at most, none between."""

import pytest

from agents.operations.datasets import import_pace
from agents.operations.files import workspace_root
from agents.sap import dispatcher
from tests.agents.sap_calls import one

# Committed: on PostgreSQL a heavy operation runs in a process of its own only outside a transaction.
pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)

MIB = 1 << 20


@pytest.fixture
def given(monkeypatch):
    """The seconds each heavy operation was given to run in its process."""
    seconds: list[float] = []
    run = dispatcher.run_in_child

    def recording(work, bounds, **kwargs):
        seconds.append(bounds.seconds)
        return run(work, bounds, **kwargs)

    monkeypatch.setattr(dispatcher, "run_in_child", recording)
    return seconds


def place(world, name: str, size: int) -> None:
    line = "2024-01-01,east,12.5\n"
    with (workspace_root(world["session"].pk) / name).open("w") as out:
        out.write("day,shop,amount\n" + line * (size // len(line)))


def test_an_import_is_given_time_by_its_files_size_up_to_the_upload_limit(world, settings, given):
    settings.CHAP_SAP_MAX_SECONDS, settings.CHAP_SAP_IMPORT_SECONDS_PER_MB = 30, 100
    place(world, "tiny.csv", 200)
    place(world, "big.csv", 3 * MIB)
    assert one(world, "action", "dataset.import-csv", {"path": "tiny.csv", "table": "tiny"}).type == "result"
    assert one(world, "action", "dataset.import-csv", {"path": "big.csv", "table": "big"}).type == "result"
    settings.MAX_UPLOAD_BYTES = MIB  # a file past the upload limit (an export, say) is counted at the limit
    again = one(world, "action", "dataset.import-csv", {"path": "big.csv", "table": "big", "replace": True})
    assert again.type == "result", again.body
    one(world, "query", "dataset.describe-table", {"table": "big"})  # other heavy operations: the request's time
    tiny, big, capped, described = given
    assert 29 < tiny <= 30 + 0.02 * 100
    assert 29 + 300 < big <= 30 + 300
    assert 29 + 100 < capped <= 30 + 100
    assert 29 < described <= 30


def test_an_import_of_a_missing_file_gets_the_requests_time_and_says_what_is_missing(world, settings, given):
    settings.CHAP_SAP_MAX_SECONDS = 30
    answer = one(world, "action", "dataset.import-csv", {"path": "nowhere.csv", "table": "t"})
    assert answer.type == "error" and answer.body["code"] == "RESOURCE_NOT_FOUND", answer.body
    assert given and given[0] <= 30


def test_loading_says_how_far_it_is_once_a_tenth_at_most(settings):
    settings.CHAP_IMPORT_PROGRESS_SECONDS = 0
    pace = import_pace.Pace()
    said = [fraction for fraction in (0.05, 0.1, 0.15, 0.2, 0.25, 0.31, 0.9, 0.95, 1.0) if pace.due(fraction)]
    assert said == [0.1, 0.2, 0.31, 0.9, 1.0]
    settings.CHAP_IMPORT_PROGRESS_SECONDS = 3600
    assert not import_pace.Pace().due(1.0)


def test_reading_says_how_long_it_has_read_ever_less_often(settings):
    settings.CHAP_IMPORT_PROGRESS_SECONDS = 5
    pace = import_pace.Pace()
    said = [seconds for seconds in range(0, 200) if pace.reading_due(seconds)]
    assert said == [5, 10, 20, 40, 80, 160]
