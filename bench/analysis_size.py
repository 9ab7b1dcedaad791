"""stats.compare, associate, trend and growth on big tables, against DuckDB alone on the same file.

    python bench/analysis_size.py [--sizes 100000,1000000,10000000] [--repeat 3] [--no-wide]

Per size, a synthetic CSV of 10 columns (a date, 2 categories, 7 numbers) is placed in a session's
workspace and imported with dataset.import-csv (its time reported); then each operation runs through
the SAP service (``sap_run``, as the analyst's calls do) from the call to its result block. The floor,
measured in the same run: a fresh Python process opens the table's columnar copy (the same file the
operation reads) and computes the same statistic with DuckDB alone, timed from connect to rows. Each
answer is checked against the floor's figures. Targets (issue 41): every size answers right; at 10
million rows at most 3x the floor and under 60 s; the process's memory growth under 1 GB. Then a wide
table (1,000 rows x 500 columns): the four operations and dataset.describe-table answer.
Uses the configured DATABASE_URL.
"""

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import setup_django, teardown_django

NUMBERS = [f"x{i}" for i in range(1, 8)]
CALLS = {
    "compare": ("stats.compare", {"measure": "x1", "group_by": "region"}),
    "association": ("stats.associate", {"outcome": "x1"}),
    "trend": ("stats.trend", {"time": "day", "measure": "x1", "period": "year"}),
    "growth": ("stats.growth", {"entity": "product", "time": "day", "measure": "x1", "period": "year"}),
}
FLOOR_SQL = {
    "compare": "SELECT region, count(x1), avg(x1), var_samp(x1) FROM {t} WHERE region IS NOT NULL GROUP BY 1",
    "association": "SELECT "
    + ", ".join(f"corr(x1, {x}), regr_slope(x1, {x}), regr_intercept(x1, {x}), count({x})" for x in NUMBERS[1:])
    + " FROM {t}",
    "trend": "SELECT strftime(day, '%Y'), count(x1), avg(x1) FROM {t} WHERE day IS NOT NULL GROUP BY 1 ORDER BY 1",
    "growth": "SELECT product, strftime(day, '%Y'), count(*), avg(x1) FROM {t} "
    "WHERE product IS NOT NULL AND day IS NOT NULL AND x1 IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
}
FLOOR_SCRIPT = """
import json, sys, time, duckdb
started = time.perf_counter()
connection = duckdb.connect(sys.argv[1], read_only=True, config={"threads": 2})
connection.execute("SET enable_progress_bar = false")
rows = connection.execute(sys.argv[2]).fetchall()
elapsed = time.perf_counter() - started
print(json.dumps({"seconds": elapsed, "rows": [[v if isinstance(v, (int, float, str)) or v is None else str(v)
                                                for v in row] for row in rows]}))
"""


def synthetic_csv(path: Path, rows: int) -> None:
    """Ten columns: a day over ten years, 5 regions, 20 products, and 7 numbers (x1 rising over the years
    and differing by region; x2 to x7 related to x1 more or less)."""
    import duckdb

    noise = "(hash(i * {k}) % 100000) / 1000.0"
    inner = (
        "SELECT DATE '2015-01-01' + CAST(i % 3653 AS INTEGER) AS day, 'r' || (i % 5) AS region, "
        f"'p' || (hash(i) % 20) AS product, round({noise.format(k=3)} + (i % 5) * 4 + (i % 3653) / 365.0, 3) AS x1, "
        + ", ".join(f"{noise.format(k=k + 5)} AS e{k}" for k in range(2, 8))
        + f" FROM range({rows}) t(i)"
    )
    related = ", ".join(f"round(x1 * {1 / k:.3f} + e{k}, 3) AS x{k}" for k in range(2, 8))
    with duckdb.connect() as connection:
        connection.execute(f"COPY (SELECT day, region, product, x1, {related} FROM ({inner})) TO '{path}' (HEADER)")


def wide_csv(path: Path, rows: int = 1000, numbers: int = 497) -> None:
    """A date, 2 categories and ``numbers`` number columns: 500 columns in all."""
    import random

    rng = random.Random(41)
    names = ["day", "region", "product", *(f"n{i}" for i in range(1, numbers + 1))]
    with path.open("w") as out:
        out.write(",".join(names) + "\n")
        for i in range(rows):
            values = [f"{rng.gauss(50, 10):.3f}" for _ in range(numbers)]
            out.write(f"{2000 + i % 20}-01-{1 + i % 28:02d},r{i % 5},p{i % 7}," + ",".join(values) + "\n")


