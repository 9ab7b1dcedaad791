"""The agent status bar as a session's log grows: it is sent again after every agent_status.

    python bench/side_panels.py

Three agents post 10, 1,000 and 5,000 statuses in all (through message_post, as they would). The
status bar reads each agent's newest status only, so its cost per view should stay flat: at 5,000
statuses at most 2x its time at 10 (issue #18). Ratios are against the 10-status session measured in
the same run.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import with_django
from bench.timing import best

SIZES = (10, 1_000, 5_000)
AGENTS = ("analyst", "reviewer", "writer")


def run() -> int:
    from django.template.loader import render_to_string

    from sessions import selectors
    from sessions.log import message_post
    from sessions.models import WorkSession
    from tests.factories import agent_in, make_session, make_user
    from tests.sessions import envelopes

    results = {}
    for size in SIZES:
        session = make_session(owner=make_user(f"owner{size}"))
        callers = [agent_in(session, name) for name in AGENTS]
        for n in range(size):
            caller = callers[n % len(callers)]
            head = WorkSession.objects.get(pk=session.pk).head_checksum
            envelope = envelopes.envelope(
                "agent_status",
                {"state": "working", "activity": f"step {n}", "progress": {"done": n, "total": size}},
                session_id=session.pk,
                sender=("agent", caller.sender_id),
                context_checksum=head,
                message_id=f"s{n}",
            )
            message_post(session_id=session.pk, caller=caller, envelope=envelope)

        def status_bar(session=session):
            agents = selectors.agent_statuses(session=session)
            return render_to_string("workspace/partials/status_bar.html", {"agents": agents, "session": session})

        status_bar()
        results[size] = best(15, status_bar)
        print(f"{size:>5} statuses: status bar {results[size] * 1e3:6.2f} ms")
    ratio = results[SIZES[-1]] / results[SIZES[0]]
    ok = ratio <= 2
    print(
        f"status bar: {SIZES[-1]:,} vs {SIZES[0]} statuses: {ratio:.2f}x the time (target <= 2) "
        f"{'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(with_django(run))
