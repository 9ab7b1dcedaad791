"""Drawing an analyst's chart in a process of its own: by a spare child warmed up before the chart was
asked for, against a child started for it.

    python bench/charts.py [--charts 10]

Each chart is the analyst's bar chart of a few groups (``agents/operations/stats/charts.py``), a new
spec each time, drawn under the chart limits (``workspace/charts.py``). The baseline, measured in
the same run, is the drawing before the spares: a new child per chart that starts Python, loads
vl-convert and draws. Against it: ``draw()`` as the chart's URL calls it with the spare warmed up (an
analyst's charts come seconds apart), the first chart of an event loop (no spare yet: a new child
draws it, then the next spare starts), and N charts asked for back to back (each spare starts as the
chart before is drawn: no head start). Target: a chart with its spare ready at most 0.5x the
baseline's time.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET = 0.5
GROUPS = ("north", "south", "east", "west", "central")
# The child as it was before the spares: no warm-up, the spec read at once.
BEFORE = (
    "import json, sys; from workspace.chart_process import draw_svg, limit; limit(int(sys.argv[1]), int(sys.argv[2])); "
    "json.dump({'svg': draw_svg(json.load(sys.stdin))}, sys.stdout)"
)


def chart(n: int) -> bytes:
    from agents.operations.stats.charts import bar_chart

    values = [{"region": group, "cases": 100 + 37 * ((n + i) % 7)} for i, group in enumerate(GROUPS)]
    spec = bar_chart(
        sorted(values, key=lambda v: -v["cases"]),
        category="region",
        amount="cases",
        title=f"Cases by region, week {n + 1}",
        description="Bar chart of cases by region.",
        amount_title="cases",
    )
    return json.dumps(spec).encode()


async def before(spec: bytes) -> str:
    from django.conf import settings

    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", BEFORE, str(settings.CHART_RENDER_MEMORY_MB), str(settings.CHART_RENDER_CPU_S),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=settings.BASE_DIR,
    )  # fmt: skip
    output, _ = await child.communicate(spec)
    svg: str = json.loads(output)["svg"]
    return svg


async def drawn(spec: bytes) -> str:
    from workspace.charts import draw

    outcome = await draw(spec)
    assert outcome.svg, outcome.reason
    return outcome.svg


async def timed(make) -> float:
    started = time.perf_counter()
    await make()
    return time.perf_counter() - started


async def one_at_a_time(count: int) -> tuple[list[float], list[float]]:
    """Each chart asked for once the spare is warm, the baseline's child beside it (nothing warming)."""
    from workspace.charts import spare_pid

    cold, warm = [], []
    await drawn(chart(-1))  # the first chart of the loop starts the first spare
    for n in range(count):
        await spare_pid()
        cold.append(await timed(lambda n=n: before(chart(n))))
        warm.append(await timed(lambda n=n: drawn(chart(count + n))))
    return cold, warm


async def in_a_row(count: int, draw_one) -> float:
    """N charts asked for back to back: with spares, each one taken as soon as it was started."""
    started = time.perf_counter()
    for n in range(count):
        await draw_one(chart(3 * count + n))
    return time.perf_counter() - started


def run(count: int) -> int:
    from django.conf import settings

    cold, warm = asyncio.run(one_at_a_time(count))
    first = [asyncio.run(timed(lambda n=n: drawn(chart(2 * count + n)))) for n in range(count)]
    row_cold, row_warm = asyncio.run(in_a_row(count, before)), asyncio.run(in_a_row(count, drawn))
    ms = 1e3
    print(f"{count} bar charts of {len(GROUPS)} groups, each a new spec; limits {settings.CHART_RENDER_CPU_S} s CPU, "
          f"{settings.CHART_RENDER_MEMORY_MB} MiB")  # fmt: skip
    for label, times in (
        ("baseline: a new child per chart", cold),
        ("first chart of an event loop (no spare)", first),
        ("spare warmed up before the chart", warm),
    ):
        print(f"{label:<42} median {statistics.median(times) * ms:6.0f} ms | best {min(times) * ms:6.0f} ms")
    ratio = statistics.median(warm) / statistics.median(cold)
    print(f"{count} charts back to back: baseline {row_cold * ms:6.0f} ms | with spares {row_warm * ms:6.0f} ms "
          f"({row_warm / row_cold:.2f}x)")  # fmt: skip
    ok = ratio <= TARGET
    verdict = "OK" if ok else "MISSED"
    print(f"a chart with its spare ready: {ratio:.2f}x the baseline's time (target <= {TARGET}) {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--charts", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("WORKBENCH_DATA_DIR", tempfile.mkdtemp(prefix="chap-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
    import django

    django.setup()
    sys.exit(run(args.charts))
