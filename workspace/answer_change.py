"""What became of the session's answer between two points of its log: each question's lead then and
now, read off the analyst's report the current answer rests on (``agents.behaviours.answers``)."""

from __future__ import annotations

from typing import Any

from agents.behaviours.answers import answers_of, headline, headline_lines
from sessions.models import WorkSession


def _envelope(session: WorkSession, message_id: str | None) -> dict[str, Any] | None:
    if not message_id:
        return None
    found: dict[str, Any] | None = (
        session.messages.filter(message_id=message_id).values_list("envelope", flat=True).first()
    )
    return found


def answers_in(session: WorkSession, report_id: str | None) -> list[dict[str, Any]]:
    """The questions the report ``report_id`` answers, each with its lead: a written deliverable's are
    those of the analysis it was written from."""
    report = _envelope(session, report_id)
    provenance = ((report or {}).get("payload") or {}).get("provenance") or {}
    if provenance.get("deliverable"):
        report = _envelope(session, provenance.get("from_message_id"))
    return answers_of(report)


def answer_change(*, session: WorkSession, answer_from: str | None, answer_to: str | None) -> dict[str, Any]:
    """The answer before and after: a sentence for each headline that moved (or each that stands),
    then each question's lead at both points; ``unled`` when the answer at the later point is a report
    that keeps no lead to compare (``replaced`` when it is another report than at the earlier point)."""
    before, after = answers_in(session, answer_from), answers_in(session, answer_to)
    said = headline_lines(before, after) or [
        f"The answer to “{a['asked']}” stands: {headline(a['lead'])}." for a in after
    ]
    rows = [
        {
            "asked": now["asked"],
            "was": before[index]["lead"].replace("**", "") if index < len(before) else "",
            "now": now["lead"].replace("**", ""),
        }
        for index, now in enumerate(after)
    ]
    unled = answer_to is not None and not after
    return {"said": said, "rows": rows, "unled": unled, "replaced": unled and answer_from != answer_to}
