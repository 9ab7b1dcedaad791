"""The words a person reads for the protocol's names: what each kind of message is for, what each
status means, who wrote a message and when. Plain Python, so the thread, the map's details, the
history, the scheduling board and the live fragments all say the same thing; ids stay in the folded
technical details and in exports."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sessions.chap.traits import TRAITS

# What each kind of message is for, as a noun a sentence can carry ("the plan from planner").
PAYLOAD_LABELS = {
    **{kind: traits.label for kind, traits in TRAITS.items()},
    # units inside messages, as the context graph names them
    "goal": "goal",
    "constraint": "constraint",
    "criterion": "success criterion",
    "document": "background",
    "step": "plan step",
    "section": "report section",
    "assumption": "assumption",
    "source": "source",
    "uncertainty": "uncertainty",
    "question": "question",
    "option": "option",
    "operation": "operation",
}

FEEDBACK_LABELS = {
    "correction": "correction",
    "refinement": "refinement",
    "approval": "approval",
    "new_direction": "new direction",
}

# Statuses of map nodes, tasks and approvals, in words.
STATUS_LABELS = {
    "proposed": "proposed",
    "in_progress": "in progress",
    "done": "done",
    "open": "open question",
    "overturned": "overturned",
    "needs_review": "needs review",
    "queued": "queued",
    "running": "running",
    "waiting_human": "waiting for a person",
    "waiting_approval": "waiting for approval",
    "failed": "failed",
    "cancelled": "cancelled",
    "idle": "idle",
    "working": "working",
    "waiting": "waiting",
    "blocked": "blocked",
    "offline": "offline",
    "pending": "waiting for a decision",
    "approved": "approved",
    "rejected": "rejected",
}


def payload_label(kind: str) -> str:
    return PAYLOAD_LABELS.get(kind, kind.replace("_", " "))


def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, str(status).replace("_", " "))


def feedback_label(kind: str) -> str:
    return FEEDBACK_LABELS.get(kind, kind.replace("_", " "))


def template_label(slug: object) -> str:
    """A task template's slug in words: "data-analysis" is "data analysis"."""
    return str(slug or "").replace("-", " ")


def sender_label(sender: object) -> str:
    """``human:olga``, ``{"type": "agent", "id": "analyst"}`` or ``system:workbench`` as a name."""
    if isinstance(sender, dict):
        kind, name = sender.get("type", ""), sender.get("id", "")
    else:
        kind, _, name = str(sender).partition(":")
    return "the workbench" if kind == "system" else name or kind


def time_words(moment: datetime, now: datetime) -> str:
    """A moment as a person says it, next to ``now`` (both in the reader's zone): "today 14:05",
    "yesterday 09:10", "Dec 4, 14:05", "Dec 4, 2025, 14:05"; never an ISO string."""
    clock = moment.strftime("%H:%M")
    if moment.date() == now.date():
        return f"today {clock}"
    if moment.date() == (now - timedelta(days=1)).date():
        return f"yesterday {clock}"
    day = f"{moment.strftime('%b')} {moment.day}"
    return f"{day}, {clock}" if moment.year == now.year else f"{day}, {moment.year}, {clock}"


def message_label(node: dict[str, Any] | None) -> str:
    """A message (or unit) of the context graph as a person names it: "the report from analyst"
    (its number and id are technical details)."""
    if not node:
        return "an earlier message"
    kind = node.get("kind", "")
    if kind == "human_feedback" and node.get("feedback_type"):
        what = feedback_label(node["feedback_type"])
    else:
        what = payload_label(kind)
    sender = sender_label(node.get("sender", ""))
    return f"the {what}" + (f" from {sender}" if sender else "")


def report_title(text: str) -> str:
    """A report's first heading (or first line) as its name on the map and in the history."""
    for line in (text or "").splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line
    return ""
