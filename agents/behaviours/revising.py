"""What a person said to the analyst about an earlier report, and the analyst's answer to it.

A correction, a refinement, a new direction or an answer to one of its questions is read back from
the thread (``request_of``); after the redo, ``what_changed`` follows the new answer, headline and figures,
and when nothing said can be acted on, ``honest_reply`` declines it: low confidence, no status
changed, and what could be done instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.analysis.prose import two_decimals
from agents.analysis.readings import OPTION_ID
from agents.behaviours.instructions import WHAT_I_CAN_DO, Understood
from agents.runtime import TaskRun


@dataclass(frozen=True)
class Request:
    """What a person said to the analyst: a correction, or an answer to one of its questions."""

    text: str
    kind: str  # "correction", "refinement", "new_direction", "answer" or "reading" (an option picked)
    question: dict[str, Any] | None = None  # what the answered question was about
    question_text: str = ""


REVISABLE = ("correction", "refinement", "new_direction")
DECLINED_CONFIDENCE = 0.2
OPTION_WORDS = {"exclude": "yes, leave them out", "keep": "no, keep them"}


def _asked(run: TaskRun, answer: dict[str, Any], depth: int = 0) -> tuple[dict[str, Any] | None, str]:
    """What an answered question of this agent was about: a report's question, or a clarification
    that asked it again (in reply to an answer it could not read)."""
    asked = run.message(answer.get("clarification_message_id"))
    if asked is None or asked["sender"]["id"] != run.agent.name or depth > 4:
        return None, ""
    payload = asked["payload"]
    if asked["payload_type"] == "collaborative_response":
        index = answer.get("question_index")
        questions = payload.get("open_questions_for_human") or []
        records = (payload.get("provenance") or {}).get("questions") or []
        record = next((r for r in records if r.get("index") == index), None)
        return record, questions[index] if index is not None and index < len(questions) else ""
    earlier = run.message(asked.get("in_reply_to"))
    if asked["payload_type"] == "clarification" and earlier and earlier["payload_type"] == "clarification_answer":
        record, _ = _asked(run, earlier["payload"], depth + 1)
        return record, payload["question"]
    return None, payload.get("question", "")


def request_of(run: TaskRun) -> Request | None:
    source = run.message(run.task.source_message_id)
    if source is None:
        return None
    payload = source["payload"]
    if source["payload_type"] == "human_feedback" and payload["feedback_type"] in REVISABLE:
        said = [str(v) for v in (payload.get("specific_instructions") or {}).values()]
        return Request(" ".join([*said, payload.get("provided_context", "")]).strip(), payload["feedback_type"])
    if source["payload_type"] == "clarification_answer":
        reading = _reading_picked(run, payload)
        if reading is not None:
            return Request(reading, "reading")
        record, question = _asked(run, payload)
        text = payload.get("free_answer") or OPTION_WORDS.get(
            payload.get("option_id", ""), payload.get("option_id", "")
        )
        return Request(text, "answer", record, question)
    return None


def _reading_picked(run: TaskRun, answer: dict[str, Any]) -> str | None:
    """The words of the reading the person picked, when they answered with one of its options."""
    asked = run.message(answer.get("clarification_message_id"))
    if asked is None or asked["sender"]["id"] != run.agent.name or asked["payload_type"] != "clarification":
        return None
    picked = answer.get("option_id") or ""
    offered = asked["payload"].get("options") or []
    return next((o["label"] for o in offered if o["id"] == picked and picked.startswith(OPTION_ID)), None)


def asked_keys(record: dict[str, Any]) -> list[str]:
    """What an earlier question settled: its key and each column it asked about (older reports name a
    table and its columns, newer ones ``table.column`` targets)."""
    columns = record.get("targets") or [f"{record.get('table')}.{c}" for c in record.get("columns") or []]
    return [record["key"], *columns]


def reports(run: TaskRun) -> list[dict[str, Any]]:
    """This analyst's earlier reports in the session (those that carry their figures), oldest first."""
    return [
        envelope
        for envelope in run.own_messages("collaborative_response")
        if "figures" in (envelope["payload"].get("provenance") or {})
    ]


