"""Heavy operations (pandas, a whole file read) run in a process of their own that can be stopped.

A thread cannot be stopped, and pandas never looks up from its work; a forked child can. The child
gets the request's remaining wall time, an address-space cap (``RLIMIT_AS``, counted from what it
inherited) and an answer-size cap; the parent waits on the child's pipe and kills it when the deadline
passes or the caller goes away (``cancelled``). The server's own memory holds only the answer, which
the child measured first. Plain Python, no Django: what the child must forget of its parent (open
database connections) is the caller's ``in_child``.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pickle
import resource
import select
import signal
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.sap.values import json_safe, json_text
from protocol.errors import ProtocolError

PR_SET_PDEATHSIG = 1  # prctl(2)
POLL_S = 0.1  # how often the parent looks at the clock and its caller while the child works


@dataclass(frozen=True)
class Bounds:
    """What one running operation may spend, and how its caller says it has gone."""

    deadline: float  # time.monotonic()
    memory_bytes: int
    answer_bytes: int
    cancelled: threading.Event = field(default_factory=threading.Event)
    seconds: float | None = None  # the wall time it was given, said when it runs past it


def run_in_child(work: Callable[[], Any], bounds: Bounds, *, in_child: Callable[[], None]) -> dict[str, Any]:
    """``work()``'s answer, computed in a forked child within ``bounds``; ProtocolError(TIMEOUT or
    LIMIT_EXCEEDED) past them or when cancelled (only the audit trail reads that one), the child's own
    ProtocolError as raised, RuntimeError with its traceback when the work failed otherwise."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its coverage is the parent's tests
        os.close(reader)
        _child(work, bounds, writer, in_child)
    os.close(writer)
    try:
        data = _collect(reader, pid, bounds)
    finally:
        os.close(reader)
        _reap(pid)
    if not data:  # the child died without a word: killed by the kernel, or a crash
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            "the operation ended without an answer (it ran out of memory)",
            details={"limit_bytes": bounds.memory_bytes, "measure": "memory"},
            suggestion=["filter the rows first", "name fewer columns"],
        )
    kind, value = pickle.loads(data)
    if kind == "error":
        raise ProtocolError(**value)
    if kind == "crash":
        raise RuntimeError(f"the operation failed in its process:\n{value}")
    answer: dict[str, Any] = json.loads(value)
    return answer


def _collect(reader: int, pid: int, bounds: Bounds) -> bytes:
    """What the child writes, until it closes the pipe; the child killed past the deadline or on cancel."""
    chunks: list[bytes] = []
    received = 0
    waiting = select.poll()
    waiting.register(reader, select.POLLIN | select.POLLHUP)
    while True:
        if bounds.cancelled.is_set():
            os.kill(pid, signal.SIGKILL)
            raise ProtocolError(
                "TIMEOUT",
                "the caller went away, so the operation was stopped",
                details={"measure": "caller"},
                suggestion=["send it again and wait for its answer"],
            )
        left = bounds.deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            raise ProtocolError(
                "TIMEOUT",
                "the operation ran past the request's time budget and was stopped",
                details={
                    "measure": "time",
                    **({"limit_s": round(bounds.seconds)} if bounds.seconds is not None else {}),
                },
                suggestion=["filter the rows first", "ask about fewer groups or columns", "send it in a new request"],
            )
        if not waiting.poll(min(POLL_S, left) * 1000):
            continue
        chunk = os.read(reader, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        received += len(chunk)
        if received > bounds.answer_bytes + (1 << 16):  # the child measured it; this is the backstop
            os.kill(pid, signal.SIGKILL)
            return b""
        chunks.append(chunk)


def _reap(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _die_with_parent() -> None:
    """Linux kills the child when the server process dies: a child that hangs on a lock its parent's
    other threads held at the fork would otherwise outlive a killed server for good (seen: 53 minutes)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _child(work: Callable[[], Any], bounds: Bounds, writer: int, in_child: Callable[[], None]) -> None:
    """Run ``work`` capped, write ("ok", JSON text) or ("error", ProtocolError fields), and exit at once:
    no finaliser of the parent's objects (connections, files) runs here."""
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _die_with_parent()
        in_child()
        inherited = _address_space()
        resource.setrlimit(resource.RLIMIT_AS, (inherited + bounds.memory_bytes, resource.RLIM_INFINITY))
        try:
            outcome: tuple[str, Any] = ("ok", _measured(work(), bounds.answer_bytes))
        except ProtocolError as error:
            outcome = ("error", _fields(error))
        except MemoryError:
            outcome = ("error", _fields(_memory_error(bounds.memory_bytes)))
        except Exception:
            outcome = ("crash", traceback.format_exc())
        message = pickle.dumps(outcome)
        view = memoryview(message)
        while view:
            view = view[os.write(writer, view) :]
    finally:
        os._exit(0)


def _measured(answer: Any, limit: int) -> str:
    text = json_text(answer)
    size = len(text.encode("utf-8"))
    if size > limit:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"the answer would be {size:,} bytes, more than {limit:,}",
            details={"measure": "answer", "bytes": size, "limit_bytes": limit},
            suggestion=["filter the rows first", "ask about fewer groups, periods or columns"],
        )
    return text


def _memory_error(limit: int) -> ProtocolError:
    return ProtocolError(
        "LIMIT_EXCEEDED",
        f"the operation needed more than {limit // (1 << 20):,} MiB of memory and was stopped",
        details={"measure": "memory", "limit_bytes": limit},
        suggestion=["filter the rows first", "name fewer columns", "ask about fewer groups"],
    )


def _fields(error: ProtocolError) -> dict[str, Any]:
    return {
        "code": error.code,
        "message": error.message,
        "details": json_safe(error.details),
        "suggestion": list(error.suggestion),
        "retryable": error.retryable,
    }


def _address_space() -> int:
    """This process's virtual size now (``/proc/self/statm``'s first field, in pages)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
