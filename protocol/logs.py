"""Which request or task a log line belongs to.

The edges name the work they run (the HTTP middleware its request, a worker its task) in context
variables; ``ContextIds``, a filter on the log handler, writes them into every record, so the format
can show ``request_id`` and ``task_id`` ("-" outside any request or task).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

NONE = "-"
request_id: ContextVar[str] = ContextVar("request_id", default=NONE)
task_id: ContextVar[str] = ContextVar("task_id", default=NONE)


@contextmanager
def log_context(*, request: str | None = None, task: int | str | None = None) -> Iterator[None]:
    """Log lines written inside carry this request id and/or task id."""
    tokens = []
    if request is not None:
        tokens.append((request_id, request_id.set(request)))
    if task is not None:
        tokens.append((task_id, task_id.set(str(task))))
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


def current_request_id() -> str | None:
    value = request_id.get()
    return None if value == NONE else value


class ContextIds(logging.Filter):
    """Adds ``request_id`` and ``task_id`` to every record it sees; it lets every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        record.task_id = task_id.get()
        return True
