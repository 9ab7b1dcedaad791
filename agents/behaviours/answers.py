"""Every question asked in a session with its current answer.

The analyst's report keeps them in its provenance (``answers``: the words asked, the lead that answers
them, its confidence and the report whose Findings hold it), so a follow-up question adds to the
deliverable instead of replacing the earlier answer, and a redone answer replaces only its own. "What
changed" reads them to compare the headline before and after. Plain Python: it reads payloads only.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

BOLD = re.compile(r"\*\*(.+?)\*\*")
# The settings an answer rests on: the rows kept, the tables, how files were read and the columns' roles.
ANSWER_SETTINGS = ("rows", "tables", "reading", "roles")
STALE = "answered before a later correction to the rows, tables or columns; ask it again to redo it with that"
QUESTION_WORDS = {
    "which", "what", "how", "who", "where", "when", "why", "is", "are", "was", "were", "does", "do", "did",
    "can", "could", "has", "have",
}  # fmt: skip
LEADING = {"and", "also", "now", "then", "so", "but"}  # "And which …?" is still a question
READING_LINES = ("I read this as", "Not sure of this reading")  # how the analyst says how it read a question


def lead_of(findings: dict[str, Any] | None) -> str:
    """The sentence that answers the question: the first line of the Findings."""
    body = str((findings or {}).get("body") or "").strip()
    return body.split("\n\n", 1)[0].splitlines()[0].strip() if body else ""


def said_lines(findings: dict[str, Any] | None) -> list[str]:
    """The Findings' lines after the lead, up to the chart: the reading, the figures, the test."""
    lines = str((findings or {}).get("body") or "").strip().splitlines()[1:]
    ends = next((i for i, line in enumerate(lines) if line.startswith("```") or line.startswith("*You asked")), None)
    return [line.strip() for line in lines[:ends] if line.strip()]


def reading_of(findings: dict[str, Any] | None) -> str:
    """How the analyst read the question ("I read this as: …") and what it is unsure of in that
    reading, when its Findings say so."""
    said = said_lines(findings)
    return "\n".join(line for line in said if line.startswith(READING_LINES))


def headline(lead: str) -> str:
    """The lead up to its figure, in plain words: "east has the highest mean basket value: 33.50"."""
    bolds = list(BOLD.finditer(lead))
    cut = lead[: bolds[min(1, len(bolds) - 1)].end()] if bolds else lead.split("; ", 1)[0]
    return cut.replace("**", "").strip().rstrip(".")


def asks_another_question(kind: str, text: str) -> bool:
    """Whether a person's follow-up asks a question of its own (a new direction always does; a
    refinement when it is put as a question) rather than redoing the answer it follows."""
    if kind == "new_direction":
        return True
    words = [w.strip(",:") for w in text.lower().split()]
    while words and words[0] in LEADING:
        words.pop(0)
    return kind == "refinement" and bool(words) and (text.strip().endswith("?") or words[0] in QUESTION_WORDS)


def answers_of(report: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The questions a report of the analyst answers, oldest first (a report from before answers were
    kept answers the one question its Findings lead with)."""
    if report is None:
        return []
    payload = report["payload"]
    provenance = payload.get("provenance") or {}
    if "answers" in provenance:
        return [dict(a) for a in provenance["answers"]]
    findings = next((s for s in (payload.get("content") or {}).get("sections") or [] if s["id"] == "findings"), None)
    asked = provenance.get("question") or provenance.get("goal") or ""
    if findings is None or not asked:
        return []
    return [_entry(asked, findings, report["message_id"])]


def _entry(asked: str, findings: dict[str, Any], report: str, settings: str = "") -> dict[str, Any]:
    lead, confidence = lead_of(findings), findings.get("confidence")
    return {"asked": asked, "lead": lead, "confidence": confidence, "report": report, "settings": settings}


def settings_key(settings: dict[str, Any]) -> str:
    """A short fingerprint of the settings an answer rests on, to tell which answers predate a correction."""
    rested_on = json.dumps({key: settings.get(key) for key in ANSWER_SETTINGS}, sort_keys=True, default=str)
    return hashlib.sha256(rested_on.encode()).hexdigest()[:12]


def answers_now(
    before: list[dict[str, Any]],
    asked: str,
    findings: dict[str, Any],
    report: str,
    *,
    another: bool,
    settings: dict[str, Any],
) -> list[dict[str, Any]]:
    """The answers after this round: the earlier ones and this one, which replaces the latest when it
    redoes it, and is added when it answers another question."""
    kept = [a for a in before if a.get("asked")]
    if kept and not another:
        asked = kept.pop()["asked"]
    if not asked.strip():
        return kept
    return [*kept, _entry(asked, findings, report, settings_key(settings))][-20:]


def stale(answer: dict[str, Any], answers: list[dict[str, Any]]) -> bool:
    """Whether an answer was given before the rows, tables or roles the latest one rests on were corrected."""
    now = answers[-1].get("settings") if answers else None
    return bool(now and answer.get("settings") and answer["settings"] != now)


def headline_lines(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    """Each answer whose headline moved, now and before, and each question new since; nothing when
    every headline stands."""
    lines = []
    for index, now in enumerate(after):
        was = before[index] if index < len(before) else None
        if was is None:
            lines.append(f"A new question: “{now['asked']}”. Its answer: {headline(now['lead'])}.")
        elif headline(was["lead"]) != headline(now["lead"]):
            lines.append(
                f"The answer to “{now['asked']}” is now: {headline(now['lead'])}; it was: {headline(was['lead'])}."
            )
    return lines


def earlier_section(answers: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The section of the analyst's report that keeps the earlier questions' answers in view."""
    earlier = answers[:-1]
    if not earlier:
        return None
    lines = [f"- “{a['asked']}”: {a['lead']}" + (f" ({STALE}.)" if stale(a, answers) else "") for a in earlier]
    rated = [float(a["confidence"]) for a in earlier if a.get("confidence") is not None]
    return {
        "id": "earlier-answers",
        "title": "Earlier questions",
        "body": "Answered in earlier rounds, and standing:\n\n" + "\n".join(lines),
        "confidence": min(rated, default=0.5),
    }
