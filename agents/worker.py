"""The worker that takes ready tasks of built-in and LLM agents and runs their behaviours.

Which function runs a task is the registry's answer (agents/behaviours/registry.py); what the
function may do while it holds the task is agents/runtime.py's ``TaskRun``.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from django.db import DatabaseError, close_old_connections, connections

from agents.behaviours.registry import behaviour_for
from agents.failures import UNEXPECTED, Failure
from agents.models import AgentKind, Task
from agents.reactions import news, reactions_run
from agents.runtime import LeaseLost, TaskFailure, TaskRun
from agents.scheduling.leases import DEFAULT_LEASE_S, Claim, task_claim, task_fail, task_finish, task_renew
from protocol.errors import ProtocolError
from protocol.logs import log_context

logger = logging.getLogger(__name__)


def failure_of(error: Exception) -> Failure:
    """Why an attempt failed, from what its behaviour raised: a structured error says it in words and
    whether trying again may help; a database or storage error may pass; anything else is a fault
    in the agent's code, which would fail again the same way."""
    if isinstance(error, TaskFailure):
        error = error.error
    if isinstance(error, ProtocolError):
        return Failure(error.code, error.message, str(error), bool(error.retryable))
    technical = f"{type(error).__name__}: {error}"
    if isinstance(error, DatabaseError | OSError):
        return Failure("INTERNAL_ERROR", "the workbench could not reach its database or files", technical, True)
    return Failure("INTERNAL_ERROR", UNEXPECTED, technical, retryable=False, fault_of_agent=True)


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
        """React to the messages posted since (the tasks they call for), then run one task if one is
        ready; False when there was nothing to do."""
        reacted = reactions_run()
        task = task_claim(
            worker=self.name, kinds=(AgentKind.BUILTIN, AgentKind.LLM), agent_ids=self.agent_ids, lease_s=self.lease_s
        )
        if task is None:
            return reacted
        self.run(task)
        return True

    def run(self, task: Task) -> None:
        """Run one claimed task; the log lines written meanwhile, the lease renewer's too, carry its id."""
        with log_context(task=task.pk):
            claim = Claim(task.pk, task.attempts, self.name)
            run = TaskRun(task, claim)
            stop = threading.Event()
            renewer = threading.Thread(
                target=self._renew, args=(claim, run, stop), daemon=True, name=f"lease-{task.pk}"
            )
            renewer.start()
            try:
                agent = task.agent
                assert agent is not None, "a task is claimed only with an agent (scheduling.leases._ready)"
                behaviour = behaviour_for(agent)
                if behaviour is None:
                    name = agent.behaviour or agent.name
                    why = f"the workbench has no built-in behaviour called {name!r}"
                    failure = Failure("RESOURCE_NOT_FOUND", why, fault_of_agent=True, needs_another_agent=True)
                    task_fail(claim, error=failure.as_error(), retry=False, failure=failure)
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
            except Exception as error:
                failure = failure_of(error)
                if failure.fault_of_agent:
                    logger.exception("task %s failed in worker %s", task.pk, self.name)
                task_fail(
                    claim, error=failure.as_error(), resources=run.resources(), retry=failure.retryable, failure=failure
                )
            finally:
                stop.set()
                renewer.join()

    def _renew(self, claim: Claim, run: TaskRun, stop: threading.Event) -> None:
        """Renew the lease until the run stops; a thread does not inherit the run's log context, so it sets its own."""
        with log_context(task=claim.task_id):
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
            news.clear()  # news from now on wakes the idle wait below
            try:
                busy = self.run_once()
            except DatabaseError:
                logger.exception("worker %s could not reach the database", self.name)
                busy = False
            if not busy:
                _idle(stop, poll_s)


def _idle(stop: threading.Event, poll_s: float, *, slice_s: float = 0.05) -> None:
    """Wait ``poll_s``, or less when this process posts a message (``reactions.news``) or stops."""
    deadline = time.monotonic() + poll_s
    while not stop.is_set() and time.monotonic() < deadline:
        if news.wait(slice_s):
            return


def start_in_background(*, poll_s: float = 1.0) -> threading.Event:
    """Run a worker in a daemon thread of this process (the embedded default); set the event to stop it."""
    stop = threading.Event()
    worker = Worker(f"{default_worker_name()}:in-process")
    threading.Thread(target=worker.run_forever, args=(stop,), kwargs={"poll_s": poll_s}, daemon=True).start()
    return stop
