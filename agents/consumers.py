"""The socket of an external agent: ``/ws/agents/`` with ``Authorization: Bearer <token>`` (frames:
docs/transport.md, "The agent socket").

One connection carries everything an agent does: the messages of every session it takes part in
(each session in order, exactly once, resumable: sessions.delivery), the tasks offered to it,
taking and finishing them under a lease this connection renews, CHAP posts, and SAP requests that
run with the agent's permissions. It delegates to the same services as every other edge.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any
from uuid import UUID

from channels.db import database_sync_to_async
from django.conf import settings

from agents.api import TaskSerializer
from agents.models import Agent, AgentKind, Task, TaskState
from agents.sap_service import sap_run
from agents.scheduling.leases import Claim, task_claim, task_fail, task_finish, task_renew
from protocol.errors import ProtocolError, internal_error, not_found
from protocol.logs import log_context
from sessions.access import Caller, SessionId, caller_for_agent
from sessions.delivery import Entry, Sequence, SequencedSocket, db
from sessions.events import CHAP_PRESENCE, agent_group, session_group
from sessions.log import message_post
from sessions.models import WorkSession
from sessions.sockets import CLOSE_FORBIDDEN, ChapSocket, error_frame, principal_of, whole_number

LEASE_S = 30.0
# SAP requests one connection runs at once: each runs beside the socket, which goes on answering pings,
# taking tasks and delivering messages; one past this gets LIMIT_EXCEEDED.
MAX_SAP_IN_FLIGHT = 4
# The SAP requests of all of a process's agent sockets run on threads of their own (more wait for one),
# so slow ones cannot take the threads every socket reads the database with (sessions.delivery.db).
SAP_THREADS = 8
_sap_threads = ThreadPoolExecutor(max_workers=SAP_THREADS, thread_name_prefix="chap-sap")
# A frame as the agent sends it, or a group event: JSON objects, whose shapes docs/transport.md gives.
Frame = dict[str, Any]

logger = logging.getLogger(__name__)


def _sessions_of(agent: Agent) -> dict[str, Frame]:
    rows = WorkSession.objects.filter(participants__agent=agent).values_list("pk", "head_seq", "head_checksum")
    return {str(pk): {"head_seq": seq, "context_checksum": checksum} for pk, seq, checksum in rows}


def _offers(agent: Agent, session_id: SessionId | None = None) -> list[Frame]:
    """The agent's queued tasks (of one session); task.take tells which of them is ready to run."""
    queued = Task.objects.filter(agent=agent, state=TaskState.QUEUED, paused=False)
    if session_id is not None:
        queued = queued.filter(session_id=UUID(str(session_id)))
    return [TaskSerializer(task).data for task in queued.select_related("agent").prefetch_related("depends_on")[:100]]


def _sap(session_id: str, caller: Caller, text: str, message_id: str | None, gone: threading.Event) -> str:
    return "".join(
        sap_run(session_id=session_id, caller=caller, text=text, request_message_id=message_id, cancelled=gone)
    )


def _take(agent: Agent, task_id: int | None, worker: str, lease_s: float) -> tuple[Frame, int] | tuple[None, None]:
    task = task_claim(
        worker=worker, kinds=(AgentKind.EXTERNAL,), agent_ids=[agent.pk], task_id=task_id, lease_s=lease_s
    )
    return (TaskSerializer(task).data, task.attempts) if task else (None, None)


