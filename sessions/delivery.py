"""Exactly once, in order: one session's messages to one connection. Every socket delivers through it
(the CHAP socket, the agent socket, the browser workspace socket).

A socket joins the session's group before it reads the head it starts from, so nothing committed
after that head can be missed: it comes live, or, when the client already holds an older state (a
``resume``, the page's ``?since=``), it is replayed from the log after the client's last message.

Each ``Sequence`` remembers the last sequence number it delivered. Broadcasts of one session can
arrive out of order (several processes commit and send), twice (a replay overlaps the live stream) or
never (a broadcast lost with a crashed process, a full channel): the next one goes out at once; one
beyond it waits in the early buffer for those before it and, if they do not come in time, the gap is
read from the log; one already delivered is dropped, and counts for nothing; when the stream goes quiet
the head is read once (one read for a session's connections in the process), so a lost tail is read
from the log too, and a connection that heard nothing for a while reads it too (every broadcast since
it joined may be lost); and a broadcast that arrives long after
it was sent shows the connection is behind its queue: the log catches it up to the head at once, and
the rest of the queue is dropped as it comes. Overload delays delivery, never stops it. A sequence's
lock keeps a replay from interleaving with live messages.

Database calls run outside Channels' single shared thread (``db``): each is self-contained, and one
slow call must not hold up every other connection of the process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, TypeVar

from channels.db import database_sync_to_async

from protocol.errors import ProtocolError
from sessions.events import message_frame
from sessions.models import Message, WorkSession

if TYPE_CHECKING:
    from sessions.access import SessionId

logger = logging.getLogger(__name__)

REPLAY_PAGE = 500
GAP_WAIT_S = 0.5  # how long an early message waits for the ones before it before the log is read
TAIL_QUIET_S = 1.0  # how long the stream is quiet before the head is read once, for a dropped tail
MAX_EARLY = 1000  # beyond this many early messages the log is read at once
BEHIND_S = 2.0  # a broadcast this much older than its arrival: the connection is behind, the log catches it up
IDLE_CHECK_S = 5.0  # a connection that heard nothing this long reads the head once: every broadcast may be lost
SHARED_READ_S = 0.05  # the checks of one session's connections in a process share a read of the log this recent


P = ParamSpec("P")
R = TypeVar("R")


def db(function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    return database_sync_to_async(function, thread_sensitive=False)


class Entry(NamedTuple):
    """One message as a socket delivers it: the frame serialised once for all its recipients, and the
    version of the log after it (``checksum``), so the page socket need not read the message back."""

    seq: int
    frame: str
    payload_type: str
    checksum: str = ""


def _head(session_id: SessionId) -> tuple[int, str]:
    return WorkSession.objects.filter(pk=session_id).values_list("head_seq", "head_checksum").get()


def _entries(session_id: SessionId, after: int, upto: int, limit: int) -> list[Entry]:
    rows = Message.objects.filter(session__pk=session_id, seq__gt=after, seq__lte=upto).order_by("seq")
    return [
        Entry(seq, message_frame(seq, envelope), payload_type, checksum)
        for seq, envelope, payload_type, checksum in rows.values_list("seq", "envelope", "payload_type", "checksum")[
            :limit
        ]
    ]


read_head = db(_head)
read_entries = db(_entries)
_recent: dict[tuple[Any, ...], tuple[float, asyncio.Task[Any]]] = {}


async def _shared_read(key: tuple[Any, ...], read: Callable[[], Coroutine[Any, Any, R]]) -> R:
    """``read()``, or the same read another connection of this process started at most
    ``SHARED_READ_S`` ago: the pages of one session hear its broadcasts together, so their checks and
    catch-ups come due together, and one query serves them all instead of one per connection."""
    loop = asyncio.get_running_loop()
    now, kept = loop.time(), _recent.get(key)
    if kept is None or now - kept[0] > SHARED_READ_S or kept[1].get_loop() is not loop:
        if len(_recent) > 4096:  # reads no connection of this process shares any more
            _recent.clear()
        kept = _recent[key] = (now, loop.create_task(read()))
    found: R = await asyncio.shield(kept[1])
    return found


async def quiet_head(session_id: SessionId) -> int:
    """The head for a check of the log (a lost tail, a connection that heard nothing, one behind its
    queue), shared (``_shared_read``). A message committed within that while whose broadcast is lost
    waits for the next check."""
    head_seq, _ = await _shared_read(("head", session_id), lambda: read_head(session_id))
    return head_seq


async def log_entries(session_id: SessionId, after: int, upto: int) -> list[Entry]:
    """A page of the log after ``after`` up to ``upto``, shared (``_shared_read``): those rows are
    committed and never change, so a shared read is the same read."""
    return await _shared_read(
        ("entries", session_id, after, upto), lambda: read_entries(session_id, after, upto, REPLAY_PAGE)
    )


def past_head(since: int, head_seq: int, key: str = "since_seq") -> ProtocolError:
    """A resume from beyond the log's end: refused, and live delivery goes on where it was."""
    return ProtocolError(
        "INVALID_FRAME",
        f"{key} {since} is past the session's last message, {head_seq}",
        details={"invalid": {key: f"at most {head_seq}"}, "head_seq": head_seq},
        suggestion=[f"resume from a sequence number you have received, at most {head_seq}"],
    )


