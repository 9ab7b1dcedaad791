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

One is taken when a process had to apply ``SNAPSHOT_EVERY`` messages or more to bring a graph to the
head: a cold start of a long session, not the everyday append.
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

STORED = ["seq", "checksum", "rules", "data"]
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


def save(session: WorkSession, snapshot: Snapshot) -> None:
    """Keep ``snapshot`` as the session's; a write that fails (a locked SQLite file) is skipped, since
    the next cold start only replays more of the log."""
    snapshot.layout.update(snapshot.graph)
    data = zlib.compress(pickle.dumps((snapshot.graph, snapshot.layout), protocol=pickle.HIGHEST_PROTOCOL), 1)
    row = GraphSnapshot(session=session, seq=snapshot.graph.seq, checksum=snapshot.checksum, rules=RULES, data=data)
    try:
        with transaction.atomic():
            GraphSnapshot.objects.bulk_create(
                [row], update_conflicts=True, unique_fields=["session"], update_fields=STORED
            )
    except DatabaseError:
        logger.warning("the graph snapshot of session %s was not written", session.pk, exc_info=True)
