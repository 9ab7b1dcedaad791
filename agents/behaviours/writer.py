"""The built-in writer: the deliverable its task template names, written from the analysis it hands off from.

It reads the structured results of the analysis (the analyst's findings, comparisons, sections,
sources, assumptions and uncertainties, from its collaborative_response) and writes each section
the template's spec asks for, with that section's own confidence. Without a language model it
writes plain templated prose from those results and says where the analysis has nothing to say
(agents/behaviours/templated_prose.py); when its agent has an LLM endpoint set, the model rewrites
each section for the readers, and a section whose rewrite states a number the analysis does not
contain keeps the templated prose.
Nothing of the session's raw context goes in: no message ids, no logs, no attached files.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from agents.behaviours.answers import STALE, answers_of, headline_lines, stale
from agents.behaviours.llm import LlmFailure, chat_stream
from agents.behaviours.reading import feedback_text, proposal_behind
from agents.behaviours.templated_prose import Answer, Handoff, Prose, kind_of
from agents.runtime import TaskRun
from agents.sap import Block

CAN_DO = [
    {
        "action": "write the deliverable a task template names from the analysis it follows",
        "scope": "the analysis's findings, figures, sources, assumptions and uncertainties in this session",
        "limitation": "writes up what the analysis found; it adds no figures and checks none",
    }
]
CANNOT_DO = ["research outside the session", "analyse data", "decide anything"]
DEFAULT_SPEC = [
    {"title": "Summary", "description": "the answer in a paragraph"},
    {"title": "Findings", "description": "what was found, figure by figure"},
    {"title": "Method", "description": "which data, which queries, which choices"},
    {"title": "Limitations", "description": "what the data cannot tell"},
]
ANSWER = {"title": "Answer", "description": "the answer to each question asked, with its figure"}
# The order a report reads in: the answer, then the evidence behind it, then the rest in the spec's order.
READING_ORDER = {"summary": 0, "findings": 1, "statistics": 2, "profiles": 3}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# What no report may carry: message ids, the session's storage names, encoded files.
LEAK = re.compile(r"\b(?:msg_[0-9a-f]{6,}|task\d+-\w+|s_[0-9a-f]{6,}__\w+)\b|[A-Za-z0-9+/]{60,}={0,2}")


def leaks(text: str) -> bool:
    """Whether text carries what a report must not: an id, an internal table name, an encoded file."""
    return bool(LEAK.search(text or ""))


def _analysis_of(run: TaskRun, earlier: dict[str, Any] | None) -> dict[str, Any] | None:
    """The analysis this writing hands off from: the one it wrote from before (when redone), the result
    of the step it follows, or else the latest analysis in the session."""
    stated = ((earlier or {}).get("payload") or {}).get("provenance") or {}
    used = run.message(stated.get("from_message_id"))
    if used is not None:  # written again: from the same analyst's latest analysis, redone or not
        return _analyses(run, used["sender"]["id"])[-1]
    for before in run.task.depends_on.exclude(result_message_id="").order_by("-plan_step", "-pk"):
        envelope = run.message(before.result_message_id)
        if envelope and envelope["payload_type"] == "collaborative_response":
            return envelope
    analyses = _analyses(run)
    return analyses[-1] if analyses else None


def _analyses(run: TaskRun, by: str | None = None) -> list[dict[str, Any]]:
    """The session's analyses (reports that carry their findings), oldest first, of one agent or all."""
    return [
        m
        for m in run.messages("collaborative_response")
        if m["sender"]["type"] == "agent"
        and (by is None or m["sender"]["id"] == by)
        and "findings" in (m["payload"].get("provenance") or {})
    ]


