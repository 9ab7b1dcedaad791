"""The built-in reviewer: checks a deliverable against its template's spec and the task's success
criteria and, for an analysis, each answer against its question (agents/analysis/answer_checks.py),
and says how sure it is of each finding and what it checked. ``review`` is plain Python; ``reviewer``
is the behaviour that finds the deliverable and posts the findings."""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, replace
from typing import Any

from django.db.models import QuerySet

from agents.analysis.answer_checks import KINDS, Checked, check_answer, check_criteria
from agents.models import Task, TaskTemplate
from agents.runtime import TaskRun
from sessions.models import Message

LOW_CONFIDENCE = 0.5
QUOTING = ("*You asked", "Not sure")  # the analyst's lines that say the question's words, not its answer
CLAIM = re.compile(r"\d|%|\b(?:increase|decrease|grew|fell|most|least|best|worst|always|never)\b", re.I)
CAN_DO = [
    {
        "action": "check a deliverable against its template's sections and the task's success criteria",
        "scope": "the text of the deliverable and its stated sources",
        "limitation": "checks form, sourcing and whether an analysis answers the question asked (the columns it "
        "names, no identifier analysed, each part answered), not whether the content is true",
    }
]
CANNOT_DO = ["verify facts outside the session", "rewrite the deliverable"]


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9 ]", " ", text.lower()).strip()


def headings(payload: dict[str, Any]) -> list[str]:
    content = payload.get("content") or {}
    titles = [s.get("title") or s.get("id", "") for s in content.get("sections") or []]
    titles += re.findall(r"^#{1,6}\s+(.+?)\s*#*$", content.get("body", ""), re.M)
    return [_norm(t) for t in titles if t]


def _present(title: str, found: list[str]) -> float:
    """How closely the best heading matches a required title (1.0: the same words)."""
    wanted = _norm(title)
    return max(
        (1.0 if wanted in heading else difflib.SequenceMatcher(None, wanted, heading).ratio() for heading in found),
        default=0.0,
    )


def review(payload: dict[str, Any], sections: list[dict[str, Any]], criteria: list[str]) -> list[dict[str, Any]]:
    """Findings ``{kind, title, detail, confidence}``: missing sections, unsourced claims, low-confidence
    sections, success criteria the text does not address."""
    findings = []
    found = headings(payload)
    for section in sections:
        if not section.get("required", True):
            continue
        closeness = _present(section["title"], found)
        if closeness < 0.8:
            findings.append(
                {
                    "kind": "missing_section",
                    "title": f"Missing section: {section['title']}",
                    "detail": f"The spec asks for it: {section.get('description', '')}".strip(),
                    # A heading that is nearly the title may be the section under another name.
                    "confidence": 0.9 if closeness < 0.6 else 0.6,
                }
            )
    content = payload.get("content") or {}
    if not payload.get("supporting_materials"):
        claims = [
            line.strip()
            for line in content.get("body", "").splitlines()
            if CLAIM.search(line) and not line.startswith("#")
        ]
        if claims:
            findings.append(
                {
                    "kind": "unsourced_claims",
                    "title": f"{len(claims)} claims without a supporting source",
                    "detail": "For example: " + claims[0][:300],
                    "confidence": 0.8,
                }
            )
    for section in content.get("sections") or []:
        if section.get("confidence") is not None and section["confidence"] < LOW_CONFIDENCE:
            findings.append(
                {
                    "kind": "low_confidence",
                    "title": f"Low confidence: {section.get('title') or section['id']}",
                    "detail": f"Its author rates it {section['confidence']}: it needs more support or a human check.",
                    "confidence": 0.9,
                }
            )
    findings += [asdict(f) for f in check_criteria(criteria, content.get("body", "")).findings]
    return findings


def _report_words(message: Message) -> str:
    written = (message.envelope["payload"].get("provenance") or {}).get("deliverable")
    return f"{'the written report' if written else 'the report'} by {message.sender_id}"


def _deliverable_of(run: TaskRun, session_messages: QuerySet[Message]) -> Message | None:
    """What to review: the latest report of another agent among the task's inputs (the message it
    came from, the results of the tasks it follows), else the latest in the session."""
    inputs = [
        run.task.source_message_id,
        *Task.objects.filter(dependents=run.task)
        .exclude(result_message_id="")
        .values_list("result_message_id", flat=True),
    ]
    reports = session_messages.filter(payload_type="collaborative_response").exclude(sender_id=run.agent.name)
    return reports.filter(message_id__in=inputs).order_by("-seq").first() or reports.order_by("-seq").first()


def _analyses_behind(deliverable: Message, session_messages: QuerySet[Message]) -> list[dict[str, Any]]:
    """The analyst's reports that carry each question the deliverable answers and how it was read: the
    deliverable itself or the analysis a written report was written from, and the reports of the
    earlier questions it keeps the answers of, oldest first."""
    payload = deliverable.envelope["payload"]
    provenance = payload.get("provenance") or {}
    if "findings" not in provenance:
        source = session_messages.filter(message_id=provenance.get("from_message_id") or "").first()
        payload = source.envelope["payload"] if source else {}
        provenance = payload.get("provenance") or {}
    if "findings" not in provenance:
        return []
    ids = [a.get("report") for a in provenance.get("answers") or [] if a.get("report")]
    kept = {m.message_id: m.envelope["payload"] for m in session_messages.filter(message_id__in=ids)}
    earlier = [kept[i] for i in dict.fromkeys(ids) if i in kept and "findings" in (kept[i].get("provenance") or {})]
    return [dict(p) for p in earlier if p.get("provenance") != provenance] + [dict(payload)]


