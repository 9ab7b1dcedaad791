"""The answer card at the top of the session page: each question the session asked with the lead
sentence that answers it now, its confidence and chart, who reviewed the report, and links to the
report in the thread and to its node on the map.

The current answer is the one ``sessions.chap.deliverable.current_answer`` names (the deliverable
and its export read the same); the questions and leads are those the analyst's report keeps
(``agents.behaviours.answers.answers_of``), read from the analysis a written report was written from.
"""

from __future__ import annotations

import re
from typing import Any

from agents.behaviours.answers import STALE, answers_of, lead_of, stale
from sessions.chap.deliverable import STATUS_WORDS, current_answer
from sessions.graphs import graph_cache
from sessions.models import Message, WorkSession
from workspace.map_drawing import heat

CHART = re.compile(r"^```vega-lite\n.+?\n```", re.MULTILINE | re.DOTALL)


def answer_card(session: WorkSession) -> dict[str, Any]:
    """What the answer card shows: ``answers`` (each ``asked``, ``lead``, ``confidence`` and its ``heat``
    band, ``chart``, its chart as a Markdown block or "", and ``stale``, why it may no longer hold, or
    ""), ``status`` in
    words, ``reviewer`` ("" when nobody reviewed it), ``seq`` of the report in the thread and ``node``,
    its number on the map, ``suggested``, the questions the analysis offers to answer next, ``asking``,
    those of them asked since, and ``ask``, the report a suggested question is asked of; only ``goal``
    and no answers before a report answers the session."""
    entry = graph_cache.entry(session)
    with entry.lock:
        context = entry.graph
        nodes = context.graph.nodes
        goal = str(nodes[context.goal]["text"]) if context.goal is not None and context.goal in nodes else ""
        found = current_answer(context)
        if found is None:
            return {"goal": goal, "answers": []}
        current, reviewed = found
        report = dict(nodes[current])
        reviewer = str(nodes[reviewed]["sender"]).partition(":")[2] if reviewed else ""
        entry.layout.update(context)
        placed = entry.layout.placed.get(entry.layout.rep.get(current, ""))
    written_from = str(report.get("written_from") or "")
    envelopes = _envelopes(session, {current, written_from} - {""})
    analysis = envelopes.get(written_from) or envelopes[current]
    kept = answers_of(analysis)
    envelopes.update(_envelopes(session, {answer["report"] for answer in kept} - set(envelopes)))
    answers = [_shown(answer, envelopes.get(answer["report"]), kept) for answer in kept]
    return {
        "goal": goal,
        "answers": answers or [_unkept(envelopes[current], goal)],
        "status": STATUS_WORDS.get(report["status"], report["status"]),
        "reviewer": reviewer,
        "seq": report["seq"],
        "node": placed.index if placed else None,
        **_suggested(session, analysis),
    }


CARD_SUGGESTIONS = 3  # one line under the answer; the report lists them all


def _suggested(session: WorkSession, analysis: dict[str, Any]) -> dict[str, Any]:
    """The questions the analysis suggests, split into those still to ask and those asked of it since
    (the analyst's answer is on its way: the card says so instead of offering them again)."""
    offered = [s["question"] for s in (analysis["payload"].get("provenance") or {}).get("suggested_questions") or []]
    replies = Message.objects.filter(session=session, payload_type="human_feedback", in_reply_to=analysis["message_id"])
    since = {
        (e["payload"].get("specific_instructions") or {}).get("request")
        for e in replies.values_list("envelope", flat=True)
    }
    return {
        "suggested": [q for q in offered if q not in since][:CARD_SUGGESTIONS],
        "asking": [q for q in offered if q in since],
        "ask": analysis["message_id"],
    }


def _envelopes(session: WorkSession, ids: set[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    return dict(Message.objects.filter(session=session, message_id__in=ids).values_list("message_id", "envelope"))


def _findings(report: dict[str, Any] | None) -> dict[str, Any] | None:
    sections = (((report or {}).get("payload") or {}).get("content") or {}).get("sections") or []
    return next((s for s in sections if s.get("id") == "findings"), None)


def _chart(section: dict[str, Any] | None) -> str:
    """The first chart of a section, as the Markdown block the thread draws it from; "" when none."""
    found = CHART.search(str((section or {}).get("body") or ""))
    return found.group(0) if found else ""


def _shown(answer: dict[str, Any], report: dict[str, Any] | None, answers: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "asked": answer["asked"],
        "lead": answer["lead"],
        "confidence": answer.get("confidence"),
        "heat": heat(answer.get("confidence")),
        "chart": _chart(_findings(report)),
        "stale": STALE if stale(answer, answers) else "",
    }


def _unkept(report: dict[str, Any], goal: str) -> dict[str, Any]:
    """A report that keeps no questions (not the analyst's): the goal, and its first section's lead."""
    payload = report["payload"]
    sections = (payload.get("content") or {}).get("sections") or []
    first = _findings(report) or (sections[0] if sections else {"body": payload["content"].get("body")})
    lead = "" if lead_of(first).startswith("#") else lead_of(first)
    confidence = payload.get("confidence_score")
    return {"asked": goal, "lead": lead, "confidence": confidence, "heat": heat(confidence), "chart": _chart(first),
            "stale": ""}  # fmt: skip
