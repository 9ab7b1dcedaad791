"""What an agent's behaviour may do while it holds a task, and the worker that runs behaviours.

A behaviour is ``behaviour(run: TaskRun) -> str | None`` (the id of its result message). It works
only through the same services as everyone else: SAP with its agent's permissions, messages
through ``message_post``. Every message it posts has an id made of the task and a key of the
behaviour's choosing, so when a task runs again after its worker died, what the first attempt
already posted is recognised and not posted twice. Status reports are keyed by attempt as well:
each attempt reports its own progress.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections
from django.utils.module_loading import import_string

from agents.models import Agent, AgentKind, Task
from agents.sap import Block, SapError, parse
from agents.sap_service import sap_run
from agents.scheduling import DEFAULT_LEASE_S, Claim, task_claim, task_fail, task_finish, task_renew
from sessions.access import caller_for_agent
from sessions.models import Message, WorkSession
from sessions.selectors import agent_context
from sessions.services import message_post_at_head

logger = logging.getLogger(__name__)


class LeaseLost(Exception):
    """The task is no longer this worker's: its lease ran out, or a human reassigned or cancelled it."""


class TaskFailure(Exception):
    """A behaviour gives up: ``error`` is posted to the session, and the task is tried again only
    when the error is retryable (a timeout, say) and attempts remain."""

    def __init__(self, error: SapError):
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


class TaskRun:
    def __init__(self, task: Task, claim: Claim):
        self.task, self.claim, self.agent = task, claim, task.agent
        self.caller = caller_for_agent(task.agent)
        self.lost = threading.Event()
        self.started = time.monotonic()
        self.sap_operations = 0
        self.llm_tokens = 0
        self._statuses = 0

    def check(self) -> None:
        if self.lost.is_set():
            raise LeaseLost(f"task {self.task.pk} attempt {self.claim.attempt}")

    def message(self, message_id: str | None) -> dict | None:
        """The envelope of a message of this task's session, or None."""
        if not message_id:
            return None
        return (
            Message.objects.filter(session_id=self.task.session_id, message_id=message_id)
            .values_list("envelope", flat=True)
            .first()
        )

    def own_messages(self, payload_type: str) -> list[dict]:
        """The envelopes this agent posted earlier in this session, of one type, oldest first."""
        rows = Message.objects.filter(
            session_id=self.task.session_id, sender_type="agent", sender_id=self.agent.name, payload_type=payload_type
        )
        return list(rows.order_by("seq").values_list("envelope", flat=True))

    def message_id(self, key: str) -> str:
        return f"task{self.task.pk}-{key}"

    def post(self, key: str, payload_type: str, payload: dict, *, in_reply_to: str | None = None) -> str:
        """Post once per task and key; returns the message id, whether posted now or by an earlier attempt."""
        self.check()
        message_id = self.message_id(key)
        if Message.objects.filter(session_id=self.task.session_id, message_id=message_id).exists():
            return message_id
        try:
            message_post_at_head(
                session_id=self.task.session_id,
                caller=self.caller,
                payload_type=payload_type,
                payload=payload,
                in_reply_to=in_reply_to,
                message_id=message_id,
            )
        except SapError as error:
            if error.code != "DUPLICATE_MESSAGE_ID":  # a concurrent attempt posted it a moment ago
                raise
        return message_id

    def status(
        self,
        activity: str,
        *,
        state: str = "working",
        done: int | None = None,
        total: int | None = None,
        limits: dict | None = None,
    ):
        """An agent_status message; ``limits`` are the bounds the resources count against."""
        self._statuses += 1
        payload = {
            "activity": activity,
            "state": state,
            "task_id": str(self.task.pk),
            "resources_used": {**self.resources(), **({"limits": limits} if limits else {})},
        }
        if done is not None:
            payload["progress"] = {"done": done, **({"total": total} if total is not None else {})}
        return self.post(f"a{self.claim.attempt}-status{self._statuses}", "agent_status", payload)

    def sap(self, text: str) -> list[Block]:
        """Run SAP blocks with the agent's permissions; the response blocks, in order."""
        self.check()
        responses = parse("".join(sap_run(session_id=self.task.session_id, caller=self.caller, text=text)))
        self.sap_operations += sum(1 for block in responses if isinstance(block, Block))
        return [block for block in responses if isinstance(block, Block)]

    def context(self, budget: int = 4000) -> dict:
        session = WorkSession.objects.get(pk=self.task.session_id)
        return agent_context(session=session, task_message_id=self.task.source_message_id or None, budget=budget)

    def resources(self) -> dict:
        return {
            "wall_s": round(time.monotonic() - self.started, 3),
            "sap_operations": self.sap_operations,
            "llm_tokens": self.llm_tokens,
        }


