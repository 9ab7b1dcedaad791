"""CHAP core costs: appending to the log as it grows, invalidation, and the agent's context.

    python bench/context_graph.py [--messages 10000]

Uses a fresh data directory; set DATABASE_URL to measure PostgreSQL (a fresh database is
created and dropped). Targets (issue #5): the per-append cost at 10,000 messages at most 1.5x
that at 1,000; invalidating from the root of a 10,000-node graph (status updates included) at
most 3x networkx's own traversal of the same graph; the context at turn 1,000 within budget and
holding every open question.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django() -> None:
    os.environ.setdefault("WORKBENCH_DATA_DIR", tempfile.mkdtemp(prefix="chap-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        os.environ["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/chap_bench_{os.getpid()}"
        import psycopg

        admin = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE chap_bench_{os.getpid()}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def teardown_django() -> None:
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        from django.db import connections

        connections.close_all()
        import psycopg

        admin = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS chap_bench_{os.getpid()} WITH (FORCE)")  # threads keep theirs


def with_django(run) -> int:
    """``run()`` on a fresh workbench database, dropped afterwards; its exit status."""
    setup_django()
    try:
        return run()
    finally:
        teardown_django()


def realistic_mix(count: int):
    """A proposal, a plan, then rounds of response, feedback, status and the odd clarification."""
    from tests.sessions import envelopes

    yield envelopes.proposal(message_id="t")
    yield envelopes.declaration(message_id="d", in_reply_to="t", steps=5)
    n = 2
    round_no = 0
    while n < count:
        round_no += 1
        step = round_no % 5 + 1
        questions = (f"Should round {round_no} include regional data?",) if round_no % 7 == 0 else ()
        kinds = [
            envelopes.response(message_id=f"r{round_no}", step=step, in_reply_to="d", questions=questions),
            envelopes.envelope(
                "agent_status",
                {"activity": f"drafting round {round_no}", "progress": {"done": step, "total": 5}},
                message_id=f"s{round_no}",
                sender=("agent", "analyst"),
            ),
            envelopes.feedback(
                f"r{round_no}",
                feedback_type=("refinement", "approval", "correction")[round_no % 3],
                part={"kind": "assumption", "index": 0} if round_no % 3 == 2 else None,
                message_id=f"f{round_no}",
                in_reply_to=f"r{round_no}",
            ),
        ]
        if round_no % 7 == 1 and round_no > 1:
            kinds.append(
                envelopes.envelope(
                    "clarification_answer",
                    {
                        "clarification_message_id": f"r{round_no - 1}",
                        "question_index": 0,
                        "free_answer": "Yes, Europe and the US",
                    },
                    message_id=f"a{round_no}",
                )
            )
        if round_no % 11 == 1 and round_no > 1:
            kinds.append(
                envelopes.envelope(
                    "clarification_answer",
                    {"clarification_message_id": f"q{round_no - 1}", "option_id": "eu"},
                    message_id=f"qa{round_no}",
                )
            )
        if round_no % 11 == 0:
            kinds.append(
                envelopes.envelope(
                    "clarification",
                    {
                        "question": f"Which market for round {round_no}?",
                        "options": [{"id": "eu", "label": "Europe"}, {"id": "us", "label": "US"}],
                    },
                    message_id=f"q{round_no}",
                    sender=("agent", "analyst"),
                )
            )
        for message in kinds:
            if n >= count:
                return
            n += 1
            yield message


def bench_appends(total: int, owner: str = "bench") -> dict:
    from django.contrib.auth import get_user_model

    from agents.models import Agent
    from sessions.access import caller_for_agent, caller_for_user
    from sessions.log import message_post
    from sessions.membership import agent_join, session_create
    from sessions.models import WorkSession

    user = get_user_model().objects.create_user(owner, password="x")
    session = session_create(owner=user, title=owner)
    callers = {("human", "alice"): caller_for_user(user)}
    for name in ("planner", "analyst"):
        agent, _ = Agent.objects.get_or_create(name=name)
        agent_join(session=session, agent=agent)
        callers[("agent", name)] = caller_for_agent(agent)
    durations = []
    checksum = session.head_checksum
    for message in realistic_mix(total):
        sender = (message["sender"]["type"], message["sender"]["id"])
        caller = callers.get(sender, callers[("human", "alice")])
        message.update(session_id=str(session.pk), context_checksum=checksum, sender=caller.sender)
        started = time.perf_counter()
        checksum = message_post(session_id=session.pk, caller=caller, envelope=message).context_checksum
        durations.append(time.perf_counter() - started)
    return {"session": WorkSession.objects.get(pk=session.pk), "durations": durations}


def window_mean(durations: list[float], end: int, width: int = 500) -> float:
    chunk = sorted(durations[end - width : end])
    trimmed = chunk[: int(len(chunk) * 0.95)]  # drop the slowest 5%: GC pauses and fsync hiccups
    return sum(trimmed) / len(trimmed)


def bench_invalidation(repeat: int = 5) -> tuple[float, float, int]:
    import networkx as nx

    from sessions.chap.graph import ContextGraph
    from sessions.chap.schemas import validate_envelope
    from tests.sessions import envelopes

    messages = [envelopes.proposal(message_id="t"), envelopes.declaration(message_id="d", in_reply_to="t", steps=50)]
    n = 0
    while True:
        n += 1
        messages.append(envelopes.response(message_id=f"r{n}", step=n % 50 + 1, in_reply_to="d"))
        graph = ContextGraph.from_messages("b", enumerate((validate_envelope(m) for m in messages), start=1))
        if graph.graph.number_of_nodes() >= 10_000:
            break
        # grow in strides: each response adds about ten nodes
        for _ in range(200):
            n += 1
            messages.append(envelopes.response(message_id=f"r{n}", step=n % 50 + 1, in_reply_to="d"))
    checked = [(seq, validate_envelope(m)) for seq, m in enumerate(messages, start=1)]
    correction = validate_envelope(envelopes.feedback("t", feedback_type="correction", part=None, message_id="fix"))
    ours, theirs = [], []
    for _ in range(repeat):
        graph = ContextGraph.from_messages("b", checked)
        started = time.perf_counter()
        nx.ancestors(graph.graph, "t")
        theirs.append(time.perf_counter() - started)
        started = time.perf_counter()
        graph.apply(len(checked) + 1, correction)
        ours.append(time.perf_counter() - started)
    flagged = len(graph.affected_by("fix"))
    return min(ours), min(theirs), flagged, graph.graph.number_of_nodes()


def check_context(session) -> bool:
    """The agent's context at turn 1,000: within budget, every open question in it."""
    from sessions.graphs import graph_cache
    from sessions.models import Message
    from sessions.selectors import agent_context

    turn = Message.objects.filter(session=session, payload_type="collaborative_response").last()
    started = time.perf_counter()
    context = agent_context(session=session, task_message_id=turn.message_id)
    elapsed = time.perf_counter() - started
    graph = graph_cache.entry(session).graph
    open_nodes = [node for node, status in graph.graph.nodes(data="status") if status == "open"]
    missing = [node for node in open_nodes if node not in context["text"]]
    ok = context["tokens"] <= context["budget"] and not missing
    print(
        f"agent context at turn {session.head_seq:,} for {turn.message_id}: {context['tokens']:,} of "
        f"{context['budget']:,} tokens, sections {'/'.join(context['sections'])}, {len(open_nodes)} open questions "
        f"and {len(missing)} missing, built in {elapsed * 1e3:.0f} ms {'OK' if ok else 'MISSED'}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    return with_django(lambda: run(args.messages))


def run(total: int) -> int:
    from django.db import connection

    print(f"database: {connection.vendor}")
    ok = True
    result = bench_appends(total)
    durations = result["durations"]
    at_1k, at_end = window_mean(durations, 1000), window_mean(durations, len(durations))
    growth = at_end / at_1k
    ok &= growth <= 1.5
    print(
        f"append (validate, store, chain, graph): {at_1k * 1e3:.2f} ms at 1,000 | {at_end * 1e3:.2f} ms at "
        f"{len(durations):,} | {growth:.2f}x (target <= 1.5) {'OK' if growth <= 1.5 else 'MISSED'}"
    )

    ours, theirs, flagged, size = bench_invalidation()
    ratio = ours / theirs
    ok &= ratio <= 3
    print(
        f"invalidate from the root of a {size:,}-node graph: {ours * 1e3:.2f} ms for {flagged:,} nodes, statuses "
        f"included | networkx ancestors walk {theirs * 1e3:.2f} ms | {ratio:.2f}x (target <= 3) "
        f"{'OK' if ratio <= 3 else 'MISSED'}"
    )

    context_session = bench_appends(1000, owner="context")["session"]
    ok &= check_context(context_session)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
