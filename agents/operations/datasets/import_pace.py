"""How long an import may run, and how it says how far it is while it runs.

Time: an import may run for the request's time left and ``CHAP_SAP_IMPORT_SECONDS_PER_MB`` seconds a
MiB of its file more, the file counted up to ``WORKBENCH_MAX_UPLOAD_MB``: a 1 GB file gets the time it
needs (about a third of a second a MiB was measured, bench/analysis_size.py), a small one no more than
any request, and no file more than the upload limit's worth.

Progress: a streamed import yields progress events (SAP ``event`` blocks; the analyst posts them as
its agent_status): while the file is read (the careful reader on its head, DuckDB on the whole), how
long it has read, after ``CHAP_IMPORT_PROGRESS_SECONDS`` and then each time that has doubled; while the
table fills, the rows loaded of the whole, at most one every ``CHAP_IMPORT_PROGRESS_SECONDS`` and one a
tenth of the rows. A 10-million-row import reports about fifteen times; a quick one not at all.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillRunning
from typing import Any, TypeVar

from django.conf import settings

from agents.operations.context import SapContext
from agents.operations.files import existing_file
from protocol.errors import ProtocolError

LOADING_STEP = 0.1  # at most one loading event a tenth of the rows
MIB = 1 << 20
Result = TypeVar("Result")
Progress = Generator[dict[str, Any], None, Result]


def import_seconds(params: dict[str, Any], context: SapContext) -> float:
    """What this import may run past the request's time left (``Operation.extra_seconds``)."""
    try:
        storage, name = existing_file(context.session_id, params["path"])
        size = storage.size(name)
    except (ProtocolError, OSError):
        return 0.0  # the import itself says what is wrong with the path
    return float(min(size, settings.MAX_UPLOAD_BYTES) / MIB * settings.CHAP_SAP_IMPORT_SECONDS_PER_MB)


class Pace:
    """When the next progress event is due."""

    def __init__(self) -> None:
        self.every_s = float(settings.CHAP_IMPORT_PROGRESS_SECONDS)
        self.said_at = time.monotonic()
        self.said_fraction = 0.0
        self.reading_at_s = max(self.every_s, 0.5)

    def due(self, fraction: float) -> bool:
        """While loading: whether to say how far it is now (time has passed, and a tenth more is done)."""
        now = time.monotonic()
        if now - self.said_at < self.every_s or fraction - self.said_fraction < LOADING_STEP - 1e-9:
            return False
        self.said_at, self.said_fraction = now, fraction
        return True

    def reading_due(self, seconds: float) -> bool:
        """While reading, which says nothing of how far it is: after the first interval, then each time
        the reading has taken twice as long (a few events however long it reads)."""
        if seconds < self.reading_at_s:
            return False
        self.said_at, self.reading_at_s = time.monotonic(), 2 * max(seconds, self.reading_at_s)
        return True


def reading(
    work: Callable[[], Result], abandoned: Callable[[Result], None], *, path: str, size: int, pace: Pace
) -> Progress[Result]:
    """``work()`` (DuckDB reading the file, which says nothing while it reads) in a thread of its own,
    with an event every so often saying how long it has read; its result, or its exception. When the
    caller stops listening, the read is waited for and its result handed to ``abandoned``."""
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-read") as pool:
        future: Future[Result] = pool.submit(work)
        while True:
            try:
                return future.result(timeout=max(pace.every_s, 0.2))
            except StillRunning:
                pass
            if not pace.reading_due(time.monotonic() - started):
                continue
            seconds = round(time.monotonic() - started)
            try:
                yield {
                    "progress": {"done": 0},
                    "phase": "reading",
                    "path": path,
                    "bytes": size,
                    "seconds": seconds,
                    "message": f"reading {path} ({size / MIB:,.0f} MB): {seconds} s so far",
                }
            except BaseException:
                with contextlib.suppress(Exception):
                    abandoned(future.result())
                raise


def loading(*, path: str, table: str, done: int, total: int) -> dict[str, Any]:
    """The event of a table filling: the rows loaded of the whole."""
    percent = round(100 * done / total) if total else 100
    return {
        "progress": {"done": done, "total": total},
        "phase": "loading",
        "path": path,
        "table": table,
        "message": f"loading {path} into table {table}: {done:,} of {total:,} rows ({percent}%)",
    }
