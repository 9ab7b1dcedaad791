"""Exactly once, in order (sessions.delivery): the sequence on its own, then each of the three sockets
that deliver through it — the CHAP socket, the agent socket and the browser workspace socket."""

import asyncio
import html
import json
import re
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from protocol.errors import ProtocolError
from sessions import delivery, log
from sessions.access import caller_for_user
from sessions.delivery import Entry, Sequence
from sessions.events import CHAP_MESSAGE, message_frame, session_group
from sessions.models import Message
from tests.factories import post_message
from tests.sessions import envelopes
from tests.sockets import bearer_headers, cookie_headers
from workbench.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
SOCKETS = ["chap", "agent", "page"]


def post_unannounced(world, count: int, monkeypatch) -> list[int]:
    """Store ``count`` messages whose broadcasts never leave, as if lost with a crashed process."""
    with monkeypatch.context() as patched:
        patched.setattr(log, "send_on_commit", lambda session_id, event: None)
        owner = caller_for_user(world["owner"])
        return [post_message(world["session"], owner, envelopes.proposal).seq for _ in range(count)]


def broadcast(world, seq: int) -> dict:
    """The group event of a stored message, as message_post sends it."""
    message = Message.objects.get(session=world["session"], seq=seq)
    return {
        "type": CHAP_MESSAGE,
        "session_id": str(world["session"].pk),
        "seq": seq,
        "payload_type": message.payload_type,
        "frame": message_frame(seq, message.envelope),
    }


# -- the sequence on its own ---------------------------------------------------------------------------


def test_out_of_order_repeated_and_missing_messages_are_delivered_once_in_order(world, monkeypatch):
    first, *_, last = post_unannounced(world, 5, monkeypatch)
    delivered, gap_timers = [], []

    async def deliver(entry):
        delivered.append((entry.seq, entry.frame))

    def live(seq):
        return Entry(seq, f"live {seq}", "task_proposal")

    async def scenario():
        sequence = Sequence(world["session"].pk, first - 1, deliver)
        for seq in (first + 1, first + 1, first):
            await sequence.offer(live(seq))
            gap_timers.append("gap" in sequence.timers)
        await sequence.gap_check()  # the first gap's timer: nothing is missing any more
        for seq in (first + 4, first + 3, first + 3):
            await sequence.offer(live(seq))
        await sequence.gap_check()  # first + 2 never came: it is read from the log, and what follows it
        await sequence.offer(live(first + 2))
        sequence.close()

    async_to_sync(scenario)()
    log = dict(Message.objects.filter(session=world["session"]).values_list("seq", "envelope"))
    assert [seq for seq, _ in delivered] == list(range(first, last + 1))
    assert delivered[:2] == [(first, f"live {first}"), (first + 1, f"live {first + 1}")]
    assert delivered[2:] == [(seq, message_frame(seq, log[seq])) for seq in range(first + 2, last + 1)]
    assert gap_timers == [True, True, True]  # armed by the first early message, once for its gap


def test_a_lost_tail_is_read_from_the_log_once_the_stream_goes_quiet(world, monkeypatch):
    """The last broadcasts of a burst never come (a full channel): no later message exposes the gap,
    so the sequence reads the head once the stream is quiet and delivers the rest."""
    monkeypatch.setattr("sessions.delivery.TAIL_QUIET_S", 0.05)
    first, *_, last = post_unannounced(world, 4, monkeypatch)
    delivered = []

    async def deliver(entry):
        delivered.append(entry.seq)

    async def scenario():
        sequence = Sequence(world["session"].pk, first - 1, deliver)
        await sequence.offer(Entry(first, "live", "task_proposal"))  # the rest of the burst is lost
        for _ in range(100):
            await asyncio.sleep(0.02)
            if delivered[-1] == last:
                break
        sequence.close()

    async_to_sync(scenario)()
    assert delivered == list(range(first, last + 1))


def test_the_pages_of_one_session_read_a_lost_tail_with_one_read_of_the_head(world, monkeypatch):
    """Many pages of a session in one process go quiet together: each gets the lost tail, and the head
    is read once for them all, not once a page (500 pages read it 500 times a second)."""
    monkeypatch.setattr("sessions.delivery.TAIL_QUIET_S", 0.05)
    first, *_, last = post_unannounced(world, 3, monkeypatch)
    reads, read_head = [], delivery.read_head

    async def counted(session_id):
        reads.append(session_id)
        return await read_head(session_id)

    monkeypatch.setattr("sessions.delivery.read_head", counted)
    delivered: list[list[int]] = [[] for _ in range(20)]

    async def scenario():
        sequences = [
            Sequence(world["session"].pk, first - 1, lambda entry, got=got: asyncio.sleep(0, got.append(entry.seq)))
            for got in delivered
        ]
        for sequence in sequences:
            await sequence.offer(Entry(first, "live", "task_proposal"))  # the rest of the burst is lost
        for _ in range(100):
            await asyncio.sleep(0.02)
            if all(got[-1] == last for got in delivered):
                break
        for sequence in sequences:
            sequence.close()

    async_to_sync(scenario)()
    assert delivered == [list(range(first, last + 1))] * 20
    assert len(reads) == 1


