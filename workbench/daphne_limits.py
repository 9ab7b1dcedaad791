"""Daphne's HTTP request with a body limit, and a body fed to the application as it reads it.

Daphne 4 (Twisted) has no body limit: it reads a whole body (to a temporary file past 100 kB) and
then puts all of it on the application's queue at once, so a 1 GB upload took 1 GB of memory before
Django read a byte. ``BoundedWebRequest`` refuses a body past its limit (under /api/ the upload
limit, elsewhere that and the room a form's other fields take, ``MAX_REQUEST_BODY_BYTES``) as soon as
its ``Content-Length`` says so, before reading it (or, for a chunked body, at the first byte past
it), with the 413 LIMIT_EXCEEDED answer of the REST API, and closes the connection; and it feeds
the body it took from its file a megabyte at a time, as fast as the application takes it.
``install`` makes Daphne's HTTP factory build these requests; the ASGI module calls it, so
``daphne workbench.asgi:application`` and ``runserver`` both serve with it.
"""

from __future__ import annotations

import asyncio
import json
from io import BytesIO
from typing import IO, Any

from daphne import http_protocol

from agents.operations.uploads import CHUNK_BYTES, too_large

IN_FLIGHT_CHUNKS = 4
DRAINED_LIMITS = 4


class _PacedQueue:
    """The application's input queue as Daphne's request sees it: the body chunks Daphne puts (all
    at once) are dropped, and ``feed`` puts the body's chunks instead, a few at a time."""

    def __init__(self, queue: asyncio.Queue[dict[str, Any]], body: IO[bytes]) -> None:
        self.queue, self.body = queue, body
        self.disconnected = False
        self.feeding: asyncio.Future[None] | None = None

    def put_nowait(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.request":
            if not message["more_body"]:  # Daphne is done with its (empty) copy: send the real one
                self.feeding = asyncio.ensure_future(self.feed())
            return
        self.disconnected = self.disconnected or message["type"] == "http.disconnect"
        self.queue.put_nowait(message)

    async def feed(self) -> None:
        try:
            while not self.disconnected:
                chunk = self.body.read(CHUNK_BYTES)
                more = len(chunk) == CHUNK_BYTES
                self.queue.put_nowait({"type": "http.request", "body": chunk, "more_body": more})
                if not more:
                    return
                while self.queue.qsize() >= IN_FLIGHT_CHUNKS and not self.disconnected:
                    await asyncio.sleep(0.001)
        finally:
            self.body.close()


class BoundedWebRequest(http_protocol.WebRequest):  # type: ignore[misc]  # Daphne is untyped
    api_body_limit = page_body_limit = limit = 0
    refused = False
    received = 0

    @property
    def body_limit(self) -> int:
        """The limit for this request's path (Twisted's channel holds it while the head is read)."""
        path = getattr(self.channel, "_path", b"") if self.channel is not None else b""
        return self.api_body_limit if path.startswith(b"/api/") else self.page_body_limit

    def gotLength(self, length: int | None) -> None:
        self.limit = self.body_limit
        if length is not None and length > self.limit:
            self.content = BytesIO()
            self._refuse(length)
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        self.received += len(data)
        if self.refused:
            if self.received > DRAINED_LIMITS * self.limit:
                self.channel.transport.loseConnection()
            return
        if self.received > self.limit:
            self._refuse(None)
            return
        super().handleContentChunk(data)

    def process(self) -> Any:
        if not self.refused:
            return super().process()
        self.channel.transport.loseConnection()  # the refused body has been drained: the answer is sent
        return None

    @property
    def application_queue(self) -> Any:
        return self.__dict__.get("_application_queue")

    @application_queue.setter
    def application_queue(self, queue: Any) -> None:
        """Daphne sets the queue just before it puts the body on it: the body is kept for ``_PacedQueue``
        and Daphne reads an empty one."""
        if isinstance(queue, asyncio.Queue):
            queue = _PacedQueue(queue, self.content)
            self.content = BytesIO()
        self.__dict__["_application_queue"] = queue

    def _refuse(self, length: int | None) -> None:
        """The 413 answer at once, then the connection closed when the body is over. A client that
        waits (``Expect: 100-continue``) has it before sending a byte; one that sends the body anyway
        (a browser) reads it afterwards, so the rest of the body is drained, never kept, up to
        DRAINED_LIMITS times the limit: past that the connection is closed at once."""
        self.refused = True
        self.requestHeaders.removeHeader(b"Expect")  # no "100 Continue" after the answer
        body = json.dumps({"error": too_large(length).as_dict()}).encode()
        head = (
            "HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        self.channel.transport.write(head.encode() + body)
        if length is not None and length > DRAINED_LIMITS * self.limit:
            self.channel.transport.loseConnection()


def install(*, api_body_limit: int, page_body_limit: int) -> None:
    """Make Daphne build ``BoundedWebRequest``s, refusing bodies past these limits (in bytes)."""
    BoundedWebRequest.api_body_limit = api_body_limit
    BoundedWebRequest.page_body_limit = page_body_limit
    http_protocol.WebRequest = BoundedWebRequest
