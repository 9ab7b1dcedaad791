"""What a failed task tells people, in words: what failed, why, and what to do about it.

Every failed attempt of a task posts one problem report (``problem_report``), whichever way it failed:
a behaviour that gave up, an error it did not expect, no behaviour at all, a worker that stopped
answering, an external agent's own report. The technical part (the error's code, an exception's type
and message) stays in the report's details, which the thread folds away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from protocol.errors import CATALOGUE, ProtocolError
from sessions.models import Message

if TYPE_CHECKING:
    from agents.models import Task

UNEXPECTED = "it stopped on an unexpected error in its own code"


@dataclass(frozen=True)
class Failure:
    """Why one attempt failed: ``code`` is from the error catalogue, ``why`` is for people,
    ``technical`` for the technical details, ``retryable`` whether the same attempt may succeed."""

    code: str
    why: str
    technical: str = ""
    retryable: bool = False
    fault_of_agent: bool = False  # a fault in the agent's code, not in what it was asked
    needs_another_agent: bool = False  # this agent cannot do it at all (it has no behaviour to run)

    @classmethod
    def from_text(cls, error: str, *, retryable: bool) -> Failure:
        """A failure an external agent reported as ``"CODE: message"`` (or just a message)."""
        code, _, message = error.partition(": ")
        if code in CATALOGUE and message:
            return cls(code, message, error, retryable)
        return cls("INTERNAL_ERROR", error or "the agent gave no reason", error, retryable)

    def as_error(self) -> str:
        """What the task keeps as its last error: the code, then the words."""
        return f"{self.code}: {self.why}"


def reason_of(last_error: str) -> str:
    """A task's last error as people read it: the words without the code in front."""
    code, _, words = last_error.partition(": ")
    return words if code in CATALOGUE and words else last_error


def what_to_do(task: Task, failure: Failure, *, final: bool) -> str:
    """The next step a person can take, in words; none while the task tries again by itself."""
    agent = task.agent.name if task.agent else "the agent"
    if not final:
        return f"Nothing yet: {agent} tries again by itself (attempt {task.attempts} of {task.max_attempts})."
    if failure.fault_of_agent:
        other = f"another agent that does {task.required_role}" if task.required_role else "another agent"
        return (
            f"This is a fault in {agent}, not in your request, so retrying would fail the same way: reassign the "
            f"step to {other} on the scheduling board, or cancel it."
        )
    if failure.retryable:
        return "Retry it from the scheduling board; if it fails again, reassign it to another agent."
    return (
        "Retrying as it is would fail the same way: first change what the reason names (attach the data, "
        "answer its question, correct the request), then retry it; or reassign the step to another agent."
    )


def problem_report(task: Task, failure: Failure, *, final: bool) -> dict[str, Any]:
    """The ``error`` payload of one failed attempt: the message says what failed, why and what to do."""
    agent = task.agent.name if task.agent else "The agent"
    step = f"step {task.plan_step} of the plan, “{task.title}”" if task.plan_step else f"“{task.title}”"
    todo = what_to_do(task, failure, final=final)
    why = failure.why.rstrip(".")
    message = f"{agent} could not finish {step}: {why}. {todo}"
    details = {
        "task_id": task.pk,
        "attempt": task.attempts,
        "final": final,
        "why": failure.why,
        "what_to_do": todo,
        "retryable": failure.retryable,
        "needs_another_agent": failure.needs_another_agent,
        "technical": failure.technical or failure.as_error(),
    }
    payload: dict[str, Any] = {"code": failure.code, "message": message[:5000], "details": details}
    if task.source_message_id:
        payload["regarding_message_id"] = task.source_message_id
    return payload


# What the workbench records about a task's own run: none of it changes what a retry would meet.
RECORDS = ("task_event", "error", "agent_status", "checkpoint")


def retry_refusal(task: Task) -> ProtocolError | None:
    """Why retrying ``task`` as it is would fail the same way, or None when a retry may succeed: its
    last failure says its agent cannot do it at all, or was not one a retry can pass (a fault in
    the agent, missing data, a wrong request) and nothing happened in the session since."""
    reports = Message.objects.filter(session_id=task.session_id, payload_type="error")
    last = reports.filter(envelope__payload__details__task_id=task.pk).order_by("-seq").first()
    if last is None:
        return None
    details = last.envelope["payload"]["details"]
    why = details.get("why") or reason_of(task.last_error)
    if details.get("needs_another_agent"):
        return _refused(task, why, [_reassign(task)])
    since = Message.objects.filter(session_id=task.session_id, seq__gt=last.seq).exclude(payload_type__in=RECORDS)
    if details.get("retryable", True) or since.exists():
        return None
    return _refused(task, f"{why}, and nothing changed since", [details.get("what_to_do") or _reassign(task)])


def _reassign(task: Task) -> str:
    role = f" that does {task.required_role}" if task.required_role else ""
    return f"reassign the step to another agent{role} (the card's Agent menu)"


def _refused(task: Task, why: str, suggestion: list[str]) -> ProtocolError:
    return ProtocolError(
        "INVALID_STATE",
        f"retrying “{task.title}” would fail the same way: {why}",
        details={"state": task.state, "would_fail_again": True, "last_error": task.last_error},
        suggestion=suggestion,
    )