def test_a_connection_whose_every_broadcast_is_lost_reads_the_log_once_it_has_heard_nothing_for_a_while(
    world, monkeypatch
):
    """Not one broadcast arrives (lost between threads, a full channel): the idle check reads the head."""
    monkeypatch.setattr("sessions.delivery.IDLE_CHECK_S", 0.05)
    delivered = []

    async def deliver(entry):
        delivered.append(entry.seq)

    async def scenario():
        head = world["session"].head_seq
        sequence = Sequence(world["session"].pk, head, deliver)
        stored = await database_sync_to_async(post_unannounced)(world, 2, monkeypatch)
        for _ in range(100):
            await asyncio.sleep(0.02)
            if delivered == stored:
                break
        sequence.close()
        return stored

    stored = async_to_sync(scenario)()
    assert delivered == stored


def test_repeated_broadcasts_do_not_put_off_reading_a_lost_tail(world, monkeypatch):
    """A connection drains a queue of broadcasts it already delivered: they are not a live stream."""
    monkeypatch.setattr("sessions.delivery.TAIL_QUIET_S", 0.2)
    first, *_, last = post_unannounced(world, 4, monkeypatch)
    delivered = []

    async def deliver(entry):
        delivered.append(entry.seq)

    async def scenario():
        sequence = Sequence(world["session"].pk, first - 1, deliver)
        await sequence.offer(Entry(first, "live", "task_proposal"))
        for _ in range(40):  # two seconds of repeats, ten times the quiet that exposes the tail
            await sequence.offer(Entry(first, "repeated", "task_proposal"))
            await asyncio.sleep(0.05)
        sequence.close()

    async_to_sync(scenario)()
    assert delivered == list(range(first, last + 1))


def test_a_broadcast_that_comes_late_has_the_log_catch_the_connection_up_at_once(world, monkeypatch):
    """A connection behind its own queue (the broadcast was sent seconds ago) is caught up from the log
    to the head, without waiting for the rest of its queue or for the stream to go quiet."""
    monkeypatch.setattr("sessions.delivery.TAIL_QUIET_S", 3600)
    first, *_, last = post_unannounced(world, 4, monkeypatch)
    delivered = []

    async def deliver(entry):
        delivered.append(entry.seq)

    async def scenario():
        sequence = Sequence(world["session"].pk, first - 1, deliver)
        await sequence.offer(Entry(first, "live", "task_proposal"), sent_at=time.time() - 10)
        for _ in range(100):
            await asyncio.sleep(0.02)
            if delivered[-1] == last:
                break
        for seq in range(first + 1, last + 1):  # the rest of its queue: already delivered
            await sequence.offer(Entry(seq, "queued", "task_proposal"), sent_at=time.time() - 10)
        sequence.close()

    async_to_sync(scenario)()
    assert delivered == list(range(first, last + 1))


def test_a_replay_delivers_the_log_after_a_given_seq_and_live_ones_go_on_after_it(world, monkeypatch):
    first, *_, last = post_unannounced(world, 4, monkeypatch)
    delivered = []

    async def deliver(entry):
        delivered.append(entry.seq)

    async def scenario():
        sequence = Sequence(world["session"].pk, last, deliver)
        await sequence.offer(Entry(last + 2, "early", "task_proposal"))
        head = await sequence.replay(first)
        with pytest.raises(ProtocolError) as past:
            await sequence.replay(last + 1)
        await sequence.offer(Entry(last, "repeated", "task_proposal"))
        await sequence.offer(Entry(last + 1, "live", "task_proposal"))
        return head, past.value

    head, past = async_to_sync(scenario)()
    assert head == last and delivered == [first + 1, first + 2, last, last + 1, last + 2]
    assert past.code == "INVALID_FRAME" and past.details["head_seq"] == last


# -- every socket delivers through it -------------------------------------------------------------------


