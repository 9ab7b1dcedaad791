"""The sessions list of a user with 100 sessions, as each session's log grows.

    python bench/sessions_list.py [--sessions 100]

For each size (10, 1,000 and 5,000 messages a session) one session takes the realistic mix of
bench/context_graph.py through message_post, and its log and its row are copied to the user's other
sessions. The list reads what waits in each session (its open questions, plans, approvals, steps at
their gate) from the database, never from a replay of the log, so its cost per view should stay flat:
at 5,000 messages at most 2x its time at 10 (issue #18). Ratios are against the 10-message user
measured in the same run; the three users' lists are timed in turn.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.context_graph import bench_appends, with_django
from bench.timing import best_interleaved

SIZES = (10, 1_000, 5_000)
COPIED = [
    "seq", "message_id", "payload_type", "sender_type", "sender_id", "in_reply_to", "envelope", "content_hash",
    "checksum", "search_text",
]  # fmt: skip


def copies_of(session, count: int) -> None:
    """``count`` more sessions of the owner with the same log and the same row: what their list reads."""
    from sessions.log import WAITING_FIELDS
    from sessions.models import MemberRole, Membership, Message, WorkSession

    rows = list(Message.objects.filter(session=session).order_by("seq").values(*COPIED))
    kept = {field: getattr(session, field) for field in ("head_seq", "head_checksum", *WAITING_FIELDS)}
    for n in range(count):
        copy = WorkSession.objects.create(title=f"{session.title} {n}", created_by=session.created_by, **kept)
        Membership.objects.create(session=copy, user=session.created_by, role=MemberRole.OWNER)
        Message.objects.bulk_create((Message(session=copy, **row) for row in rows), batch_size=1_000)


def run(sessions: int) -> int:
    from django.test import Client
    from django.urls import reverse

    clients = {}
    for size in SIZES:
        made = bench_appends(size, owner=f"owner{size}")
        session = made["session"]
        copies_of(session, sessions - 1)
        client = Client(HTTP_HOST="localhost")
        client.force_login(session.created_by)
        clients[size] = client
        waits = f"{session.open_questions} open questions, {len(session.proposed_plans)} plans proposed"
        print(f"{size:>5} messages a session: {sessions} sessions, each with {waits}")

    url = reverse("workspace:list")

    def view(client):
        response = client.get(url)
        assert response.status_code == 200 and response.content.count(b"<tr>") == sessions + 1

    for client in clients.values():
        view(client)
    timings = dict(zip(SIZES, best_interleaved(7, *(lambda c=c: view(c) for c in clients.values())), strict=True))
    for size, seconds in timings.items():
        ratio = seconds / timings[SIZES[0]]
        print(f"{size:>5} messages a session: list of {sessions} sessions {seconds * 1e3:7.1f} ms ({ratio:.2f}x)")
    ratio = timings[SIZES[-1]] / timings[SIZES[0]]
    ok = ratio <= 2
    print(
        f"sessions list: {SIZES[-1]:,} vs {SIZES[0]} messages a session: {ratio:.2f}x the time (target <= 2) "
        f"{'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    sessions = parser.parse_args().sessions
    sys.exit(with_django(lambda: run(sessions)))