def _spec_of(
    run: TaskRun, source: dict[str, Any] | None, earlier: dict[str, Any] | None
) -> tuple[str, list[dict[str, Any]]]:
    """The template's name and its deliverable sections, from the plan the task came from."""
    from agents.models import TaskTemplate

    slug = _provenance(earlier).get("template", "")
    if not slug and source and source["payload_type"] == "agent_capability_declaration":
        slug = source["payload"].get("template", "")
    template = TaskTemplate.objects.filter(slug=slug).values("slug", "deliverable_sections").first() if slug else None
    if template and template["deliverable_sections"]:
        return template["slug"], template["deliverable_sections"]
    return "", DEFAULT_SPEC


def _rewritten(
    run: TaskRun, goal: str, sections: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The sections as the agent's model rewrites them for the readers; a rewrite that adds a number
    or carries an id keeps the templated text. Returns the sections and what was kept back and why."""
    agent = run.agent
    facts = [{"title": s["title"], "text": s["body"]} for s in sections]
    messages = [
        {
            "role": "system",
            "content": "You write reports for busy readers. Rewrite each section in clear prose. Keep every "
            "number exactly as given and add none; keep Markdown tables and <details> blocks as they are. Answer "
            'with one JSON object: {"sections": [{"title": …, "body": …}, …]} in the same order.',
        },
        {"role": "user", "content": json.dumps({"question": goal, "sections": facts}, ensure_ascii=False)},
    ]
    text = []
    for delta, usage in chat_stream(
        base_url=agent.llm_base_url,
        model=agent.llm_model,
        api_key=os.environ.get(agent.llm_api_key_env) if agent.llm_api_key_env else None,
        messages=messages,
        timeout_s=120,
    ):
        text.append(delta)
        if usage:
            run.llm_tokens += int(usage.get("total_tokens") or 0)
    try:
        found = re.search(r"\{.*\}", "".join(text), re.S)
        if found is None:
            raise ValueError("no JSON object in the rewrite")
        answer = json.loads(found.group(0))
        bodies = [str(s["body"]) for s in answer["sections"]]
    except (AttributeError, ValueError, KeyError, TypeError):
        return sections, [{"aspect": "the model's rewrite could not be read", "reason": "it was not the JSON asked"}]
    kept_back, out = [], []
    for section, body in zip(sections, bodies + [None] * len(sections), strict=False):
        allowed = set(NUMBER.findall(section["body"]))
        added = set(NUMBER.findall(body or "")) - allowed
        if body is None or added or leaks(body):
            why = f"it stated {', '.join(sorted(added)[:5])}, which the analysis does not" if added else "no text"
            kept_back.append({"aspect": f"“{section['title']}” is the templated text", "reason": f"the rewrite: {why}"})
            out.append(section)
        else:
            out.append({**section, "body": body})
    return out, kept_back


def _earlier_of(run: TaskRun, source: dict[str, Any]) -> dict[str, Any] | None:
    """This writer's report that the task writes again: the one a person corrected, or, when the analysis
    it followed was redone, its latest deliverable."""
    if feedback_text(source):
        earlier = run.message(source["payload"].get("target_message_id"))
        return earlier if earlier and earlier["sender"]["id"] == run.agent.name else None
    if _redone_analysis(run, source):
        written = [m for m in run.own_messages("collaborative_response") if _provenance(m).get("deliverable")]
        return written[-1] if written else None
    return None


def _follows_a_question(run: TaskRun) -> bool:
    """Whether the plan step this task follows ended in a clarification (the analyst asks which reading
    is meant, or for the data) rather than in an analysis."""
    before = run.task.depends_on.exclude(result_message_id="").order_by("-plan_step", "-pk").first()
    ended_in = run.message(before.result_message_id) if before else None
    return bool(ended_in and ended_in["payload_type"] == "clarification")


def _redone_analysis(run: TaskRun, source: dict[str, Any]) -> bool:
    return bool(source["payload_type"] == "collaborative_response" and source["sender"]["id"] != run.agent.name)


def _provenance(envelope: dict[str, Any] | None) -> dict[str, Any]:
    return ((envelope or {}).get("payload") or {}).get("provenance") or {}


def _what_changed(
    run: TaskRun, source: dict[str, Any], earlier: dict[str, Any] | None, analysis: dict[str, Any] | None, by: str
) -> dict[str, Any] | None:
    """The section that follows the answer of a report written again: after whose request, each answer
    whose headline moved (and each question new since), and whether the figures moved."""
    correction = feedback_text(source)
    headlines = [f"- {line}" for line in headline_lines(_answers_before(run, earlier), answers_of(analysis))]
    if _redone_analysis(run, source):
        if earlier is None:  # written for the first time, once the analysis it waited for came
            return None
        behind = run.message(source.get("in_reply_to"))
        correction = feedback_text(behind)
        kind = str(((behind or {}).get("payload") or {}).get("feedback_type", "correction")).replace("_", " ")
        said = f" after the {kind} “{correction}”" if correction else ""
        lines = [f"Written again from the analysis {by} redid{said}: every figure below is from the new analysis."]
        lines += ["", *headlines] if headlines else []
        return {"id": "what-changed", "title": "What changed", "body": "\n".join(lines)}
    if not correction:
        return None
    before = _provenance(earlier).get("from_message_id")
    newer = analysis is not None and before and analysis["message_id"] != before
    lines = [f"Written again after the correction: {correction}", "", *headlines]
    lines.append(
        "- The figures come from the analysis as it was redone since."
        if newer
        else f"- I write up the analysis; I do not change its figures. If the correction asks for other "
        f"figures, give it to {by or 'the analyst'} on its report, and I will write from the new one."
    )
    return {"id": "what-changed", "title": "What changed", "body": "\n".join(lines)}


def writer(run: TaskRun) -> str:
    """The deliverable of the task's template, from the analysis it follows, each section with its confidence.
    Nothing while the step it follows waits for a person's answer: the analysis that answer brings
    sets this step off again (agents.reactions.carry_forward)."""
    if _follows_a_question(run):
        return ""
    source = run.message(run.task.source_message_id)
    earlier = _earlier_of(run, source) if source else None
    analysis = source if source and _redone_analysis(run, source) else _analysis_of(run, earlier)
    handoff = Handoff(analysis, _answers(run, analysis))
    proposal = proposal_behind(run, analysis or source)
    goal = proposal["payload"]["goal"] if proposal else ""
    template, spec = _spec_of(run, source, earlier)
    sections, uncertainties = _sections(run, handoff, goal, spec)
    changed = _what_changed(run, source, earlier, analysis, handoff.by) if source else None
    if changed is not None:
        sections.insert(1, changed)
    title = f"# {goal.strip() or run.task.title}"
    body = title + "\n\n" + "\n\n".join(f"## {s['title']}\n\n{s['body']}" for s in sections) + "\n"
    path = f"reports/task-{run.task.pk}.md"
    saved = _saved(run, path, body, uncertainties)
    rated = [s["confidence"] for s in sections if "confidence" in s]
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": body, "sections": sections},
        "supporting_materials": _materials(handoff, path if saved else None),
        "assumptions_made": ["the analysis it follows is the one to write up", *handoff.assumptions],
        "confidence_score": _overall(rated, handoff),
        "uncertainties": uncertainties + handoff.uncertainties,
        "open_questions_for_human": []
        if handoff.found
        else ["There is no analysis to write up yet: which data should be analysed first?"],
        "provenance": {
            "behaviour": "writer",
            "template": template,
            "deliverable": True,
            "from_message_id": (analysis or {}).get("message_id", ""),
            **({"model": run.agent.llm_model} if run.agent.llm_base_url and run.agent.llm_model else {}),
        },
    }
    return run.post("report", "collaborative_response", payload, in_reply_to=_replying_to(run, source, analysis))


def _answers(run: TaskRun, analysis: dict[str, Any] | None) -> list[Answer]:
    """Every question the session asked, each with the Findings of the analyst's report that answers it now."""
    answers, entries = [], answers_of(analysis)
    for entry in entries:
        report = analysis if analysis and entry["report"] == analysis["message_id"] else run.message(entry["report"])
        sections = (((report or {}).get("payload") or {}).get("content") or {}).get("sections") or []
        findings = next((s for s in sections if s["id"] == "findings"), None)
        findings = findings or {"body": entry["lead"], "confidence": entry["confidence"]}
        answers.append(Answer(entry["asked"], findings, STALE if stale(entry, entries) else ""))
    return answers


def _answers_before(run: TaskRun, earlier: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The questions and answers of the analysis an earlier written report was written from."""
    return answers_of(run.message(_provenance(earlier).get("from_message_id")))


def _overall(rated: list[float], handoff: Handoff) -> float:
    """The report's confidence: the mean of its sections', never above the analyst's overall."""
    mean = sum(rated) / len(rated)
    return round(min(mean, float(handoff.confidence)) if handoff.confidence is not None else mean, 2)


def _in_reading_order(spec: list[dict[str, Any]], handoff: Handoff) -> list[dict[str, Any]]:
    """The spec's sections with the answer first (an Answer section when the spec has none), then the
    evidence, then the rest (method, limitations...) in the spec's order."""
    answered = any(kind_of(part) == "summary" for part in spec)
    parts = spec if answered or not handoff.found else [ANSWER, *spec]
    return sorted(parts, key=lambda part: READING_ORDER.get(kind_of(part) or "", 4))


def _sections(
    run: TaskRun, handoff: Handoff, goal: str, spec: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each section of the spec in templated prose, answer first, rewritten by the agent's model when it
    has one; and what the writer is unsure of (a rewrite kept back, a model that did not answer)."""
    prose = Prose(handoff, goal)
    sections = []
    for index, part in enumerate(_in_reading_order(spec, handoff)):
        body, confidence = prose(kind_of(part), part)
        sections.append({"id": f"s{index + 1}", "title": part["title"], "body": body, "confidence": confidence})
    uncertainties: list[dict[str, Any]] = []
    if handoff.found and run.agent.llm_base_url and run.agent.llm_model:
        try:
            sections, uncertainties = _rewritten(run, goal, sections)
        except LlmFailure as failure:
            uncertainties.append(
                {"aspect": "written without the model", "reason": failure.error.message, "suggestion": "try again"}
            )
    return sections, uncertainties


def _saved(run: TaskRun, path: str, body: str, uncertainties: list[dict[str, Any]]) -> bool:
    """Save the report into the workspace with the agent's own rights; a refusal becomes an uncertainty."""
    [written] = run.sap(Block("action", "file.write", "w", {"path": path, "content": body, "overwrite": False}))
    saved = written.type == "result" or written.body.get("code") == "RESOURCE_ALREADY_EXISTS"
    if not saved:
        uncertainties.append(
            {
                "aspect": "the report is not in the workspace",
                "reason": f"saving it was refused: {written.body.get('message')}",
                "suggestion": "allow file.write for this agent, or copy the report from this message",
            }
        )
    return saved


def _materials(handoff: Handoff, path: str | None) -> list[dict[str, Any]]:
    """What the report rests on: the analysis, and where the report was saved."""
    analysis = [{"type": "analysis", "citation": f"the analysis by {handoff.by}", "confidence_in_source": "high"}]
    saved = [{"type": "workspace_file", "citation": path, "relevance": "the report, for the next step"}]
    return (analysis if handoff.found else []) + (saved if path is not None else [])


def _replying_to(run: TaskRun, source: dict[str, Any] | None, analysis: dict[str, Any] | None) -> str | None:
    """The person's correction when the report is written again because of one, else the analysis."""
    if source and feedback_text(source):
        return str(source["message_id"])
    if source and _redone_analysis(run, source):
        behind = run.message(source.get("in_reply_to"))
        return str((behind if behind is not None and feedback_text(behind) else source)["message_id"])
    replied: str | None = (analysis or source or {}).get("message_id")
    return replied
