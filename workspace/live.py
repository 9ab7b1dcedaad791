"""What the page socket sends for one new message: rendered from the broadcast event, once per message
for the whole deployment, and sent as it is by every open page.

What a page shows of a message is the same for every viewer but for their role (the forms of those
who decide) and, for a session_event, whether they did what it reports. With one process (the
in-memory layer) the process works out a message's fragment once (``live_context``) and renders its
HTML once per role that watches. With several (the Redis layer) the first process that needs a
message's fragment renders it for every role and both parts in a session_event (``rendered``), and
stores it for a short while in the layer's Redis (``workspace.rendered_once``); the other processes
read it from there: the rendering does not grow with the number of processes. Either way a page
socket's own share is a lookup and a send. The message itself comes from the event (its frame, and
the log's checksum after it): nothing the event carries is read back.

An audit record (operation_record) is not news (``is_news``): it adds to its step's count on the map,
and what waits for people is sent again only when the session's pending approvals changed (it asked
for one, or one was decided and ran).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from typing import Any

from agents.models import Approval, ApprovalStatus
from sessions.access import Caller, SessionId
from sessions.delivery import Entry, db
from sessions.models import MemberRole, Message, WorkSession
from workspace.fragments import board_update, live_context, live_html, viewer_of
from workspace.rendered_once import deployment_once

KEPT = 512  # renders kept per process: the newest messages of the open sessions, each role
SESSIONS_KEPT = 256  # sessions whose pending approvals a process remembers

AUDIT_RECORD = "operation_record"


class Once:
    """Each key's value made once on the sockets' event loop: the first socket to ask starts it, the
    others await the same task. The newest ``size`` keys are kept; one that failed is made again."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self.tasks: OrderedDict[Hashable, asyncio.Task[Any]] = OrderedDict()

    async def get(self, key: Hashable, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        loop = asyncio.get_running_loop()
        task = self.tasks.get(key)
        if task is None or task.get_loop() is not loop or (task.done() and (task.cancelled() or task.exception())):
            task = loop.create_task(make())
            self.tasks[key] = task
            if len(self.tasks) > self.size:
                self.tasks.popitem(last=False)
        else:
            self.tasks.move_to_end(key)
        return await asyncio.shield(task)  # a socket that goes away does not cancel it for the others


_once = Once()
_pending: OrderedDict[str, frozenset[int]] = OrderedDict()
_pending_lock = threading.Lock()


def envelope_of(entry: Entry) -> dict[str, Any]:
    envelope: dict[str, Any] = json.loads(entry.frame)["envelope"]
    return envelope


def is_news(session_id: SessionId, entry: Entry) -> bool:
    """Whether a message changes more than its node's count: anything but an audit record that left
    the session's pending approvals as the last one this process saw found them."""
    if entry.payload_type != AUDIT_RECORD:
        return True
    pending = Approval.objects.filter(session__pk=session_id, status=ApprovalStatus.PENDING)
    now = frozenset(pending.values_list("pk", flat=True))
    with _pending_lock:
        before = _pending.pop(str(session_id), None)
        _pending[str(session_id)] = now
        if len(_pending) > SESSIONS_KEPT:
            _pending.popitem(last=False)
    return before != now


def _checksum(session_id: SessionId, entry: Entry) -> str:
    """The log's checksum after the entry: the event carries it; one sent without it is read."""
    if entry.checksum:
        return entry.checksum
    return Message.objects.values_list("checksum", flat=True).get(session__pk=session_id, seq=entry.seq)


def _context(session_id: SessionId, entry: Entry, news: bool, caller: Caller | None) -> dict[str, Any]:
    return live_context(
        session=WorkSession.objects.get(pk=session_id),
        seq=entry.seq,
        envelope=envelope_of(entry),
        checksum=_checksum(session_id, entry),
        viewer=viewer_of(caller),
        news=news,
    )


def _actor(entry: Entry, caller: Caller) -> str:
    """Who the viewer is, where the fragment differs by it (a session_event: whether they did it)."""
    return f"{caller.kind}:{caller.sender_id}" if entry.payload_type == "session_event" else ""


async def _news(session_id: SessionId, entry: Entry) -> bool:
    if entry.payload_type != AUDIT_RECORD:
        return True
    return bool(await _once.get(("news", str(session_id), entry.seq), lambda: db(is_news)(session_id, entry)))


class Contexts:
    """Each message's ``live_context``, worked out once in whichever worker thread asks first (the
    pages of other roles render from it in one trip to a thread, not two); the newest are kept."""

    def __init__(self, size: int = KEPT) -> None:
        self.size, self.lock = size, threading.Lock()
        self.made: OrderedDict[Hashable, tuple[threading.Lock, list[dict[str, Any]]]] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        with self.lock:
            if key not in self.made:
                self.made[key] = (threading.Lock(), [])
                if len(self.made) > self.size:
                    self.made.popitem(last=False)
            once, kept = self.made[key]
        with once:
            if not kept:
                kept.append(make())
            return kept[0]


_contexts = Contexts()


def _fragment(session_id: SessionId, entry: Entry, news: bool, role: str, caller: Caller) -> str:
    key = (str(session_id), entry.seq, _actor(entry, caller))
    return live_html(_contexts.get(key, lambda: _context(session_id, entry, news, caller)), role)


ROLES = tuple(MemberRole.values)


def _variant(role: str, acted: bool) -> str:
    return f"{role}:{'acted' if acted else 'saw'}"


def rendered(session_id: SessionId, entry: Entry) -> dict[str, Any]:
    """The message's fragment for every role, and for a session_event both for the one who did what it
    reports and for everyone else: ``{"by": who did it or "", "html": {variant: html}}``. Made once for
    the deployment: the context once (twice for a session_event), then each role's HTML."""
    news, envelope = is_news(session_id, entry), envelope_of(entry)
    by = envelope["payload"].get("by") if entry.payload_type == "session_event" else ""
    by = by if isinstance(by, str) else ""
    session, checksum = WorkSession.objects.get(pk=session_id), _checksum(session_id, entry)
    html: dict[str, str] = {}
    for acted, viewer in ((False, ""), (True, by)) if by else ((False, ""),):
        context = live_context(
            session=session, seq=entry.seq, envelope=envelope, checksum=checksum, viewer=viewer, news=news
        )
        html.update({_variant(role, acted): live_html(context, role) for role in ROLES})
    return {"by": by, "html": html}


def boards(session_id: SessionId) -> dict[str, str]:
    """The scheduling board for every role, made once for the deployment as ``rendered`` is."""
    return {role: board_update(session_id, role) for role in ROLES}


async def _shared(key: str, make: Callable[[], Coroutine[Any, Any, dict[str, Any]]]) -> dict[str, Any] | None:
    """The deployment's one value under ``key`` (a rendering of every role); None with one process, or
    when it was too large to share. A session's log is append-only: its seq in ``key`` names one message."""
    store = deployment_once()
    if store is None:
        return None
    found: dict[str, Any] | None = await store.get(key, make)
    return found


async def page_fragment(session_id: SessionId, entry: Entry, role: str, caller: Caller) -> str:
    """The workspace page's out-of-band swaps for ``entry``, for a viewer with ``role``."""
    if role in ROLES:
        shared = await _once.get(
            ("shared", str(session_id), entry.seq),
            lambda: _shared(f"live:{session_id}:{entry.seq}", lambda: db(rendered)(session_id, entry)),
        )
        if shared is not None:
            acted = bool(shared["by"]) and shared["by"] == viewer_of(caller)
            return str(shared["html"][_variant(role, acted)])

    async def html() -> str:
        return await db(_fragment)(session_id, entry, await _news(session_id, entry), role, caller)

    return str(await _once.get(("html", str(session_id), entry.seq, _actor(entry, caller), role), html))


async def board_fragment(session_id: SessionId, entry: Entry, role: str) -> str | None:
    """The scheduling board again after a message that changes it (None after any other)."""
    if not await _news(session_id, entry):
        return None
    if role in ROLES:
        shared = await _once.get(
            ("boards", str(session_id), entry.seq),
            lambda: _shared(f"board:{session_id}:{entry.seq}", lambda: db(boards)(session_id)),
        )
        if shared is not None:
            return str(shared[role])
    key = ("board", str(session_id), entry.seq, role)
    return str(await _once.get(key, lambda: db(board_update)(session_id, role)))