class PeakMemory:
    """The server's resident memory (this process and its children), sampled every 20 ms: the peak over
    the baseline."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.base = self.peak = self.process.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        """This process and its children (a heavy operation runs in a child of its own)."""
        while not self._stop.wait(0.02):
            try:
                family = [self.process, *self.process.children(recursive=True)]
                self.peak = max(self.peak, sum(p.memory_info().rss for p in family))
            except psutil.NoSuchProcess:
                continue

    def growth_mb(self) -> float:
        self._stop.set()
        self._thread.join()
        return float(self.peak - self.base) / 2**20


def sap_call(session: Any, caller: Any, name: str, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Seconds from the call to its result block, and the result's body (the audit record after)."""
    from agents.sap import Block, parse
    from agents.sap_service import sap_run

    text = f"@@{'action' if name == 'dataset.import-csv' else 'query'}:{name}#b\n{json.dumps(body)}\n@@end\n"
    started = time.perf_counter()
    stream = sap_run(session_id=session.pk, caller=caller, text=text)
    first = next(stream)
    elapsed = time.perf_counter() - started
    list(stream)
    answer = parse(first)[-1]
    if not isinstance(answer, Block) or answer.type != "result":
        raise RuntimeError(f"{name} answered: {json.dumps(getattr(answer, 'body', str(answer)))[:400]}")
    body_found: dict[str, Any] = answer.body
    return elapsed, body_found


def floor(copy: Path, label: str) -> tuple[float, list[list[Any]]]:
    """DuckDB alone in a fresh process on the table's columnar copy: seconds from connect to rows."""
    sql = FLOOR_SQL[label].format(t="sales")
    done = subprocess.run([sys.executable, "-c", FLOOR_SCRIPT, str(copy), sql], capture_output=True, text=True,
                          check=True)  # fmt: skip
    found = json.loads(done.stdout)
    return float(found["seconds"]), list(found["rows"])


def right(label: str, body: dict[str, Any], rows: list[list[Any]]) -> bool:
    """The operation's figures are the floor's (to 1e-6 relative: different summation orders)."""

    def close(a: float | None, b: float | None) -> bool:
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)

    if label == "compare":
        means = {g["group"]: g["value"] for g in body["groups"]}
        return len(means) == len(rows) and all(close(means[r[0]], r[2]) for r in rows)
    if label == "association":
        found = {v["variable"]: v["pearson_r"] for v in body["variables"]}
        return all(close(found[x], rows[0][4 * i]) for i, x in enumerate(NUMBERS[1:]))
    if label == "trend":
        points = [(str(p["period"]), p["value"]) for p in body["points"]]
        return len(points) == len(rows) and all(
            p == r[0] and close(v, r[2]) for (p, v), r in zip(points, rows, strict=True)
        )
    years: dict[str, list[float]] = {}
    for product, _year, _, mean in rows:
        years.setdefault(product, []).append(mean)
    entities = {e["entity"]: (e["first"], e["last"]) for e in body["entities"]}
    return all(close(entities[p][0], m[0]) and close(entities[p][1], m[-1]) for p, m in years.items())