def answer_checked(analysis: dict[str, Any], criteria: list[str] | None, text: str) -> Checked:
    """The analysis checked against its question, and the report's ``text`` against the criteria."""
    sections = (analysis.get("content") or {}).get("sections") or []
    lead: dict[str, Any] = next((s for s in sections if s.get("id") == "findings"), {})
    # Its own words only: the question it quotes back, or the words it was not sure of, would answer
    # every part of the question themselves.
    words = "\n".join(line for line in str(lead.get("body", "")).splitlines() if not line.startswith(QUOTING))
    return check_answer(analysis["provenance"], lead.get("confidence"), criteria, text, words)


def all_checked(analyses: list[dict[str, Any]], criteria: list[str], text: str) -> Checked | None:
    """Each question's answer checked, the criteria once (with the latest); with several questions each
    finding and each question's checks say which question they are about."""
    if not analyses:
        return None
    several = len(analyses) > 1
    checked = Checked()
    for index, analysis in enumerate(analyses, start=1):
        one = answer_checked(analysis, criteria if index == len(analyses) else None, text)
        asked = analysis["provenance"].get("question") or ""
        about = f"question {index}, “{asked}”"
        checked.findings += [replace(f, title=f"{f.title} ({about})") if several else f for f in one.findings]
        if one.passed:
            checked.passed.append(f"for {about}: " + "; ".join(one.passed) if several else "; ".join(one.passed))
    return checked


def verdict(findings: list[dict[str, Any]], checked: Checked | None) -> str:
    """The review's first line: whether the answer answers the question, how many problems there are."""
    wrong = [f for f in findings if f["kind"] in KINDS]
    if wrong:
        return (
            f"The answer may not answer the question asked: {len(wrong)} "
            f"problem{'s' if len(wrong) > 1 else ''} with the answer"
            + (f", {len(findings) - len(wrong)} with the report." if len(findings) > len(wrong) else ".")
        )
    if findings:
        return f"{len(findings)} problem{'s' if len(findings) > 1 else ''} found."
    return "No problems found." if checked else "No problems found in its form and sources."


def reviewer(run: TaskRun) -> str:
    session_messages = Message.objects.filter(session_id=run.task.session_id)
    deliverable = _deliverable_of(run, session_messages)
    if deliverable is None:
        return run.post(
            "clarification",
            "clarification",
            {"question": "Which deliverable should I review? None is in the session yet."},
        )
    plan = session_messages.filter(message_id=run.task.source_message_id).first()
    reviewed = deliverable.envelope["payload"]
    written = reviewed.get("provenance") or {}
    slug = (plan.envelope["payload"].get("template") if plan else None) or written.get("template") or ""
    template = TaskTemplate.objects.filter(slug=slug).first()
    proposal = session_messages.filter(payload_type="task_proposal").order_by("-seq").first()
    criteria = proposal.envelope["payload"].get("success_criteria") or [] if proposal else []
    analyses = _analyses_behind(deliverable, session_messages)
    checked = all_checked(analyses, criteria, (reviewed.get("content") or {}).get("body", ""))
    findings = review(reviewed, template.deliverable_sections if template else [], [] if checked else criteria)
    findings += [asdict(f) for f in checked.findings] if checked else []
    said, body, sections = _written(findings, checked, analyses)
    spec = f"the {template.name.lower()} template" if template else "no template"
    if checked:
        spec = f"the question it answers and {spec}"
    elif not template:
        spec += " (only sources and confidence checked)"
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {
            "format": "markdown",
            "body": f"# Review of {_report_words(deliverable)} against {spec}\n\n{body}",
            "sections": sections,
        },
        "supporting_materials": [
            {
                "type": "session_message",
                "citation": _report_words(deliverable),
                "relevance": f"message {deliverable.message_id}",
                "confidence_in_source": "high",
            }
        ],
        "assumptions_made": ["a section is present when a heading or section title names it"],
        "confidence_score": round(min((f["confidence"] for f in findings), default=0.8), 2),
        "uncertainties": [] if template else [{"aspect": "no template spec", "reason": "the plan named no template"}],
        "open_questions_for_human": _questions(findings),
        "provenance": {"behaviour": "reviewer", "review_of": deliverable.message_id, "verdict": said},
    }
    return run.post("review", "collaborative_response", payload, in_reply_to=deliverable.message_id)


def _written(
    findings: list[dict[str, Any]], checked: Checked | None, analyses: list[dict[str, Any]]
) -> tuple[str, str, list[dict[str, Any]]]:
    """The verdict, the review's text and its sections: one per finding, then what was checked and passed."""
    said = verdict(findings, checked)
    sections = [
        {"id": f"finding-{i}", "title": f["title"], "body": f["detail"], "confidence": f["confidence"]}
        for i, f in enumerate(findings, start=1)
    ]
    passed = ""
    if checked and checked.passed:
        passed = "Also checked, and fine: " + checked.summary.removeprefix("Checked: ") if findings else checked.summary
        sections.append({"id": "checked", "title": "What was checked", "body": f"{said} {passed}", "confidence": 0.8})
    questions = [f"“{a['provenance'].get('question')}”" for a in analyses]
    asked = f"The question{'s' if len(questions) > 1 else ''}: {', '.join(questions)}" if questions else ""
    listed = "\n".join(f"- **{f['title']}** ({f['confidence']}): {f['detail']}" for f in findings)
    return said, "\n\n".join(part for part in (said, asked, listed, passed) if part), sections


def _questions(findings: list[dict[str, Any]]) -> list[str]:
    kinds = {f["kind"] for f in findings}
    questions = ["Should the missing sections be added before approval?"] if "missing_section" in kinds else []
    if kinds & set(KINDS):
        questions.append("Should the analyst answer again, with the question read as you meant it?")
    return questions
