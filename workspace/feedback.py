"""Structured feedback from the workspace's panel: what the form says, as a human_feedback payload.

Plain Python, so that the rules are tested without HTTP: feedback needs a target and a type, and
vague feedback ("make it better") without a target gets a gentle prompt instead of being sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FEEDBACK_TYPES = (
    ("refinement", "Refine", "keep the direction, improve a part"),
    ("correction", "Correct", "something is wrong: what builds on it is flagged for review"),
    ("approval", "Approve", "accept it as it is"),
    ("new_direction", "New direction", "change course"),
)
TEMPLATES = (
    "Give more detail about …",
    "Explain … in simpler words",
    "What data supports this conclusion?",
    "This is wrong: …",
)
PART_KINDS = ("section", "assumption", "step", "question", "quote")
PRIORITIES = ("low", "medium", "high")
VAGUE = re.compile(
    r"^\s*(make it|do it|please)?\s*(better|nicer|good|improve( it)?|fix( it)?|more|again|redo( it)?)\W*$", re.I
)


@dataclass(frozen=True)
class Prompt:
    """What the panel asks back instead of sending: which fields, and why."""

    fields: tuple[str, ...]
    message: str


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def feedback_payload(form: Mapping[str, str]) -> dict[str, Any] | Prompt:
    """The human_feedback payload a submitted panel describes, or the Prompt to show instead."""
    target = (form.get("target_message_id") or "").strip()
    feedback_type = form.get("feedback_type") or ""
    instruction = (form.get("instruction") or "").strip()
    if not target or feedback_type not in {key for key, _, _ in FEEDBACK_TYPES}:
        missing = tuple(name for name, value in (("target", target), ("feedback_type", feedback_type)) if not value)
        gentle = (
            "That is a little vague to act on. " if VAGUE.match(instruction) or not instruction else "Almost there. "
        )
        return Prompt(
            missing or ("feedback_type",),
            gentle + "Pick what it is about (click a message, a section or an assumption, or select a "
            "sentence in a report) and say what kind of feedback it is.",
        )
    if feedback_type != "approval" and (not instruction or VAGUE.match(instruction)):
        return Prompt(
            ("instruction",), "Say what should change, for example: “Give more detail about the market size”."
        )
    payload: dict[str, Any] = {"target_message_id": target, "feedback_type": feedback_type}
    kind = form.get("part_kind") or ""
    if kind in PART_KINDS:
        part: dict[str, str | int] = {"kind": kind}
        if form.get("part_id"):
            part["id"] = form["part_id"][:128]
        for key in ("index", "start", "end"):
            number = _int(form.get(f"part_{key}"))
            if number is not None and number >= 0:
                part[key] = number
        if form.get("part_quote"):
            part["quote"] = form["part_quote"][:10_000]
        payload["target_part"] = part
    if instruction:
        payload["specific_instructions"] = {"request": instruction[:10_000]}
    links = [line.strip() for line in (form.get("links") or "").splitlines() if line.strip()]
    files = [name for name in form.getlist("attachments") if name] if hasattr(form, "getlist") else []
    if links or files:
        payload["attachments"] = (files + links)[:50]
    if form.get("priority") in PRIORITIES:
        payload["priority"] = form["priority"]
    return payload


def answer_payload(form: Mapping[str, str]) -> dict[str, Any]:
    """The clarification_answer a clarification's option button or a question's answer box posts."""
    payload: dict[str, Any] = {"clarification_message_id": form.get("clarification_message_id", "")}
    for key in ("option_id", "free_answer"):
        if form.get(key):
            payload[key] = form[key]
    if form.get("question_index", "").isdigit():
        payload["question_index"] = int(form["question_index"])
    return payload