class Receiver:
    """One of the three sockets, opened as its client opens it; ``seqs`` are the messages it received."""

    def __init__(self, kind, world, since=None):
        self.kind, self.world = kind, world
        session = world["session"]
        bearer, cookies = bearer_headers(world["token"]), cookie_headers(None, world["owner"])
        if kind == "chap":
            self.socket = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/chap/", headers=cookies)
        elif kind == "agent":
            self.socket = WebsocketCommunicator(application, "/ws/agents/", headers=bearer)
        else:
            query = "" if since is None else f"?since={since}"
            self.socket = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/ui/{query}", headers=cookies)
        self.since, self.received = since, []

    async def open(self):
        """Connect; a JSON socket asks to resume after ``since`` and is open once it has resumed."""
        connected, code = await self.socket.connect()
        assert connected, code
        if self.kind != "page":
            assert (await self.socket.receive_json_from(timeout=30))["type"] == "hello"
            if self.since is not None:
                await self.socket.send_json_to(
                    {"type": "resume", "session_id": str(self.world["session"].pk), "since_seq": self.since}
                )
                while self._note(await self.socket.receive_from(timeout=30)) != "resumed":
                    pass

    async def seqs(self, count: int) -> list[int]:
        """The sequence numbers of the first ``count`` messages it was sent, and of any that follow at once."""
        while len(self.received) < count:
            self._note(await self.socket.receive_from(timeout=30))
        while not await self.socket.receive_nothing(timeout=0.5):
            self._note(await self.socket.receive_from())
        await self.socket.disconnect()
        return self.received

    def _note(self, text: str) -> str:
        if self.kind == "page":
            self.received += [int(seq) for seq in re.findall(r'<data id="page-seq" value="(\d+)"', text)]
            return "fragment"
        frame = json.loads(text)
        if frame["type"] == "message":
            self.received.append(frame["seq"])
        return frame["type"]


@pytest.mark.parametrize("kind", SOCKETS)
def test_each_socket_fills_a_gap_from_the_log_and_drops_repeated_broadcasts(world, kind, monkeypatch):
    receiver = Receiver(kind, world)
    layer = get_channel_layer()
    group = session_group(world["session"].pk)

    async def scenario():
        await receiver.open()
        stored = await database_sync_to_async(post_unannounced)(world, 3, monkeypatch)
        for seq in (stored[2], stored[0], stored[2]):  # the middle one's broadcast was lost
            await layer.group_send(group, await database_sync_to_async(broadcast)(world, seq))
        return stored, await receiver.seqs(len(stored))

    stored, received = async_to_sync(scenario)()
    assert received == stored


@pytest.mark.parametrize("kind", SOCKETS)
def test_each_socket_resumes_after_a_given_seq_with_what_follows_live(world, kind, monkeypatch):
    head = post_message(world["session"], caller_for_user(world["owner"]), envelopes.proposal).seq
    missed = post_unannounced(world, 2, monkeypatch)
    receiver = Receiver(kind, world, since=head)

    async def scenario():
        await receiver.open()
        live = await database_sync_to_async(post_message)(
            world["session"], caller_for_user(world["owner"]), envelopes.proposal
        )
        await get_channel_layer().group_send(
            session_group(world["session"].pk), await database_sync_to_async(broadcast)(world, missed[1])
        )
        return live.seq, await receiver.seqs(len(missed) + 1)

    live, received = async_to_sync(scenario)()
    assert received == [*missed, live]


# -- the browser page: its socket goes on from the head the page showed ------------------------------------


def page_socket(client, world, page: str) -> WebsocketCommunicator:
    """The socket a page opens, at the address the page gives it (ws-connect)."""
    client.force_login(world["owner"])
    page_html = client.get(reverse(page, args=[world["session"].pk])).content.decode()
    path = html.unescape(re.search(r'ws-connect="([^"]+)"', page_html)[1])
    return WebsocketCommunicator(application, path, headers=cookie_headers(None, world["owner"]))


async def fragments(socket: WebsocketCommunicator, count: int) -> list[str]:
    """The first ``count`` fragments the socket is sent; then it is sent nothing more."""
    received = [await socket.receive_from(timeout=30) for _ in range(count)]
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()
    return received


def test_what_is_committed_between_the_page_and_its_socket_is_delivered_once_in_order(client, world):
    from agents.scheduling.acts import task_create

    owner = caller_for_user(world["owner"])
    socket = page_socket(client, world, "workspace:detail")
    before = [post_message(world["session"], owner, envelopes.proposal) for _ in range(2)]
    task_create(session_id=world["session"].pk, caller=owner, title="Count the stock", agent="clerk")

    async def scenario():
        assert (await socket.connect())[0]
        live = await database_sync_to_async(post_message)(world["session"], owner, envelopes.proposal)
        return live, await fragments(socket, 4)

    live, received = async_to_sync(scenario)()
    in_thread = [int(seq) for text in received for seq in re.findall(r'<article id="msg-(\d+)"', text)]
    assert in_thread == [before[0].seq, before[1].seq, live.seq]  # the task's event is on the map, not in the thread
    page_seqs = [int(re.search(r'<data id="page-seq" value="(\d+)"', text)[1]) for text in received]
    assert page_seqs == list(range(before[0].seq, live.seq + 1))


def test_the_scheduling_page_gets_its_board_for_a_task_created_before_its_socket_joined(client, world):
    from agents.scheduling.acts import task_create

    socket = page_socket(client, world, "workspace:schedule")
    task_create(
        session_id=world["session"].pk, caller=caller_for_user(world["owner"]), title="Count the stock", agent="clerk"
    )

    async def scenario():
        assert (await socket.connect())[0]
        return await fragments(socket, 1)

    [board] = async_to_sync(scenario)()
    assert board.startswith('<div id="schedule-board"') and "Count the stock" in board
