"""A small CHAP client for external agents and scripts; it depends only on ``websockets``.

    async with ChapClient(["ws://127.0.0.1:8000"], session_id, token=TOKEN) as chap:
        ack = await chap.post(envelope)        # retried across reconnects, never stored twice
        async for seq, envelope in chap.messages():  # every message once, in sequence order
            ...

It reconnects to any of the given servers when a connection drops, resumes from the last
message it delivered, and resends a message whose acknowledgement it did not see: the server
answers a repeated message_id with the original acknowledgement, so retries are safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

RETRY_DELAY_S = 0.2
MAX_FRAME = 2 * 1024 * 1024


class ChapError(Exception):
    """An error frame from the server: ``error`` holds the structured error (code, message, …)."""

    def __init__(self, error: dict):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.error = error


class Refused(Exception):
    """The server refused the connection (close code 4403): bad token, or not a participant."""


class ChapClient:
    def __init__(self, servers: list[str], session_id: str, *, token: str | None = None, headers: dict | None = None):
        self.urls = itertools.cycle([f"{server.rstrip('/')}/ws/sessions/{session_id}/chap/" for server in servers])
        self.headers = dict(headers or {})
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.last_seq: int | None = None
        self.hello: dict | None = None
        self.reconnects = 0
        self._socket = None
        self._reader: asyncio.Task | None = None
        self._pending: dict[str, asyncio.Future] = {}
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._resumed = asyncio.Event()
        self._connected = asyncio.Event()
        self._closing = False
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> ChapClient:
        await self._connect()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        self._closing = True
        if self._reader:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._socket is not None:
            await self._socket.close()

    async def _connect(self, attempts: int = 200) -> None:
        async with self._lock:
            if self._connected.is_set():
                return
            for _ in range(attempts):
                url = next(self.urls)
                try:
                    self._socket = await connect(
                        url, additional_headers=self.headers, max_size=MAX_FRAME, open_timeout=5
                    )
                    hello = json.loads(await self._socket.recv())
                except InvalidStatus as exc:
                    raise Refused(f"{url}: HTTP {exc.response.status_code}") from None
                except ConnectionClosed as exc:
                    if exc.rcvd and exc.rcvd.code == 4403:
                        raise Refused(f"{url}: not allowed") from None
                    await asyncio.sleep(RETRY_DELAY_S)
                    continue
                except (OSError, InvalidHandshake, TimeoutError):
                    await asyncio.sleep(RETRY_DELAY_S)
                    continue
                self.hello = hello
                self._resumed.clear()
                self._reader = asyncio.create_task(self._read(self._socket))
                if self.last_seq is None:
                    self.last_seq = hello["head_seq"]
                    self._resumed.set()
                else:
                    await self._socket.send(json.dumps({"type": "resume", "since_seq": self.last_seq}))
                self._connected.set()
                return
            raise ConnectionError("no CHAP server answered")

    async def _read(self, socket) -> None:
        try:
            async for raw in socket:
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "message":
                    if frame["seq"] == self.last_seq + 1:
                        self.last_seq = frame["seq"]
                        self._inbox.put_nowait((frame["seq"], frame["envelope"]))
                elif kind == "resumed":
                    self._resumed.set()
                elif kind in ("ack", "error"):
                    future = self._pending.pop(frame.get("message_id"), None)
                    if future is not None and not future.done():
                        future.set_result(frame)
                    elif kind == "error" and frame.get("message_id") is None:
                        self._inbox.put_nowait((None, frame))
                else:
                    self._inbox.put_nowait((None, frame))
        except ConnectionClosed:
            pass
        finally:
            self._connected.clear()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection lost"))
            self._pending.clear()

    async def send_frame(self, frame: dict) -> None:
        while True:
            await self._connect()
            try:
                await self._socket.send(json.dumps(frame))
                return
            except ConnectionClosed:
                self._connected.clear()
                self.reconnects += 1

    async def post(self, envelope: dict, *, timeout: float = 30) -> dict:
        """Send one CHAP envelope until it is acknowledged; raises ChapError for a refusal."""
        message_id = envelope["message_id"]
        while True:
            await self._connect()
            await self._resumed.wait()
            future = asyncio.get_running_loop().create_future()
            self._pending[message_id] = future
            try:
                await self._socket.send(json.dumps(envelope))
                frame = await asyncio.wait_for(future, timeout)
            except (ConnectionClosed, ConnectionError, TimeoutError):
                self._pending.pop(message_id, None)
                self._connected.clear()
                self.reconnects += 1
                continue
            if frame["type"] == "error":
                if frame["error"].get("retryable"):
                    await asyncio.sleep(RETRY_DELAY_S)
                    continue
                raise ChapError(frame["error"])
            return frame

    async def ping(self) -> None:
        await self.send_frame({"type": "ping"})

    async def next_message(self, timeout: float | None = None) -> tuple[int | None, dict]:
        """The next delivered message ``(seq, envelope)``, or ``(None, frame)`` for other frames."""
        while True:
            if not self._connected.is_set() and not self._closing:
                await self._connect()
                self.reconnects += 1
            try:
                return await asyncio.wait_for(self._inbox.get(), timeout if timeout is not None else 1.0)
            except TimeoutError:
                if timeout is not None:
                    raise

    async def messages(self):
        while True:
            seq, item = await self.next_message()
            if seq is not None:
                yield seq, item
