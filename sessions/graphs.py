"""The context graph of each session, kept in memory per process and caught up from the log.

An entry is trusted only while its (seq, checksum) matches the session row: a process that
missed messages written by another process reads just the missing ones, and an entry that
ran ahead (its transaction rolled back) is rebuilt.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from sessions.chap.chain import genesis_checksum
from sessions.chap.graph import ContextGraph
from sessions.chap.history import replay
from sessions.chap.layout import MapLayout
from sessions.models import Message, WorkSession

MAX_CACHED_SESSIONS = 64


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
        with entry.lock:
            self._catch_up(entry, session)
        return entry

    def _catch_up(self, entry: _Entry, session: WorkSession) -> None:
        graph = entry.graph
        if graph.seq > session.head_seq or (graph.seq == session.head_seq and entry.checksum != session.head_checksum):
            entry.graph = graph = ContextGraph(str(session.pk))
            entry.checksum = genesis_checksum(str(session.pk))
            entry.layout = MapLayout()
        if graph.seq < session.head_seq:
            rows = Message.objects.filter(session=session, seq__gt=graph.seq, seq__lte=session.head_seq)
            for seq, envelope, checksum in rows.order_by("seq").values_list("seq", "envelope", "checksum"):
                graph.apply(seq, envelope)
                entry.checksum = checksum

    def drop(self, session_id) -> None:
        with self._lock:
            self._entries.pop(str(session_id), None)


graph_cache = GraphCache()


def replay_log(session: WorkSession, *, until: int, mark: int = 0) -> tuple[ContextGraph, dict[str, str]]:
    """The graph after message ``until`` and the statuses after ``mark``, for history review
    (``history.replay`` over the log)."""
    rows = Message.objects.filter(session=session, seq__lte=until).order_by("seq").values_list("seq", "envelope")
    return replay(str(session.pk), rows.iterator(), until=until, mark=mark)


def graph_at(session: WorkSession, seq: int) -> ContextGraph:
    """The graph as it was after message ``seq``."""
    return replay_log(session, until=seq)[0]
