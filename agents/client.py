"""Small CHAP clients for external agents and scripts; they depend only on ``websockets``.

    async with ChapClient(["ws://127.0.0.1:8000"], session_id, token=TOKEN) as chap:
        ack = await chap.post(envelope)        # retried across reconnects, never stored twice
        async for seq, envelope in chap.messages():  # every message once, in sequence order
            ...

    async with AgentClient(["ws://127.0.0.1:8000"], token=TOKEN) as agent:
        task, attempt = await agent.take()      # the next ready task assigned to this agent, or (None, None)
        text = await agent.sap(task["session_id"], "@@query:file.list#1\\n{}\\n@@end\\n")
        await agent.post(envelope)
        await agent.finish(task["id"], attempt, result_message_id=envelope["message_id"])

Both reconnect to any of the given servers when a connection drops, resume from the last message
they delivered, and resend a message whose acknowledgement they did not see: the server answers a
repeated message_id with the original acknowledgement, so retries are safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any, Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

RETRY_DELAY_S = 0.2
MAX_FRAME = 2 * 1024 * 1024
# A JSON frame or CHAP envelope as the server sends it: the wire edge, where the shapes are docs/transport.md's.
Frame = dict[str, Any]


class ChapError(Exception):
    """An error frame from the server: ``error`` holds the structured error (code, message, …)."""

    def __init__(self, error: Frame) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.error = error


class Refused(Exception):
    """The server refused the connection (close code 4403): bad token, or not a participant."""


async def _open(url: str, headers: dict[str, str]) -> tuple[ClientConnection, Frame] | None:
    """``(socket, hello)``, None when the server is not reachable now; Refused when it says no."""
    try:
        socket = await connect(url, additional_headers=headers, max_size=MAX_FRAME, open_timeout=5)
        return socket, json.loads(await socket.recv())
    except InvalidStatus as exc:
        raise Refused(f"{url}: HTTP {exc.response.status_code}") from None
    except ConnectionClosed as exc:
        if exc.rcvd and exc.rcvd.code == 4403:
            raise Refused(f"{url}: not allowed") from None
        return None
    except (OSError, InvalidHandshake, TimeoutError):
        return None


class _Connection:
    """Connecting, reconnecting, reading and answering requests; subclasses say what frames mean."""

    def __init__(self, urls: list[str], *, token: str | None = None, headers: dict[str, str] | None = None):
        self.urls = itertools.cycle(urls)
        self.headers = dict(headers or {})
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self._hello: Frame | None = None
        self.reconnects = 0
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[Frame]] = {}
        self._inbox: asyncio.Queue[tuple[int | None, Frame]] = asyncio.Queue()
        self._resumed = asyncio.Event()
        self._connected = asyncio.Event()
        self._closing = False
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> Self:
        await self._connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
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
                opened = await _open(next(self.urls), self.headers)
                if opened is None:
                    await asyncio.sleep(RETRY_DELAY_S)
                    continue
                self._socket, self._hello = opened
                self._resumed.clear()
                self._reader = asyncio.create_task(self._read(self._socket))
                await self._on_hello(self._hello)
                self._connected.set()
                return
            raise ConnectionError("no CHAP server answered")

    @property
    def hello(self) -> Frame:
        """The server's hello on the current connection (``async with`` opens it)."""
        assert self._hello is not None, "the hello comes with the connection: open the client first"
        return self._hello

    def _open_socket(self) -> ClientConnection:
        """The socket ``_connect`` opened; everything that sends runs after it."""
        assert self._socket is not None, "_connect opens the socket before anything is sent"
        return self._socket

    async def _on_hello(self, hello: Frame) -> None:
        raise NotImplementedError

    def _on_frame(self, frame: Frame) -> None:
        raise NotImplementedError

    def _answer(self, key: str | None, frame: Frame) -> bool:
        """Hand ``frame`` to whoever waits for ``key``; False when nobody does."""
        future = self._pending.pop(key, None) if key is not None else None
        if future is None or future.done():
            return False
        future.set_result(frame)
        return True

    async def _read(self, socket: ClientConnection) -> None:
        try:
            async for raw in socket:
                self._on_frame(json.loads(raw))
        except ConnectionClosed:
            pass
        finally:
            self._connected.clear()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection lost"))
            self._pending.clear()

    async def send_frame(self, frame: Frame) -> None:
        while True:
            await self._connect()
            try:
                await self._open_socket().send(json.dumps(frame))
                return
            except ConnectionClosed:
                self._connected.clear()
                self.reconnects += 1

    async def _exchange(self, key: str, frame: Frame, *, timeout: float, retry: bool) -> Frame:
        """Send ``frame`` and wait for the answer keyed ``key``; across reconnects only if ``retry``."""
        while True:
            await self._connect()
            await self._resumed.wait()
            future = asyncio.get_running_loop().create_future()
            self._pending[key] = future
            try:
                await self._open_socket().send(json.dumps(frame))
                answer = await asyncio.wait_for(future, timeout)
            except (ConnectionClosed, ConnectionError, TimeoutError):
                self._pending.pop(key, None)
                self._connected.clear()
                self.reconnects += 1
                if retry:
                    continue
                raise ConnectionError("the connection dropped before the answer came") from None
            if answer["type"] == "error":
                if retry and answer["error"].get("retryable"):
                    await asyncio.sleep(RETRY_DELAY_S)
                    continue
                raise ChapError(answer["error"])
            frame_answer: Frame = answer
            return frame_answer

    async def post(self, envelope: Frame, *, timeout: float = 30) -> Frame:
        """Send one CHAP envelope until it is acknowledged; raises ChapError for a refusal."""
        return await self._exchange(envelope["message_id"], envelope, timeout=timeout, retry=True)

    async def ping(self) -> None:
        await self.send_frame({"type": "ping"})

    async def next_message(self, timeout: float | None = None) -> tuple[int | None, Frame]:
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

    async def messages(self) -> AsyncIterator[tuple[int, Frame]]:
        while True:
            seq, item = await self.next_message()
            if seq is not None:
                yield seq, item