class AgentConsumer(SequencedSocket, ChapSocket):
    IGNORED_EVENTS = frozenset({CHAP_PRESENCE})  # no presence on this socket (docs/transport.md)

    async def connect(self) -> None:
        agent = self.scope.get("agent")  # set by agents.auth.BearerAgentMiddleware
        if not isinstance(agent, Agent) or self.scope.get("bad_token"):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.agent = agent
        self.caller = caller_for_agent(self.agent)
        credential_live = self.scope.get("credential_live")
        self.credential_live: Callable[[], object] | None = credential_live if callable(credential_live) else None
        self.worker = f"agent:{self.agent.name}"
        self.claims: dict[int, Claim] = {}
        # SAP requests run beside the frames that follow (answered by ref), so that a close is seen
        # while one runs: each has the event that stops its work when the socket goes.
        self.saps: dict[asyncio.Task[None], threading.Event] = {}
        sessions = await db(_sessions_of)(self.agent)
        await self.channel_layer.group_add(agent_group(self.agent.pk), self.channel_name)
        await self.channel_layer.group_add(principal_of(self.caller), self.channel_name)
        for session_id in sessions:
            await self.channel_layer.group_add(session_group(session_id), self.channel_name)
        await self.accept()
        self.sequences: dict[str, Sequence] = {
            session_id: self.sequence_for(session_id, head["head_seq"]) for session_id, head in sessions.items()
        }
        await self.send_json(
            {
                "type": "hello",
                "agent": self.agent.name,
                "heartbeat_s": settings.CHAP_HEARTBEAT_S,
                "lease_s": LEASE_S,
                "sessions": sessions,
                "tasks": await db(_offers)(self.agent),
            }
        )
        self.start_watching()
        self.renewer = asyncio.create_task(self._renew_leases())

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "sequences"):
            return
        self.watchdog.cancel()
        self.renewer.cancel()
        for running, gone in list(self.saps.items()):  # its work stops; its answer has nobody to read it
            gone.set()
            running.cancel()
        for sequence in self.sequences.values():
            sequence.close()
        await self.channel_layer.group_discard(agent_group(self.agent.pk), self.channel_name)
        await self.channel_layer.group_discard(principal_of(self.caller), self.channel_name)
        for session_id in self.sequences:
            await self.channel_layer.group_discard(session_group(session_id), self.channel_name)

    async def _renew_leases(self) -> None:
        """While the agent is connected its tasks stay its own; when it goes, their leases run out."""
        while True:
            await asyncio.sleep(LEASE_S / 3)
            for task_id, claim in list(self.claims.items()):
                if not await db(task_renew)(claim, lease_s=LEASE_S):
                    self.claims.pop(task_id, None)
                    await self.send_json({"type": "task.lost", "task_id": task_id})

    # -- frames from the agent -------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = await self.read_frame(text_data, bytes_data)
        if frame is None:
            return
        kind = frame.get("type")
        handlers = {
            "ping": self._pong,
            "resume": self._resume,
            "sap": self._start_sap,
            "task.take": self._take,
            "task.done": self._done,
            "task.fail": self._fail,
        }
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if kind is None and "payload_type" in frame:
            await self._post(frame)
        elif handler is not None:
            await self._answer(handler, frame, str(kind))
        else:
            await self._refuse(
                "INVALID_FRAME",
                f"unknown frame type {kind!r}",
                details={"known": ["ping", "resume", "sap", "task.take", "task.done", "task.fail", "a CHAP envelope"]},
            )

    async def _answer(self, handler: Callable[[Frame], Awaitable[None]], frame: Frame, kind: str) -> None:
        """Run a frame's handler; its refusal or failure is answered under the frame's ref."""
        task_id = frame.get("task_id")  # what a task frame logs, its traceback too, carries its task's id
        with log_context(task=task_id if isinstance(task_id, int) else None):
            try:
                await handler(frame)
            except ProtocolError as error:
                await self.send_json({**error_frame(error), "ref": frame.get("ref")})
            except Exception:
                failure = internal_error(logger, f"agent socket frame {kind!r}")
                await self.send_json({**error_frame(failure), "ref": frame.get("ref")})

    def _session_of(self, frame: Frame) -> str:
        session_id = str(frame.get("session_id", ""))
        if session_id not in self.sequences:
            raise not_found(
                "SESSION", session_id, "this agent takes part in no such session", sessions=sorted(self.sequences)
            )
        return session_id

    async def _post(self, envelope: Frame) -> None:
        message_id = envelope.get("message_id")
        try:
            ack = await db(message_post)(session_id=self._session_of(envelope), caller=self.caller, envelope=envelope)
        except ProtocolError as error:
            await self.send_json(error_frame(error, message_id))
            return
        await self.send_json({**ack.as_frame(), "session_id": envelope["session_id"]})

    async def _pong(self, frame: Frame) -> None:
        for task_id, claim in list(self.claims.items()):
            if not await db(task_renew)(claim, lease_s=LEASE_S):
                self.claims.pop(task_id, None)
        heads = await db(_sessions_of)(self.agent)
        for session_id, sequence in self.sequences.items():  # nothing the log holds stays missing
            if session_id in heads:
                await sequence.catch_up(heads[session_id]["head_seq"])
        await self.send_json(
            {"type": "pong", "ref": frame.get("ref"), "sessions": heads, "tasks_held": sorted(self.claims)}
        )

    async def _resume(self, frame: Frame) -> None:
        sequence = self.sequences[self._session_of(frame)]
        head_seq = await sequence.replay(whole_number(frame, "since_seq"))
        await self.send_json({"type": "resumed", "session_id": sequence.session_id, "head_seq": head_seq})

    async def _start_sap(self, frame: Frame) -> None:
        """Run a SAP request beside the socket, as the CHAP socket runs its posts: it may take up to
        CHAP_SAP_MAX_SECONDS, and meanwhile pings are answered, tasks taken and messages delivered. Its
        ``sap.result`` (or error) carries the request's ``ref``; the socket's close stops its work."""
        if len(self.saps) >= MAX_SAP_IN_FLIGHT:
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"{MAX_SAP_IN_FLIGHT} SAP requests are running on this connection already",
                details={"budget": "requests at once", "limit": MAX_SAP_IN_FLIGHT},
                suggestion=["wait for a sap.result, then send the request again"],
            )
        gone = threading.Event()
        task = asyncio.create_task(self._answer(partial(self._sap, gone=gone), frame, "sap"))
        self.saps[task] = gone
        task.add_done_callback(self.saps.pop)

    async def _sap(self, frame: Frame, *, gone: threading.Event) -> None:
        session_id = self._session_of(frame)
        text = frame.get("text")
        if not isinstance(text, str):
            raise ProtocolError(
                "INVALID_FRAME", "sap needs text, the SAP blocks", details={"invalid": {"text": "expected string"}}
            )
        message_id = frame.get("message_id") if isinstance(frame.get("message_id"), str) else None
        run = database_sync_to_async(_sap, thread_sensitive=False, executor=_sap_threads)
        response = await run(session_id, self.caller, text, message_id, gone)
        if gone.is_set():  # the socket closed while it ran: nobody to answer
            return
        await self.send_json(
            {"type": "sap.result", "ref": frame.get("ref"), "session_id": session_id, "text": response}
        )

    async def _take(self, frame: Frame) -> None:
        task, attempt = await db(_take)(
            self.agent, whole_number(frame, "task_id", required=False), self.worker, LEASE_S
        )
        if task is None or attempt is None:
            await self.send_json({"type": "task.none", "ref": frame.get("ref")})
            return
        self.claims[task["id"]] = Claim(task["id"], attempt, self.worker)
        await self.send_json({"type": "task.taken", "ref": frame.get("ref"), "task": task, "attempt": attempt})

    def _claim(self, frame: Frame) -> Claim:
        return Claim(whole_number(frame, "task_id"), whole_number(frame, "attempt"), self.worker)

    async def _done(self, frame: Frame) -> None:
        claim = self._claim(frame)
        result = frame.get("result_message_id")
        resources = frame.get("resources")
        finished = await db(task_finish)(
            claim,
            result_message_id=result[:128] if isinstance(result, str) else "",
            resources=resources if isinstance(resources, dict) else {},
        )
        await self._settled(frame, claim, finished, "task.finished")

    async def _fail(self, frame: Frame) -> None:
        claim = self._claim(frame)
        error = str(frame.get("error") or "the agent gave up")
        failed = await db(task_fail)(claim, error=error, retry=frame.get("retry") is not False)
        await self._settled(frame, claim, failed, "task.failed")

    async def _settled(self, frame: Frame, claim: Claim, ok: bool, reply: str) -> None:
        self.claims.pop(claim.task_id, None)
        if not ok:
            raise ProtocolError(
                "INVALID_STATE",
                f"task {claim.task_id} attempt {claim.attempt} is not held by this agent any more",
                details={"task_id": claim.task_id, "attempt": claim.attempt},
                suggestion=["take a task again with task.take"],
            )
        await self.send_json({"type": reply, "ref": frame.get("ref"), "task_id": claim.task_id})

    # -- group events ----------------------------------------------------------------------------

    def sequence_of(self, event: Frame) -> Sequence | None:
        session_id = event.get("session_id")
        return self.sequences.get(session_id) if isinstance(session_id, str) else None

    async def deliver(self, session_id: SessionId, entry: Entry) -> None:
        await self.send(text_data=entry.frame)
        if entry.payload_type == "task_event":
            await self._offer_tasks_of(session_id)

    async def _offer_tasks_of(self, session_id: SessionId) -> None:
        for task in await db(_offers)(self.agent, session_id):
            await self.send_json({"type": "task.offer", "task": task})

    async def agent_joined(self, event: Frame) -> None:
        session_id = event["session_id"]
        if session_id in self.sequences:
            return
        await self.channel_layer.group_add(session_group(session_id), self.channel_name)
        heads = await db(_sessions_of)(self.agent)
        self.sequences[session_id] = self.sequence_for(session_id, heads.get(session_id, {}).get("head_seq", 0))
        await self.send_json({"type": "session.joined", "session_id": session_id, **heads.get(session_id, {})})

    async def access_changed(self, event: Frame) -> None:
        """A revoked token or a disabled agent: closed at once. Taken out of a session: that session's
        messages stop, and the agent is told."""
        if self.credential_live is not None and not await db(self.credential_live)():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        still = await db(_sessions_of)(self.agent)
        for session_id in [session_id for session_id in self.sequences if session_id not in still]:
            await self.channel_layer.group_discard(session_group(session_id), self.channel_name)
            self.sequences.pop(session_id).close()
            await self.send_json({"type": "session.left", "session_id": session_id})
