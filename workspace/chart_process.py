"""The one place a chart is drawn: ``python -m workspace.chart_process MEMORY_MB CPU_S`` warms up,
writes ``ready``, reads one Vega-Lite spec on stdin, writes ``drawing`` and then ``{"svg": ...}`` or
``{"error": ...}`` on stdout, and ends.

It runs as a process of its own (``workspace.charts`` starts it and kills it at its wall-clock
limit), under a data-segment and CPU-time limit set before vl-convert loads: a spec that makes V8
spin or run out of memory ends this process, never the server. RLIMIT_DATA rather than RLIMIT_AS,
because V8 reserves a large address range up front that it never fills. Plain Python: no Django.

The warm-up (loading vl-convert, V8's first drawing: most of a chart's time) comes before the spec,
so the server can start the process ahead of the chart that will need it; the spec then gets CPU_S of
CPU time of its own. ``drawing`` tells the server the process lived to read the spec: one that died
before (a spare killed while it waited) says nothing about the spec, which is then drawn afresh.
"""

from __future__ import annotations

import json
import math
import resource
import sys
from typing import Any

from workspace.chart_bounds import ChartError, first_line

MAX_SVG_BYTES = 4_000_000
WARM_UP_CPU_S = 10  # the CPU time loading vl-convert and drawing WARM_UP may take, however busy the machine
# What the warm-up draws: a titled bar chart with its axes, so text and fonts are loaded too.
WARM_UP = {
    "title": "warm-up",
    "data": {"values": [{"group": "a", "n": 1}, {"group": "b", "n": 2}]},
    "mark": "bar",
    "encoding": {"x": {"field": "group", "type": "nominal"}, "y": {"field": "n", "type": "quantitative"}},
}


def limit(memory_mb: int, cpu_s: int) -> None:
    """The warm-up within WARM_UP_CPU_S (or CPU_S, if larger): loading V8 on a busy machine took more than a
    second of CPU time, and ended spares a tight CPU_S was meant for the drawing alone. The hard limit
    leaves room to give the drawing a CPU_S of its own (a process may lower its hard limit, never raise it)."""
    memory = memory_mb * 1024 * 1024
    warm_up = max(cpu_s, WARM_UP_CPU_S)
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (warm_up, warm_up + cpu_s + 1))  # SIGXCPU at the soft limit


def limit_drawing(cpu_s: int) -> None:
    """CPU_S for the drawing on top of the CPU time the warm-up used (less than CPU_S, or SIGXCPU)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime) + cpu_s
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))


def draw_svg(spec: dict[str, Any]) -> str:
    """SVG from vl-convert with no base URL allowed, so no data, image or font is ever fetched."""
    import vl_convert  # after the limits: its V8 is what they bound

    try:
        svg: str = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
    except Exception as error:  # vl-convert raises ValueError, but any failure is a notice, not a crash
        raise ChartError(f"Vega-Lite could not draw it ({first_line(error)}).") from error
    if len(svg) > MAX_SVG_BYTES:
        raise ChartError(f"the drawing is over {MAX_SVG_BYTES:,} bytes.")
    return svg


def main(argv: list[str]) -> None:
    memory_mb, cpu_s = int(argv[1]), int(argv[2])
    limit(memory_mb, cpu_s)
    draw_svg(WARM_UP)
    limit_drawing(cpu_s)
    print("ready", flush=True)
    source = sys.stdin.read()
    if not source:  # the server ended (or let this spare go) before it needed it
        return
    print("drawing", flush=True)
    try:
        answer = {"svg": draw_svg(json.loads(source))}
    except ChartError as error:
        answer = {"error": str(error)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