class ChapClient(_Connection):
    """One session's socket, ``/ws/sessions/<id>/chap/``."""

    def __init__(
        self, servers: list[str], session_id: str, *, token: str | None = None, headers: dict[str, str] | None = None
    ):
        urls = [f"{server.rstrip('/')}/ws/sessions/{session_id}/chap/" for server in servers]
        super().__init__(urls, token=token, headers=headers)
        self.last_seq: int | None = None

    async def _on_hello(self, hello: Frame) -> None:
        if self.last_seq is None:
            self.last_seq = hello["head_seq"]
            self._resumed.set()
        else:
            await self._open_socket().send(json.dumps({"type": "resume", "since_seq": self.last_seq}))

    def _on_frame(self, frame: Frame) -> None:
        kind = frame.get("type")
        if kind == "message":
            if self.last_seq is not None and frame["seq"] == self.last_seq + 1:
                self.last_seq = frame["seq"]
                self._inbox.put_nowait((frame["seq"], frame["envelope"]))
        elif kind == "resumed":
            self._resumed.set()
        elif kind in ("ack", "error"):
            if not self._answer(frame.get("message_id"), frame) and kind == "error" and frame.get("message_id") is None:
                self._inbox.put_nowait((None, frame))
        else:
            self._inbox.put_nowait((None, frame))


class AgentClient(_Connection):
    """An agent's socket, ``/ws/agents/``: every session it takes part in, its tasks, SAP."""

    def __init__(self, servers: list[str], *, token: str, headers: dict[str, str] | None = None):
        super().__init__([f"{server.rstrip('/')}/ws/agents/" for server in servers], token=token, headers=headers)
        self.last_seq: dict[str, int] = {}
        self._refs = itertools.count(1)
        self._resuming: set[str] = set()

    async def _on_hello(self, hello: Frame) -> None:
        for session_id, head in hello["sessions"].items():
            self.last_seq.setdefault(session_id, head["head_seq"])
        for task in hello.get("tasks", []):
            self._inbox.put_nowait((None, {"type": "task.offer", "task": task}))
        self._resuming = {s for s in self.last_seq if s in hello["sessions"]}
        for session_id in self._resuming:
            await self._open_socket().send(
                json.dumps({"type": "resume", "session_id": session_id, "since_seq": self.last_seq[session_id]})
            )
        if not self._resuming:
            self._resumed.set()

    def _on_frame(self, frame: Frame) -> None:
        kind = frame.get("type")
        if kind == "message":
            session_id, seq = frame["envelope"]["session_id"], frame["seq"]
            if seq == self.last_seq.get(session_id, -1) + 1:
                self.last_seq[session_id] = seq
                self._inbox.put_nowait((seq, frame["envelope"]))
        elif kind == "resumed":
            self._resuming.discard(frame["session_id"])
            if not self._resuming:
                self._resumed.set()
        elif kind == "session.joined":
            self.last_seq.setdefault(frame["session_id"], frame.get("head_seq", 0))
            self._inbox.put_nowait((None, frame))
        elif kind == "session.left":  # not resumed after a reconnect; joined again, it starts at the head
            self.last_seq.pop(frame["session_id"], None)
            self._inbox.put_nowait((None, frame))
        elif not (self._answer(frame.get("ref"), frame) or self._answer(frame.get("message_id"), frame)):
            self._inbox.put_nowait((None, frame))

    async def _request(self, frame: Frame, *, timeout: float = 60, retry: bool = False) -> Frame:
        ref = f"r{next(self._refs)}"
        return await self._exchange(ref, {**frame, "ref": ref}, timeout=timeout, retry=retry)

    async def heads(self) -> dict[str, Frame]:
        """Each session's ``head_seq`` and ``context_checksum``, for writing the next message."""
        heads: dict[str, Frame] = (await self._request({"type": "ping"}, retry=True))["sessions"]
        return heads

    async def sap(self, session_id: str, text: str, *, message_id: str | None = None) -> str:
        """Run SAP blocks with this agent's permissions; the response blocks as SAP text. Not resent
        after a dropped connection (an action may have run): ConnectionError says so."""
        frame = {"type": "sap", "session_id": session_id, "text": text, "message_id": message_id}
        answer: str = (await self._request(frame, timeout=300))["text"]
        return answer

    async def take(self, task_id: int | None = None) -> tuple[Frame | None, int | None]:
        answer = await self._request({"type": "task.take", "task_id": task_id}, retry=True)
        return (answer["task"], answer["attempt"]) if answer["type"] == "task.taken" else (None, None)

    async def finish(
        self, task_id: int, attempt: int, *, result_message_id: str = "", resources: Frame | None = None
    ) -> None:
        frame = {"type": "task.done", "task_id": task_id, "attempt": attempt, "result_message_id": result_message_id}
        await self._request({**frame, "resources": resources or {}}, retry=True)

    async def fail(self, task_id: int, attempt: int, *, error: str, retry: bool = True) -> None:
        await self._request(
            {"type": "task.fail", "task_id": task_id, "attempt": attempt, "error": error, "retry": retry}
        )