def behaviour_for(agent: Agent):
    """LLM agents run the LLM loop; built-in ones the behaviour they name (or their name), from
    agents/behaviours.py or settings.CHAP_BEHAVIOURS."""
    from agents.behaviours import BEHAVIOURS

    if agent.kind == AgentKind.LLM:
        from agents.llm import llm_behaviour

        return llm_behaviour
    name = agent.behaviour or agent.name
    if name in BEHAVIOURS:
        return BEHAVIOURS[name]
    if name in settings.CHAP_BEHAVIOURS:
        return import_string(settings.CHAP_BEHAVIOURS[name])
    return None


def default_worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Worker:
    """Takes ready tasks of built-in and LLM agents one at a time and runs them, renewing the lease meanwhile."""

    def __init__(
        self, name: str | None = None, *, lease_s: float = DEFAULT_LEASE_S, agent_ids: list[int] | None = None
    ):
        self.name = name or default_worker_name()
        self.lease_s = lease_s
        self.agent_ids = agent_ids

    def run_once(self) -> bool:
        """Run one task if one is ready; False when there was none."""
        task = task_claim(
            worker=self.name, kinds=(AgentKind.BUILTIN, AgentKind.LLM), agent_ids=self.agent_ids, lease_s=self.lease_s
        )
        if task is None:
            return False
        self.run(task)
        return True

    def run(self, task: Task) -> None:
        claim = Claim(task.pk, task.attempts, self.name)
        run = TaskRun(task, claim)
        stop = threading.Event()
        renewer = threading.Thread(target=self._renew, args=(claim, run, stop), daemon=True, name=f"lease-{task.pk}")
        renewer.start()
        try:
            behaviour = behaviour_for(task.agent)
            if behaviour is None:
                task_fail(
                    claim,
                    error=f"no built-in behaviour called {task.agent.behaviour or task.agent.name!r}",
                    retry=False,
                )
                return
            run.status(f"working on: {task.title}", done=0, total=1)
            result = behaviour(run)
            run.status(f"finished: {task.title}", state="idle", done=1, total=1)
            if not task_finish(claim, result_message_id=result or "", resources=run.resources()):
                logger.warning(
                    "task %s finished after its lease was lost; the result stays, the state does not", task.pk
                )
        except LeaseLost:
            logger.warning("worker %s lost task %s (attempt %s)", self.name, task.pk, claim.attempt)
        except TaskFailure as failure:
            error = failure.error
            report = {"code": error.code, "message": error.message, "details": error.details}
            run.post(f"a{claim.attempt}-error", "error", report)
            task_fail(claim, error=str(failure), resources=run.resources(), retry=bool(error.retryable))
        except SapError as error:
            task_fail(claim, error=f"{error.code}: {error.message}", resources=run.resources())
        except Exception as error:
            logger.exception("task %s failed in worker %s", task.pk, self.name)
            task_fail(claim, error=f"{type(error).__name__}: {error}", resources=run.resources())
        finally:
            stop.set()
            renewer.join()

    def _renew(self, claim: Claim, run: TaskRun, stop: threading.Event) -> None:
        try:
            while not stop.wait(self.lease_s / 3):
                try:
                    held = task_renew(claim, lease_s=self.lease_s)
                except DatabaseError:
                    logger.warning("could not renew the lease of task %s; trying again", claim.task_id)
                    continue
                if not held:
                    run.lost.set()
                    return
        finally:
            connections.close_all()

    def run_forever(self, stop: threading.Event, *, poll_s: float = 1.0) -> None:
        while not stop.is_set():
            close_old_connections()
            try:
                busy = self.run_once()
            except DatabaseError:
                logger.exception("worker %s could not reach the database", self.name)
                busy = False
            if not busy:
                stop.wait(poll_s)


def start_in_background(*, poll_s: float = 1.0) -> threading.Event:
    """Run a worker in a daemon thread of this process (the embedded default); set the event to stop it."""
    stop = threading.Event()
    worker = Worker(f"{default_worker_name()}:in-process")
    threading.Thread(target=worker.run_forever, args=(stop,), kwargs={"poll_s": poll_s}, daemon=True).start()
    return stop
