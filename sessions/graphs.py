"""The context graph of each session, kept in memory per process and caught up from the log.

An entry is trusted only while its (seq, checksum) matches the session row: a process that
missed messages written by another process reads just the missing ones, and an entry that
ran ahead (its transaction rolled back) is rebuilt.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Case, F, Func, JSONField, When

from sessions import graph_snapshots
from sessions.access import SessionId
from sessions.chap.chain import genesis_checksum
from sessions.chap.graph import ContextGraph
from sessions.chap.history import collection_paused, replay
from sessions.chap.layout import MapLayout
from sessions.models import Message, WorkSession

MAX_CACHED_SESSIONS = 64
LOG_CHUNK = 500  # rows read at a time while a graph is built: memory stays that of a chunk, not of the log


class _WithoutSummary(Func):
    """An envelope without ``payload.summary``, taken out by the database."""

    output_field = JSONField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="json_remove(%(expressions)s, '$.payload.summary')")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="(%(expressions)s #- '{payload,summary}')")


# What a graph is built from: every envelope, a checkpoint's without the summary the graph never reads (an
# older checkpoint's summary restates the whole graph it was taken of).
_GRAPH_ENVELOPE = Case(
    When(payload_type="checkpoint", then=_WithoutSummary("envelope")), default=F("envelope"), output_field=JSONField()
)


def log_rows(session: WorkSession, *, after: int, upto: int) -> Iterator[tuple[int, dict[str, Any], str]]:
    """``(seq, envelope, checksum)`` of the messages after ``after`` up to ``upto``, in order, as a graph
    is built from them (``_GRAPH_ENVELOPE``), read ``LOG_CHUNK`` rows at a time."""
    rows = Message.objects.filter(session=session, seq__gt=after, seq__lte=upto).order_by("seq")
    return rows.annotate(built_from=_GRAPH_ENVELOPE).values_list("seq", "built_from", "checksum").iterator(LOG_CHUNK)


@dataclass
class _Entry:
    graph: ContextGraph
    checksum: str
    lock: threading.RLock
    layout: MapLayout = field(default_factory=MapLayout)  # the decision map's positions, placed as nodes arrive


class GraphCache:
    def __init__(self, size: int = MAX_CACHED_SESSIONS):
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def entry(self, session: WorkSession) -> _Entry:
        """The session's graph at the head recorded on ``session``; hold ``entry.lock`` while using it."""
        entry = self.slot(session)
        with entry.lock:
            self.catch_up(entry, session)
        return entry

    def slot(self, session: WorkSession) -> _Entry:
        """The session's entry as it is, for a caller that takes its lock and catches it up itself
        (the append, which must catch up under the lock anyway)."""
        key = str(session.pk)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                entry = _Entry(ContextGraph(key), genesis_checksum(key), threading.RLock())
                self._entries[key] = entry
                if len(self._entries) > self._size:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(key)
        return entry

    def catch_up(self, entry: _Entry, session: WorkSession) -> None:
        """Bring ``entry`` to the head recorded on ``session``, rebuilding it when it is ahead (a rolled
        back write, or a reader with an older head got there first). Hold ``entry.lock``."""
        graph = entry.graph
        if graph.seq > session.head_seq or (graph.seq == session.head_seq and entry.checksum != session.head_checksum):
            entry.graph = graph = ContextGraph(str(session.pk))
            entry.checksum = genesis_checksum(str(session.pk))
            entry.layout = MapLayout()
        if graph.seq == 0 and session.head_seq >= graph_snapshots.SNAPSHOT_EVERY:
            with collection_paused():
                kept = graph_snapshots.load(session)
            if kept is not None:
                entry.graph, entry.layout, entry.checksum = kept.graph, kept.layout, kept.checksum
                graph = kept.graph
        if graph.seq < session.head_seq:
            start = graph.seq
            with collection_paused():
                for seq, envelope, checksum in log_rows(session, after=graph.seq, upto=session.head_seq):
                    graph.apply(seq, envelope)
                    entry.checksum = checksum
            if graph.seq - start >= graph_snapshots.SNAPSHOT_EVERY:
                graph_snapshots.write(graph_snapshots.taken(graph, entry.layout, entry.checksum))

    def keep_snapshot(self, session_id: SessionId) -> None:
        """Write a snapshot of the session's graph as this process holds it (if it holds it)."""
        with self._lock:
            entry = self._entries.get(str(session_id))
        if entry is None:
            return
        with entry.lock:
            row = graph_snapshots.taken(entry.graph, entry.layout, entry.checksum)
        graph_snapshots.write(row)

    def holds(self, session_id: SessionId) -> bool:
        """Whether this process keeps the session's graph (caught up or not)."""
        with self._lock:
            return str(session_id) in self._entries

    def drop(self, session_id: SessionId) -> None:
        with self._lock:
            self._entries.pop(str(session_id), None)


graph_cache = GraphCache()


def graph_at(session: WorkSession, seq: int) -> ContextGraph:
    """The graph as it was after message ``seq`` (``history.replay`` over the log)."""
    rows = log_rows(session, after=0, upto=seq)
    return replay(str(session.pk), ((number, envelope) for number, envelope, _ in rows), until=seq)


MAX_REVIEWED_SESSIONS = 8


@dataclass
class _Replay:
    graph: ContextGraph
    checksum: str  # of the message the graph stands at: it is right while that message's checksum is
    lock: threading.Lock


class ReplayCache:
    """The graph each session was last reviewed at, per process. The history slider moves a step at a
    time: a step forward applies only the messages in between, a step back replays from the start.
    The log only grows and is chained, so a graph built to message N stays right while message N
    keeps the checksum it was built to (a session deleted and imported again does not)."""

    def __init__(self, size: int = MAX_REVIEWED_SESSIONS):
        self._entries: OrderedDict[str, _Replay] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    @contextmanager
    def at(self, session: WorkSession, seq: int) -> Iterator[ContextGraph]:
        """The graph after message ``seq`` (at most the head), locked while the caller reads it."""
        key = str(session.pk)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = _Replay(ContextGraph(key), genesis_checksum(key), threading.Lock())
                if len(self._entries) > self._size:
                    self._entries.popitem(last=False)
            self._entries.move_to_end(key)
        with entry.lock:
            if entry.graph.seq > seq or not self._still_right(session, entry):
                entry.graph, entry.checksum = ContextGraph(key), genesis_checksum(key)
            with collection_paused():
                for number, envelope, checksum in log_rows(session, after=entry.graph.seq, upto=seq):
                    entry.graph.apply(number, envelope)
                    entry.checksum = checksum
            yield entry.graph

    @staticmethod
    def _still_right(session: WorkSession, entry: _Replay) -> bool:
        if entry.graph.seq == 0:
            return True
        stored = Message.objects.filter(session=session, seq=entry.graph.seq).values_list("checksum", flat=True)
        return next(iter(stored), None) == entry.checksum


replay_cache = ReplayCache()
