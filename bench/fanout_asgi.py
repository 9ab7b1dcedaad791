"""The workbench's ASGI application plus the baselines of the socket benchmarks (bench/ws_fanout.py,
bench/workspace_sockets.py), on the same server, channel layer and event loop as the real sockets.

- a bare group-broadcast consumer: it relays each frame to a Channels group and does nothing else
  (``?group=NAME``: a group of its own, one per session in bench/live_scale.py);
- a page socket that renders the old way: each page reads the message back and renders all of it
  for itself (the workspace socket renders from the event, once per message and role);
- ``/bench/queries/``: how many queries the page sockets of this process have run so far (a query
  counts when page-socket code is on its stack, so the posts themselves are left out); counted only
  when BENCH_PAGE_QUERIES=1, so the fan-out benchmark pays nothing for it.
"""

import itertools
import os
import sys
import threading
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.db.backends.utils import CursorWrapper
from django.urls import path

from workbench.asgi import application as workbench_application

BARE_GROUP = "bench.bare"
PAGE_CODE = ("/workspace/live.py", "/workspace/consumers.py", "/workspace/fragments.py", "/bench/fanout_asgi.py")


class BareBroadcastConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        named = parse_qs(self.scope.get("query_string", b"").decode()).get("group", [""])[-1]
        self.group = f"{BARE_GROUP}.{named}" if named.isalnum() else BARE_GROUP
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "bare.frame", "text": text_data})

    async def bare_frame(self, event):
        await self.send(text_data=event["text"])


class _PageQueries:
    """Counts the queries run with page-socket code on the stack, in any thread."""

    def __init__(self) -> None:
        self.count, self.lock = itertools.count(), threading.Lock()
        self.ran = 0

    def install(self) -> None:
        execute = CursorWrapper._execute

        def counted(cursor, *args, **kwargs):
            frame = sys._getframe(1)
            while frame is not None:
                if frame.f_code.co_filename.endswith(PAGE_CODE):
                    with self.lock:
                        self.ran = next(self.count) + 1
                    break
                frame = frame.f_back
            return execute(cursor, *args, **kwargs)

        CursorWrapper._execute = counted


page_queries = _PageQueries()
if os.environ.get("BENCH_PAGE_QUERIES") == "1":
    page_queries.install()


def _per_viewer_page():
    """The workspace socket as it rendered before issue 29: per page, from the database."""
    from sessions.delivery import db
    from sessions.models import Message, WorkSession
    from workspace.consumers import WorkspaceConsumer
    from workspace.fragments import live_update

    def render_alone(session_id, seq: int, role: str, caller) -> str:
        envelope, checksum = Message.objects.values_list("envelope", "checksum").get(session_id=session_id, seq=seq)
        session = WorkSession.objects.get(pk=session_id)
        return live_update(session=session, seq=seq, envelope=envelope, checksum=checksum, role=role, caller=caller)

    class PerViewerPage(WorkspaceConsumer):
        async def deliver(self, session_id, entry) -> None:
            await self.send(text_data=await db(render_alone)(self.session_id, entry.seq, self.role, self.caller))

    return PerViewerPage


_bare = BareBroadcastConsumer.as_asgi()
_per_viewer = AuthMiddlewareStack(
    URLRouter([path("ws/bench/per-viewer/<uuid:session_id>/", _per_viewer_page().as_asgi())])
)


async def _queries(send) -> None:
    body = str(page_queries.ran).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": body})


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"] == "/ws/bench/bare/":
        return await _bare(scope, receive, send)
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/bench/per-viewer/"):
        return await _per_viewer(scope, receive, send)
    if scope["type"] == "http" and scope["path"] == "/bench/queries/":
        return await _queries(send)
    return await workbench_application(scope, receive, send)


def _profile_to(path: str) -> None:
    """BENCH_PROFILE=PATH: cProfile of the server's event loop thread, written to PATH every 5 s."""
    import cProfile
    import time

    profile = cProfile.Profile()
    profile.enable()

    def dump() -> None:
        while True:
            time.sleep(5)
            profile.dump_stats(path)

    threading.Thread(target=dump, daemon=True).start()


if os.environ.get("BENCH_PROFILE"):
    _profile_to(os.environ["BENCH_PROFILE"])