class Sequence:
    """One session's messages to one connection, each once, in sequence order.

    ``deliver`` sends one entry to the client. Two timers keep delivery going when the layer drops
    broadcasts (a full channel): an early message that waits ``GAP_WAIT_S`` has its gap read from the
    log, and once the stream has been quiet for ``TAIL_QUIET_S`` the head is read once, so a dropped
    *tail*, which no later message would expose, is delivered too. A third catches a connection up
    from the log once a broadcast arrives ``BEHIND_S`` after it was sent: behind its own queue, it would
    otherwise wait for every queued broadcast in turn. A fourth reads the head of a connection that
    heard nothing for ``IDLE_CHECK_S``. The timers run beside the socket's events; ``lock`` keeps every
    delivery of the sequence in turn.
    """

    def __init__(self, session_id: SessionId, last_seq: int, deliver: Callable[[Entry], Awaitable[None]]) -> None:
        self.session_id, self.last_seq = session_id, last_seq
        self.deliver = deliver
        self.early: dict[int, Entry] = {}
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        self.heard_at = self.loop.time()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.checks: set[asyncio.Task[None]] = set()
        self.closed = False
        self._arm("idle", IDLE_CHECK_S, self._idle_due)

    async def offer(self, entry: Entry, sent_at: float | None = None) -> None:
        """A message as it arrived from the group (broadcast at ``sent_at``, a ``time.time()``): delivered
        now, kept until its turn, or dropped. A dropped one does not count as the stream going on: a
        queue of repeats must not put off the tail's check."""
        async with self.lock:
            if entry.seq <= self.last_seq:
                return
            self.heard_at = self.loop.time()
            if entry.seq == self.last_seq + 1:  # the usual case, kept short: it runs per message per connection
                await self._deliver(entry)
                if self.early:
                    await self._release_early()
            else:
                self.early[entry.seq] = entry
                if len(self.early) > MAX_EARLY:
                    await self._fill_gap()
                else:
                    self._arm("gap", GAP_WAIT_S, self.gap_check)
        self._arm("tail", TAIL_QUIET_S, self._tail_due)
        if sent_at is not None and time.time() - sent_at > BEHIND_S:
            self._arm("behind", 0, self._behind_due)

    async def gap_check(self) -> None:
        """The early messages waited long enough: what is still missing before them is read from the log."""
        async with self.lock:
            if self.early:
                await self._fill_gap()

    async def catch_up(self, head_seq: int | None = None) -> None:
        """Deliver what the log holds past the last delivered message, up to the head (read when not given)."""
        async with self.lock:
            head = head_seq if head_seq is not None else (await read_head(self.session_id))[0]
            if head > self.last_seq:
                await self._replay_to(head)
                await self._release_early()

    async def replay(self, since: int, name: str = "since_seq") -> int:
        """Deliver every message after ``since`` up to the head from the log, then the early messages next
        in line, and go on from there (again, if the client asks for messages it was sent). Returns the
        head; past it, ProtocolError naming the client's field ``name``, and delivery goes on where it was."""
        async with self.lock:
            head_seq, _ = await read_head(self.session_id)
            if since > head_seq:
                raise past_head(since, head_seq, name)
            self.last_seq = since
            await self._replay_to(head_seq)
            head_seq = self.last_seq
            await self._release_early()
            return head_seq

    def close(self) -> None:
        """The connection is gone: no timer or check of it runs any more."""
        self.closed = True
        for timer in self.timers.values():
            timer.cancel()
        for check in self.checks:
            check.cancel()

    def _arm(self, name: str, delay: float, check: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if name not in self.timers and not self.closed:
            self.timers[name] = self.loop.call_later(delay, self._run, name, check)

    def _run(self, name: str, check: Callable[[], Coroutine[Any, Any, None]]) -> None:
        del self.timers[name]
        task = self.loop.create_task(check())
        self.checks.add(task)
        task.add_done_callback(self._checked)

    def _checked(self, task: asyncio.Task[None]) -> None:
        self.checks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("a delivery check of session %s failed", self.session_id, exc_info=task.exception())

    async def _behind_due(self) -> None:
        await self.catch_up(await quiet_head(self.session_id))

    async def _tail_due(self) -> None:
        quiet = self.loop.time() - self.heard_at
        if quiet < TAIL_QUIET_S:  # messages still come: look again once they stop
            self._arm("tail", TAIL_QUIET_S - quiet, self._tail_due)
            return
        await self.catch_up(await quiet_head(self.session_id))

    async def _idle_due(self) -> None:
        """Nothing heard for a while: the head is read once, since a message whose broadcast never came
        (and no later one did) would wait for the next message, or for ever; then the next look."""
        try:
            if self.loop.time() - self.heard_at >= IDLE_CHECK_S:
                await self.catch_up(await quiet_head(self.session_id))
        finally:
            self._arm("idle", IDLE_CHECK_S, self._idle_due)

    async def _fill_gap(self) -> None:
        """Deliver everything up to the highest early message, reading what is missing from the log."""
        await self._replay_to(max(self.early))
        await self._release_early()

    async def _release_early(self) -> None:
        """Deliver the early messages that are next in line now; forget those already delivered."""
        while self.last_seq + 1 in self.early:
            await self._deliver(self.early.pop(self.last_seq + 1))
        self.early = {seq: entry for seq, entry in self.early.items() if seq > self.last_seq}

    async def _replay_to(self, upto: int) -> None:
        while self.last_seq < upto:
            page = await log_entries(self.session_id, self.last_seq, upto)
            if not page:
                break
            for entry in page:
                await self._deliver(entry)

    async def _deliver(self, entry: Entry) -> None:
        await self.deliver(entry)
        self.last_seq = entry.seq


class SequencedSocket:
    """A consumer's part in sequenced delivery: the group's ``chap.message`` events go to the
    connection's sequence of that session.

    The consumer names the sequence an event belongs to (``sequence_of``), sends what is delivered
    (``deliver``) and closes its sequences when it disconnects."""

    def sequence_for(self, session_id: SessionId, last_seq: int) -> Sequence:
        """A new sequence of ``session_id`` that goes on after ``last_seq``."""
        return Sequence(session_id, last_seq, deliver=lambda entry: self.deliver(session_id, entry))

    def sequence_of(self, event: dict[str, Any]) -> Sequence | None:
        raise NotImplementedError

    async def deliver(self, session_id: SessionId, entry: Entry) -> None:
        raise NotImplementedError

    async def chap_message(self, event: dict[str, Any]) -> None:
        sequence = self.sequence_of(event)
        if sequence is not None:
            await sequence.offer(
                Entry(event["seq"], event["frame"], event.get("payload_type", ""), event.get("checksum", "")),
                sent_at=event.get("sent_at"),
            )
