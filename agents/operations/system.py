"""system.metrics: the server process and machine, from samples the server keeps."""

from __future__ import annotations

import os
import re
import threading
import time
from collections import deque
from typing import Any

import psutil

from agents.sap import Call, Example, Operation, Param, format_block
from protocol.errors import ProtocolError

SAMPLE_EVERY_S = 10
KEEP_SAMPLES = 360  # an hour
_samples: deque[dict[str, Any]] = deque(maxlen=KEEP_SAMPLES)
_lock = threading.Lock()
_process = psutil.Process(os.getpid())
_DURATION = re.compile(r"^(\d+)([smh])$")


def sample() -> dict[str, Any]:
    """One reading, kept for later time ranges; readings closer than SAMPLE_EVERY_S reuse the last."""
    with _lock:
        now = time.time()
        if _samples and now - _samples[-1]["at"] < SAMPLE_EVERY_S:
            return _samples[-1]
        disk = psutil.disk_usage(os.getcwd())
        memory = psutil.virtual_memory()
        reading = {
            "at": now,
            "cpu": {
                "process_percent": _process.cpu_percent(interval=None),
                "machine_percent": psutil.cpu_percent(interval=None),
            },
            "memory": {"process_rss_bytes": _process.memory_info().rss, "machine_used_percent": memory.percent},
            "disk": {"used_percent": disk.percent, "free_bytes": disk.free},
        }
        _samples.append(reading)
        return reading


def _metrics(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    match = _DURATION.match(params["time_range"])
    if match is None:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "time_range is a number followed by s, m or h, e.g. 5m",
            details={"violations": {"time_range": params["time_range"]}},
        )
    seconds = int(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2)]
    latest = sample()
    with _lock:
        window = [s for s in _samples if s["at"] >= latest["at"] - seconds]
    wanted = params["metrics"]
    return {
        "current": {name: latest[name] for name in wanted},
        "samples": [{"at": s["at"], **{name: s[name] for name in wanted}} for s in window],
        "time_range": params["time_range"],
    }


METRICS = Operation(
    name="system.metrics",
    kind="query",
    description="CPU, memory and disk of the server process and its machine, now and over a time range.",
    handler=_metrics,
    parameters={
        "metrics": Param(
            "array",
            "which metrics",
            default=["cpu", "memory", "disk"],
            items=Param("string", enum=("cpu", "memory", "disk")),
            min_items=1,
        ),
        "time_range": Param("string", "how far back samples go: 30s, 5m, 1h", default="5m", pattern=r"\d+[smh]"),
    },
    examples=(
        Example(
            format_block("query", "system.metrics", {"metrics": ["cpu"], "time_range": "5m"}, "health_1"),
            format_block(
                "result",
                "system.metrics",
                {
                    "current": {"cpu": {"process_percent": 1.5, "machine_percent": 12.0}},
                    "samples": [],
                    "time_range": "5m",
                },
                "health_1",
            ),
        ),
    ),
)

OPERATIONS = (METRICS,)
