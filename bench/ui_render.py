"""Server time to render the workspace as sessions grow, and the live fragment of one new message.

    python bench/ui_render.py

Sessions of about 100, 500 and 2,000 messages (a realistic mix: responses with sections and
assumptions, the SAP operation records behind them, feedback). The map is the folded one (#16):
operation records and a message's small parts fold into the node that caused or holds them. Targets
(issues #9, #16): the folded map and the thread grow no worse than linearly (2,000 messages at most
25x the 100-message time), and the live fragment of one new message does not re-render the map (at
2,000 messages at most 2x its time at 100).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import with_django
from bench.timing import best

SIZES = (100, 500, 2000)


def grow(session, owner, messages: int) -> None:
    """Post rounds of two operation records + a response (+ feedback every third round) until the log
    holds about ``messages`` messages."""
    from sessions.access import SYSTEM, caller_for_user
    from sessions.log import message_post
    from sessions.models import WorkSession
    from tests.factories import agent_in
    from tests.sessions import envelopes

    human, agent = caller_for_user(owner), agent_in(session)
    n = 0

    def post(caller, envelope):
        head = WorkSession.objects.get(pk=session.pk).head_checksum
        message_post(session_id=session.pk, caller=caller, envelope={**envelope, "context_checksum": head})

    def by(caller):
        return {"session_id": session.pk, "sender": (caller.kind, caller.sender_id)}

    request = {"type": "query", "id": "a", "body": {}, "caller": {"type": "agent", "id": agent.sender_id}}
    operation = {"operation": "dataset.query", "request": request, "outcome": "result", "duration_ms": 1.0}
    post(human, envelopes.proposal(message_id="goal", **by(human)))
    previous = "goal"
    while WorkSession.objects.get(pk=session.pk).head_seq < messages:
        n += 1
        for _ in range(2):
            post(SYSTEM, envelopes.envelope("operation_record", operation, **by(SYSTEM)))
        post(agent, envelopes.response(message_id=f"r{n}", in_reply_to=previous, **by(agent)))
        if n % 3 == 0:
            post(human, envelopes.feedback(f"r{n}", feedback_type="refinement", message_id=f"f{n}", **by(human)))
        previous = f"r{n}"


def run() -> int:
    from django.template.loader import render_to_string

    from sessions.graphs import graph_cache
    from sessions.models import WorkSession
    from tests.factories import make_session, make_user
    from tests.sessions import envelopes
    from workspace import selectors
    from workspace.fragments import live_update, map_urls

    results = {}
    for size in SIZES:
        owner = make_user(f"owner{size}")
        session = make_session(owner=owner)
        grow(session, owner, size)
        session = WorkSession.objects.get(pk=session.pk)
        nodes = len(graph_cache.entry(session).graph.graph)
        shown = len(selectors.decision_map(session=session, expanded=True)["nodes"])

        def render_map(session=session):
            context = {"map": selectors.decision_map(session=session, expanded=True), **map_urls(session.pk)}
            return render_to_string("workspace/partials/map.html", context)

        def render_thread(session=session):
            entries = selectors.thread(session=session)
            context = {"session": session, "role": "owner"}
            return "".join(render_to_string("workspace/partials/message.html", {**context, "m": m}) for m in entries)

        render_map()
        map_s, thread_s = best(9, render_map), best(5, render_thread)
        from sessions.access import caller_for_user
        from sessions.log import message_post

        timings = []
        for k in range(5):
            head = WorkSession.objects.get(pk=session.pk).head_checksum
            envelope = envelopes.feedback(
                "r1", feedback_type="refinement", message_id=f"live{k}", session_id=session.pk,
                sender=("human", owner.username), context_checksum=head,
            )  # fmt: skip
            ack = message_post(session_id=session.pk, caller=caller_for_user(owner), envelope=envelope)
            row = session.messages.get(seq=ack.seq)
            current = WorkSession.objects.get(pk=session.pk)
            started = time.perf_counter()
            live_update(session=current, seq=row.seq, envelope=row.envelope, checksum=row.checksum, role="owner")
            timings.append(time.perf_counter() - started)
        results[size] = (session.head_seq, map_s, thread_s, min(timings))
        print(
            f"{session.head_seq:>5} messages ({nodes:>5} graph nodes, {shown:>4} on the folded map): "
            f"map {map_s * 1e3:7.1f} ms | thread {thread_s * 1e3:7.1f} ms | live fragment {min(timings) * 1e3:6.2f} ms"
        )
    small, large = results[SIZES[0]], results[SIZES[-1]]
    node_ratio = large[0] / small[0]
    checks = [
        ("map", large[1] / small[1], 25),
        ("thread", large[2] / small[2], 25),
        ("live fragment", large[3] / small[3], 2),
    ]
    ok = True
    for label, ratio, target in checks:
        ok &= ratio <= target
        print(f"{label}: {SIZES[-1]} vs {SIZES[0]} messages ({node_ratio:.0f}x the messages): {ratio:.1f}x the time "
              f"(target <= {target}) {'OK' if ratio <= target else 'MISSED'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(with_django(run))
