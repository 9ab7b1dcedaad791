"""The one place a chart is drawn: ``python -m workspace.chart_process MEMORY_MB CPU_S`` reads a
Vega-Lite spec on stdin and writes ``{"svg": ...}`` or ``{"error": ...}`` on stdout.

It runs as a process of its own (``workspace.charts`` starts it and kills it at its wall-clock
limit), under a data-segment and CPU-time limit set before vl-convert loads: a spec that makes V8
spin or run out of memory ends this process, never the server. RLIMIT_DATA rather than RLIMIT_AS,
because V8 reserves a large address range up front that it never fills. Plain Python: no Django.
"""

from __future__ import annotations

import json
import resource
import sys
from typing import Any

from workspace.chart_bounds import ChartError, first_line

MAX_SVG_BYTES = 4_000_000


def limit(memory_mb: int, cpu_s: int) -> None:
    memory = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))  # SIGXCPU at the soft limit


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
    limit(int(argv[1]), int(argv[2]))
    try:
        answer = {"svg": draw_svg(json.load(sys.stdin))}
    except ChartError as error:
        answer = {"error": str(error)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
