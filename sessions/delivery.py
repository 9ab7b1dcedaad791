"""Exactly once, in order: one session's messages to one connection. Every socket delivers through it
(the CHAP socket, the agent socket, the browser workspace socket).

A socket joins the session's group before it reads the head it starts from, so nothing committed
after that head can be missed: it comes live, or, when the client already holds an older state (a
``resume``, the page's ``?since=``), it is replayed from the log after the client's last message.

Each ``Sequence`` remembers the last sequence number it delivered. Broadcasts of one session can
arrive out of order (several processes commit and send), twice (a replay overlaps the live stream) or
never (a broadcast lost with a crashed process, a full channel): the next one goes out at once; one
beyond it waits in the early buffer for those before it and, if they do not come in time, the gap is
read from the log; one already delivered is dropped. The socket handles one event at a time, so a
replay is never interleaved with live messages.

Database calls run outside Channels' single shared thread (``db``): each is self-contained, and one
slow call must not hold up every other connection of the process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, TypeVar

from channels.db import database_sync_to_async

from sessions.events import CHAP_GAP_CHECK, message_frame
from sessions.models import Message, WorkSession
from workbench.protocol.errors import SapError

if TYPE_CHECKING:
    from channels.layers import BaseChannelLayer

    from sessions.access import SessionId

REPLAY_PAGE = 500
GAP_WAIT_S = 0.5  # how long an early message waits for the ones before it before the log is read
MAX_EARLY = 1000  # beyond this many early messages the log is read at once


P = ParamSpec("P")
R = TypeVar("R")


def db(function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    return database_sync_to_async(function, thread_sensitive=False)


class Entry(NamedTuple):
    """One message as a socket delivers it: the frame serialised once for all its recipients."""

    seq: int
    frame: str
    payload_type: str


def _head(session_id: SessionId) -> tuple[int, str]:
    return WorkSession.objects.filter(pk=session_id).values_list("head_seq", "head_checksum").get()


def _entries(session_id: SessionId, after: int, upto: int, limit: int) -> list[Entry]:
    rows = Message.objects.filter(session__pk=session_id, seq__gt=after, seq__lte=upto).order_by("seq")
    return [
        Entry(seq, message_frame(seq, envelope), payload_type)
        for seq, envelope, payload_type in rows.values_list("seq", "envelope", "payload_type")[:limit]
    ]


read_head = db(_head)
read_entries = db(_entries)


def past_head(since: int, head_seq: int, key: str = "since_seq") -> SapError:
    """A resume from beyond the log's end: refused, and live delivery goes on where it was."""
    return SapError(
        "INVALID_FRAME",
        f"{key} {since} is past the session's last message, {head_seq}",
        details={"invalid": {key: f"at most {head_seq}"}, "head_seq": head_seq},
        suggestion=[f"resume from a sequence number you have received, at most {head_seq}"],
    )


class Sequence:
    """One session's messages to one connection, each once, in sequence order.

    ``deliver`` sends one entry to the client. ``remind`` is called when an early message starts
    waiting: the socket calls ``gap_check`` a little later, in turn with its other events.
    """

    def __init__(
        self,
        session_id: SessionId,
        last_seq: int,
        deliver: Callable[[Entry], Awaitable[None]],
        remind: Callable[[], None],
    ) -> None:
        self.session_id, self.last_seq = session_id, last_seq
        self.deliver, self.remind = deliver, remind
        self.early: dict[int, Entry] = {}
        self.reminded = False

    async def offer(self, entry: Entry) -> None:
        """A message as it arrived from the group: delivered now, kept until its turn, or dropped."""
        if entry.seq == self.last_seq + 1:  # the usual case, kept short: it runs once per message per connection
            await self._deliver(entry)
            if self.early:
                await self.release_early()
        elif entry.seq > self.last_seq:
            self.early[entry.seq] = entry
            if len(self.early) > MAX_EARLY:
                await self.fill_gap()
            elif not self.reminded:
                self.reminded = True
                self.remind()

    async def gap_check(self) -> None:
        """The early messages waited long enough: what is still missing before them is read from the log."""
        self.reminded = False
        if self.early:
            await self.fill_gap()

    async def fill_gap(self) -> None:
        """Deliver everything up to the highest early message, reading what is missing from the log."""
        await self._replay_to(max(self.early))
        await self.release_early()

    async def replay(self, since: int, name: str = "since_seq") -> int:
        """Deliver every message after ``since`` up to the head from the log, and go on from there
        (again, if the client asks for messages it was sent). Returns the head; past it, SapError
        naming the client's field ``name``, and delivery goes on where it was."""
        head_seq, _ = await read_head(self.session_id)
        if since > head_seq:
            raise past_head(since, head_seq, name)
        self.last_seq = since
        await self._replay_to(head_seq)
        return self.last_seq

    async def release_early(self) -> None:
        """Deliver the early messages that are next in line now; forget those already delivered."""
        while self.last_seq + 1 in self.early:
            await self._deliver(self.early.pop(self.last_seq + 1))
        self.early = {seq: entry for seq, entry in self.early.items() if seq > self.last_seq}

    async def _replay_to(self, upto: int) -> None:
        while self.last_seq < upto:
            page = await read_entries(self.session_id, self.last_seq, upto, REPLAY_PAGE)
            if not page:
                break
            for entry in page:
                await self._deliver(entry)

    async def _deliver(self, entry: Entry) -> None:
        await self.deliver(entry)
        self.last_seq = entry.seq


class SequencedSocket:
    """A consumer's part in sequenced delivery: the group's ``chap.message`` events go to the
    connection's sequence of that session, and gap checks come back through the connection's own
    channel, so they run in turn with its other events, never beside them.

    The consumer names the sequence an event belongs to (``sequence_of``) and sends what is delivered
    (``deliver``)."""

    # Set by the Channels consumer this is mixed into.
    channel_layer: BaseChannelLayer
    channel_name: str

    def sequence_for(self, session_id: SessionId, last_seq: int) -> Sequence:
        """A new sequence of ``session_id`` that goes on after ``last_seq``."""
        return Sequence(
            session_id,
            last_seq,
            deliver=lambda entry: self.deliver(session_id, entry),
            remind=lambda: self._remind(session_id),
        )

    def sequence_of(self, event: dict[str, Any]) -> Sequence | None:
        raise NotImplementedError

    async def deliver(self, session_id: SessionId, entry: Entry) -> None:
        raise NotImplementedError

    async def chap_message(self, event: dict[str, Any]) -> None:
        sequence = self.sequence_of(event)
        if sequence is not None:
            await sequence.offer(Entry(event["seq"], event["frame"], event.get("payload_type", "")))

    async def chap_gap_check(self, event: dict[str, Any]) -> None:
        sequence = self.sequence_of(event)
        if sequence is not None:
            await sequence.gap_check()

    def _remind(self, session_id: SessionId) -> None:
        event = {"type": CHAP_GAP_CHECK, "session_id": str(session_id)}
        asyncio.get_running_loop().call_later(GAP_WAIT_S, self._send_reminder, event)

    def _send_reminder(self, event: dict[str, Any]) -> None:
        self.reminder = asyncio.ensure_future(self.channel_layer.send(self.channel_name, event))
