"""What an agent's behaviour may do while it holds a task (the worker that runs it is agents/worker.py).

A behaviour is ``behaviour(run: TaskRun) -> str | None`` (the id of its result message). It works
only through the same services as everyone else: SAP with its agent's permissions, messages
through ``message_post``. Every message it posts has an id made of the task and a key of the
behaviour's choosing, so when a task runs again after its worker died, what the first attempt
already posted is recognised and not posted twice. Status reports are keyed by attempt as well:
each attempt reports its own progress.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from agents.models import Task
from agents.sap import Block
from agents.sap_service import InProcessSap
from agents.scheduling.leases import Claim
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent
from sessions.log import message_post_at_head
from sessions.models import Message, WorkSession
from sessions.selectors import agent_context


class LeaseLost(Exception):
    """The task is no longer this worker's: its lease ran out, or a human reassigned or cancelled it."""


class TaskFailure(Exception):
    """A behaviour gives up: ``error`` is posted to the session, and the task is tried again only
    when the error is retryable (a timeout, say) and attempts remain."""

    def __init__(self, error: ProtocolError):
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


class TaskRun:
    def __init__(self, task: Task, claim: Claim) -> None:
        assert task.agent is not None, "a task is claimed only with an agent (scheduling.leases._ready)"
        self.task, self.claim, self.agent = task, claim, task.agent
        self.caller = caller_for_agent(task.agent)
        self.lost = threading.Event()
        self.started = time.monotonic()
        self.sap_operations = 0
        self.llm_tokens = 0
        self._statuses = 0
        self._sap: InProcessSap | None = None

    def check(self) -> None:
        if self.lost.is_set():
            raise LeaseLost(f"task {self.task.pk} attempt {self.claim.attempt}")

    def message(self, message_id: str | None) -> dict[str, Any] | None:
        """The envelope of a message of this task's session, or None."""
        if not message_id:
            return None
        return (
            Message.objects.filter(session_id=self.task.session_id, message_id=message_id)
            .values_list("envelope", flat=True)
            .first()
        )

    def messages(self, payload_type: str) -> list[dict[str, Any]]:
        """The envelopes of one type in this task's session, oldest first."""
        rows = Message.objects.filter(session_id=self.task.session_id, payload_type=payload_type)
        return list(rows.order_by("seq").values_list("envelope", flat=True))

    def own_messages(self, payload_type: str) -> list[dict[str, Any]]:
        """The envelopes this agent posted earlier in this session, of one type, oldest first."""
        rows = Message.objects.filter(
            session_id=self.task.session_id, sender_type="agent", sender_id=self.agent.name, payload_type=payload_type
        )
        return list(rows.order_by("seq").values_list("envelope", flat=True))

    def message_id(self, key: str) -> str:
        return f"task{self.task.pk}-{key}"

    def post(self, key: str, payload_type: str, payload: dict[str, Any], *, in_reply_to: str | None = None) -> str:
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
        except ProtocolError as error:
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
        limits: dict[str, Any] | None = None,
    ) -> str:
        """An agent_status message; ``limits`` are the bounds the resources count against."""
        self._statuses += 1
        payload: dict[str, Any] = {
            "activity": activity,
            "state": state,
            "task_id": str(self.task.pk),
            "resources_used": {**self.resources(), **({"limits": limits} if limits else {})},
        }
        if done is not None:
            payload["progress"] = {"done": done, **({"total": total} if total is not None else {})}
        return self.post(f"a{self.claim.attempt}-status{self._statuses}", "agent_status", payload)

    def sap(self, *requests: Block) -> list[Block]:
        """Run SAP request blocks with the agent's permissions; the response blocks, in order."""
        responses = self._in_process().run(requests)
        self.sap_operations += len(responses)
        return responses

    def sap_stream(self, request: Block) -> Iterator[Block]:
        """``sap`` of one request, each response as it comes: its progress events while it runs, then its
        result (or error, or approval request)."""
        for response in self._in_process().stream([request]):
            self.sap_operations += not (response.type == "event" and "progress" in response.body)
            yield response

    def _in_process(self) -> InProcessSap:
        self.check()
        if self._sap is None:  # the agent's access to the session is checked once per run
            self._sap = InProcessSap(session_id=self.task.session_id, caller=self.caller)
        return self._sap

    def context(self, budget: int = 4000) -> dict[str, Any]:
        session = WorkSession.objects.get(pk=self.task.session_id)
        return agent_context(session=session, task_message_id=self.task.source_message_id or None, budget=budget)

    def resources(self) -> dict[str, float]:
        return {
            "wall_s": round(time.monotonic() - self.started, 3),
            "sap_operations": self.sap_operations,
            "llm_tokens": self.llm_tokens,
        }
