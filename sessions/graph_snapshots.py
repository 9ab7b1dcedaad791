"""Snapshots of a long session's context graph, so opening it does not replay the whole log.

A process that holds no graph of a session replays its log from the first message: at 10,000
messages that took longer than the 2 s a page may take (bench/long_session.py). A snapshot is the
graph and its map layout as they stood after one message, pickled and compressed in the session's
row of ``GraphSnapshot``; a fresh process loads it and applies only the messages after it.

A snapshot is used only while it is still right: the log's checksum after its message must be the
one it was taken at (the log is chained, so nothing before it changed), and it must have been built
by the graph rules this code has (``RULES``, a digest of ``sessions/chap``'s source): a release that
changes how a message shapes the graph replays the log once and takes a new snapshot. Snapshots are
written only by the server, from its own objects, never from anything an account sends.

One is taken after every ``SNAPSHOT_EVERY``-th message is committed (pickled under the graph's lock,
written after it), and when a process had to apply that many messages at once to bring a graph to the
head (a session written before snapshots, or by other rules).
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import zlib
from dataclasses import dataclass
from pathlib import Path

from django.db import DatabaseError, transaction

from sessions.chap import graph as graph_rules
from sessions.chap.graph import ContextGraph
from sessions.chap.layout import MapLayout
from sessions.models import GraphSnapshot, Message, WorkSession

KEY, STORED = ["session"], ["seq", "checksum", "rules", "data"]  # one snapshot per session, the newest
SNAPSHOT_EVERY = 1000  # messages applied at once that make taking a snapshot worth its write

logger = logging.getLogger(__name__)


def _rules_digest() -> str:
    sources = sorted(Path(graph_rules.__file__).parent.glob("*.py"))
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


RULES = _rules_digest()


@dataclass
class Snapshot:
    graph: ContextGraph
    layout: MapLayout
    checksum: str


def load(session: WorkSession) -> Snapshot | None:
    """The session's snapshot, if one is still right for its log as it is now (at most its head)."""
    row = GraphSnapshot.objects.filter(session=session, seq__lte=session.head_seq, rules=RULES).first()
    if row is None:
        return None
    stored = Message.objects.filter(session=session, seq=row.seq).values_list("checksum", flat=True).first()
    if stored != row.checksum:
        return None
    graph, layout = pickle.loads(zlib.decompress(bytes(row.data)))  # written by this server only
    return Snapshot(graph, layout, row.checksum)


def taken(graph: ContextGraph, layout: MapLayout, checksum: str) -> GraphSnapshot:
    """The graph and its layout as a snapshot row: made while the graph's lock is held, since the next
    append changes them."""
    layout.update(graph)
    data = zlib.compress(pickle.dumps((graph, layout), protocol=pickle.HIGHEST_PROTOCOL), 1)
    return GraphSnapshot(session_id=graph.session_id, seq=graph.seq, checksum=checksum, rules=RULES, data=data)


def write(row: GraphSnapshot) -> None:
    """Keep ``row`` as its session's snapshot; a write that fails (a locked SQLite file) is skipped, since
    the next cold start only replays more of the log."""
    try:
        with transaction.atomic():
            GraphSnapshot.objects.bulk_create([row], update_conflicts=True, unique_fields=KEY, update_fields=STORED)
    except DatabaseError:
        logger.warning("the graph snapshot of session %s was not written", row.session_id, exc_info=True)
