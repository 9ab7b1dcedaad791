"""History review costs: full-text search and the map as it was, as sessions grow.

    python bench/history.py            (SQLite; DATABASE_URL=postgres://… for PostgreSQL)

Two sessions of 1,000 and 10,000 messages (the realistic mix of bench/context_graph.py, through
message_post), each with one message that says "zeppelin". Targets (issue #10):
- search: finding a rare word with the database's full-text index at 10,000 messages takes at most
  0.5x a LIKE scan of the same text (the baseline), and at most 3x its own time at 1,000;
- the map as it was: replaying the log to a point costs at most 3x replaying the same messages held
  in memory (the baseline: reading the log is the overhead), and grows about linearly (10,000
  messages at most 15x the time of 1,000: a bigger graph costs a little more per node). Pausing
  the garbage collector during a replay keeps it so: with it running, 10,000 took 20x the time.
- a step of the history slider forward applies only the messages in between (the last replay is kept
  per session): at 10,000 messages at most 0.05x a replay from the start.
A common word is reported too: it matches thousands of messages, and ranking them all costs more
than a LIKE scan that stops at the first 50 (which, unlike the index, cannot stem or rank).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import bench_appends, with_django
from bench.sap_operations import best_interleaved

SIZES = (1_000, 10_000)


def build(size: int):
    from django.db import connection

    from sessions.access import caller_for_user
    from sessions.log import message_post_at_head
    from sessions.models import WorkSession
    from tests.sessions import envelopes

    session = bench_appends(size - 1, owner=f"history{size}")["session"]
    needle = envelopes.proposal(goal="Plan the zeppelin logistics review")["payload"]
    message_post_at_head(
        session_id=session.pk, caller=caller_for_user(session.created_by), payload_type="task_proposal", payload=needle
    )
    if connection.vendor == "postgresql":
        # What autovacuum does soon after such a burst of writes: statistics for the planner, and the
        # GIN index's pending list (fastupdate) merged into the index proper.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE chap_sessions_message")
    return WorkSession.objects.get(pk=session.pk)


def measure(session) -> dict:
    from sessions.chap.history import replay
    from sessions.graphs import graph_at, replay_cache
    from sessions.models import Message
    from sessions.search import search_messages

    def like(word):
        return list(Message.objects.filter(session=session, search_text__icontains=word).values_list("seq")[:50])

    assert len(search_messages(session=session, text="zeppelin")) == 1 == len(like("zeppelin"))
    rows = list(session.messages.order_by("seq").values_list("seq", "envelope"))
    found = {}
    found["rare_fts"], found["rare_like"] = best_interleaved(
        31, lambda: search_messages(session=session, text="zeppelin"), lambda: like("zeppelin")
    )
    found["common_fts"], found["common_like"] = best_interleaved(
        7, lambda: search_messages(session=session, text="drafting"), lambda: like("drafting")
    )
    found["replay"], found["apply"] = best_interleaved(
        5,
        lambda: graph_at(session, session.head_seq),
        lambda: replay(str(session.pk), rows, until=session.head_seq),
    )
    steps = iter(range(session.head_seq // 2, session.head_seq))

    def step_forward():
        with replay_cache.at(session, next(steps)):
            pass

    step_forward()
    found["step"] = best_interleaved(15, step_forward)[0]
    return found


def run() -> int:
    from django.db import connection

    print(f"database: {connection.vendor}")
    results = {}
    for size in SIZES:
        results[size] = r = measure(build(size))
        print(
            f"{size:>6} messages: search 'zeppelin' (1 hit) {r['rare_fts'] * 1e3:7.2f} ms, LIKE scan "
            f"{r['rare_like'] * 1e3:7.2f} ms | 'drafting' (thousands) {r['common_fts'] * 1e3:7.2f} ms, LIKE "
            f"first 50 {r['common_like'] * 1e3:6.2f} ms | map as it was: replay {r['replay'] * 1e3:7.1f} ms, "
            f"in-memory {r['apply'] * 1e3:7.1f} ms, a slider step forward {r['step'] * 1e3:5.2f} ms"
        )
    small, large = results[SIZES[0]], results[SIZES[-1]]
    checks = [
        ("rare word at 10,000: index / LIKE scan", large["rare_fts"] / large["rare_like"], 0.5),
        ("rare word: 10,000 / 1,000 messages", large["rare_fts"] / small["rare_fts"], 3),
        ("map as it was at 10,000: from the log / in memory", large["replay"] / large["apply"], 3),
        ("map as it was: 10,000 / 1,000 messages", large["replay"] / small["replay"], 15),
        ("a slider step forward at 10,000 / a replay from the start", large["step"] / large["replay"], 0.05),
    ]
    ok = True
    for label, ratio, target in checks:
        ok &= ratio <= target
        print(f"{label}: {ratio:.2f}x (target <= {target}) {'OK' if ratio <= target else 'MISSED'}")
    print(f"common word at 10,000: index / LIKE first 50: {large['common_fts'] / large['common_like']:.1f}x (reported)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(with_django(run))