def measure_size(user: Any, caller: Any, rows: int, repeat: int, folder: Path) -> list[dict[str, Any]]:
    """One size: the import, then each operation's best time against its floor's best."""
    from agents.operations.datasets.columnar import copy_path
    from agents.operations.files import storage_for
    from tests.factories import make_session

    session = make_session(owner=user)
    source = folder / f"sales_{rows}.csv"
    synthetic_csv(source, rows)
    workspace = Path(storage_for(session.pk).location)
    workspace.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, workspace / "sales.csv")
    # The default budget: an import's time grows with its file (CHAP_SAP_IMPORT_SECONDS_PER_MB).
    imported_s, imported = sap_call(session, caller, "dataset.import-csv", {"path": "sales.csv", "table": "sales"})
    memory = PeakMemory()
    types = ", ".join(f"{c['name']}:{c['type']}" for c in imported["columns"])
    print(f"\n{rows:,} rows ({source.stat().st_size / 2**20:,.0f} MB): imported in {imported_s:.1f} s, "
          f"{imported['rows_loaded']:,} rows, {types}" + (" (streamed)" if "streamed" in imported else ""))  # fmt: skip
    copy = copy_path(uuid.UUID(str(session.pk)).hex, "sales")
    results = []
    for label, (name, body) in CALLS.items():
        ours, theirs = math.inf, math.inf
        answer: dict[str, Any] = {}
        expected: list[list[Any]] = []
        for _ in range(repeat):
            took, answer = sap_call(session, caller, name, {"table": "sales", **body})
            ours = min(ours, took)
            took, expected = floor(copy, label)
            theirs = min(theirs, took)
        ok = right(label, answer, expected)
        results.append({"rows": rows, "operation": label, "ours": ours, "floor": theirs, "right": ok,
                        "sampled": "sample" in answer})  # fmt: skip
    growth = memory.growth_mb()
    for result in results:
        result["memory_mb"] = growth
    return results


def measure_wide(user: Any, caller: Any, folder: Path) -> bool:
    """The wide table: each operation and dataset.describe-table answer (their times said)."""
    from agents.operations.files import storage_for
    from tests.factories import make_session

    session = make_session(owner=user)
    workspace = Path(storage_for(session.pk).location)
    workspace.mkdir(parents=True, exist_ok=True)
    wide_csv(workspace / "wide.csv")
    took, _ = sap_call(session, caller, "dataset.import-csv", {"path": "wide.csv", "table": "wide"})
    said = [f"import {took:.2f} s"]
    calls = {
        "describe-table": ("dataset.describe-table", {"table": "wide"}),
        "describe": ("stats.describe", {"table": "wide"}),
        "compare": ("stats.compare", {"table": "wide", "measure": "n1", "group_by": "region"}),
        "association": ("stats.associate", {"table": "wide", "outcome": "n1"}),
        "trend": ("stats.trend", {"table": "wide", "time": "day", "measure": "n1"}),
        "growth": ("stats.growth", {"table": "wide", "entity": "product", "time": "day", "measure": "n1"}),
    }
    ok = True
    for label, (name, body) in calls.items():
        try:
            took, _ = sap_call(session, caller, name, body)
            said.append(f"{label} {took:.2f} s")
        except RuntimeError as error:
            ok = False
            said.append(f"{label} FAILED ({error})")
    print("\nwide table (1,000 rows x 500 columns): " + "; ".join(said))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000,10000000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-wide", action="store_true")
    args = parser.parse_args()
    setup_django()
    folder = Path(tempfile.mkdtemp(prefix="chap-analysis-size-"))
    try:
        return run([int(s) for s in args.sizes.split(",")], args.repeat, not args.no_wide, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        from django.db import connections

        connections["datasets"].close()
        teardown_django()


def run(sizes: list[int], repeat: int, wide: bool, folder: Path) -> int:
    from django.db import connections

    from sessions.access import caller_for_user
    from tests.factories import make_user

    user = make_user("bench")
    caller = caller_for_user(user)
    print(f"database: {connections['datasets'].vendor}; best of {repeat}; floor: DuckDB alone in a fresh process "
          "on the same columnar file")  # fmt: skip
    results = [result for rows in sizes for result in measure_size(user, caller, rows, repeat, folder)]
    print(f"\n{'rows':>11} {'operation':>12} {'ours s':>8} {'floor s':>8} {'ratio':>6} {'right':>6} {'memory MB':>10}")
    ok = True
    for r in results:
        ratio = r["ours"] / r["floor"]
        met = r["right"] and r["memory_mb"] < 1024 and (r["rows"] < 10_000_000 or (ratio <= 3 and r["ours"] < 60))
        ok &= met
        print(f"{r['rows']:>11,} {r['operation']:>12} {r['ours']:>8.3f} {r['floor']:>8.3f} {ratio:>6.2f} "
              f"{'yes' if r['right'] else 'NO':>6} {r['memory_mb']:>10.0f}" + ("" if met else "  MISSED"))  # fmt: skip
    if wide:
        ok &= measure_wide(user, caller, folder)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