def _said(request: Request) -> str:
    if request.kind == "answer":
        return (
            f"You answered “{request.question_text}”: “{request.text}”."
            if request.question_text
            else f"You answered: “{request.text}”."
        )
    return f"You asked: “{request.text}”."


def _not_done(understood: Understood) -> list[str]:
    return [
        f"I could not act on “{clause}”: I do not know how to do that with this data."
        for clause in understood.not_understood
    ]


WHAT_COULD = [
    f"Say it as one of the things I can redo: {WHAT_I_CAN_DO}.",
    "Ask it as a question about the data (which column is most associated with another, how groups differ, "
    "a trend, a share, a growth, a median of some rows).",
    "For wording or layout, forward the report to a writing agent from the scheduling view; for anything else, "
    "invite an agent that does it.",
]


def what_changed(
    request: Request,
    understood: Understood,
    before: dict[str, Any],
    after: dict[str, Any],
    tables_before: list[str],
    tables: list[str],
    headlines: list[str] | None = None,
) -> dict[str, Any]:
    """The section that follows a redone report's answer: what was asked, the headline before and after
    (``answers.headline_lines``), what was done, and each figure that moved."""
    lines = [_said(request), ""]
    lines += [f"- {line}" for line in headlines or []]
    lines += [f"- I {done}." for done in understood.done]
    new_tables = sorted(set(tables) - set(tables_before))
    lines += [f"- New data: table {t}." for t in new_tables]
    lines += [f"- {line}" for line in _not_done(understood)]
    moved = [(key, before[key][1], after[key][1]) for key in after if key in before and before[key][1] != after[key][1]]
    gone = [key for key in before if key not in after]
    added = [key for key in after if key not in before and not any(key.startswith(f"{t}|") for t in new_tables)]
    if moved:
        lines += ["", "| figure | before | now |", "|---|---|---|"]
        lines += [f"| {after[key][0]} | {two_decimals(old)} | {two_decimals(new)} |" for key, old, new in moved]
    if added:
        lines += [
            "",
            "Now reported: " + "; ".join(f"{after[key][0]} {two_decimals(after[key][1])}" for key in added[:40]) + ".",
        ]
    dropped = sorted({key.split("|")[0] for key in gone} - {key.split("|")[0] for key in after})
    lines += [f"- No longer analysed: table {t}." for t in dropped]
    gone = [key for key in gone if key.split("|")[0] not in dropped]
    if gone:
        lines += ["", "No longer reported: " + "; ".join(before[key][0] for key in gone[:40]) + "."]
    if not (moved or added or gone or new_tables or dropped or headlines):
        lines += ["", "No figure changed."]
    return {"id": "what-changed", "title": "What changed", "body": "\n".join(lines)}


def honest_reply(run: TaskRun, request: Request, understood: Understood) -> str:
    """Nothing in what was said is something the analyst can do: it says so, and changes nothing."""
    if request.kind == "answer" and request.question:
        return run.post(
            "clarification",
            "clarification",
            {
                "question": f"I could not read “{request.text}” as an answer. {request.question_text}",
                "options": [{"id": "exclude", "label": "Leave them out"}, {"id": "keep", "label": "Keep them"}],
                "allow_free_answer": True,
            },
            in_reply_to=run.task.source_message_id or None,
        )
    lines = [
        _said(request),
        "",
        "No agent here can do this yet, so I have not changed the report; it stands as it was.",
        "",
        *(_not_done(understood) or ["I found nothing in it that changes the figures or the question."]),
        "",
        "What would work instead:",
        "",
        *(f"- {way}" for way in WHAT_COULD),
    ]
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": "\n".join(lines)},
        "confidence_score": DECLINED_CONFIDENCE,
        "uncertainties": [{"aspect": "the request was not carried out", "reason": "no agent here can do it"}],
        "provenance": {"behaviour": "analyst", "reply_to": request.kind, "refused": True},
    }
    return run.post("reply", "collaborative_response", payload, in_reply_to=run.task.source_message_id or None)
