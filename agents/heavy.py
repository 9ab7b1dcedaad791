"""Heavy SAP operations in the workbench: who may start one now, and what their process forgets.

Each caller in a session may run ``CHAP_SAP_HEAVY_AT_ONCE`` heavy operations at once and start
``CHAP_SAP_HEAVY_PER_MINUTE`` a minute (a token bucket, a minute's worth at most in a burst), counted in
each server process; past either, RATE_LIMITED says when to try again. The built-in agents' own turns
(``InProcessSap``) are bounded by their task, not by this.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import connections

from agents.operations.context import SapContext
from agents.operations.datasets.store import readable_from_another_process
from agents.sap.dispatcher import Worker
from protocol.errors import ProtocolError
from sessions.sockets import RateLimiter

_lock = threading.Lock()
_running: dict[tuple[str, str], int] = {}
_buckets: dict[tuple[str, str, int], RateLimiter] = {}
_kept_in_child: list[Any] = []


@contextmanager
def admit(context: SapContext) -> Iterator[None]:
    """Hold one of the caller's heavy places while the operation runs, or raise RATE_LIMITED."""
    key = (str(context.session_id), f"{context.caller.kind}:{context.caller.sender_id}")
    at_once, per_minute = settings.CHAP_SAP_HEAVY_AT_ONCE, settings.CHAP_SAP_HEAVY_PER_MINUTE
    with _lock:
        bucket = _buckets.setdefault((*key, per_minute), RateLimiter(per_minute / 60, per_minute))
        if _running.get(key, 0) >= at_once:
            raise _limited(f"at most {at_once} heavy operations of one caller run at once", at_once, "at_once", 1)
        if not bucket.allow():
            raise _limited(f"at most {per_minute} heavy operations a minute", per_minute, "per_minute", 60 / per_minute)
        _running[key] = _running.get(key, 0) + 1
    try:
        yield
    finally:
        with _lock:
            _running[key] -= 1
            if not _running[key]:
                del _running[key]


def _limited(message: str, limit: int, measure: str, wait_s: float) -> ProtocolError:
    return ProtocolError(
        "RATE_LIMITED",
        f"{message} (stats.*, dataset.import-csv)",
        details={"limit": limit, "measure": measure, "retry_after_s": round(wait_s, 1)},
        suggestion=[f"wait {wait_s:.0f} s and send it again", "ask one question of several columns at once"],
    )


def forget_connections() -> None:
    """In a forked child: drop the parent's database connections without closing them (closing would
    end the parent's sessions, which share the sockets) and keep them from being finalised."""
    for connection in connections.all(initialized_only=True):
        _kept_in_child.append(connection.connection)
        connection.connection = None
        connection.in_atomic_block, connection.needs_rollback, connection.savepoint_ids = False, False, []


WORKER = Worker(admit=admit, separable=readable_from_another_process, in_child=forget_connections)
