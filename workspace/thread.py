"""One message as the thread shows it: the partial that renders it (``workspace.traits``), what it is
for and what it answers in words, a report's heat and open questions, the decision on a plan or a
question, and where a report stands (current, replaced, declined)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.utils.dateparse import parse_datetime
from django.utils.html import escape

from sessions.chap import labels
from sessions.chap.decisions import decision
from sessions.chap.dependencies import waits
from sessions.chap.graph import CURRENT_ANSWER
from sessions.chap.tables import markdown_tables
from workspace.map_drawing import heat
from workspace.traits import THREAD_HIDDEN, VIEWS

if TYPE_CHECKING:
    import networkx as nx
    from networkx.classes.reportviews import NodeView


def _answers(graph: nx.DiGraph[str], node: str) -> list[str]:
    """What the answers to a question (or clarification) said, oldest first."""
    said = []
    for answer, _, data in graph.in_edges(node, data=True):
        if data["type"] == "answers":
            payload = graph.nodes[answer].get("answer") or {}
            option = graph.nodes.get(f"{graph.nodes[answer].get('asked', '')}#option:{payload.get('option_id')}", {})
            said.append((graph.nodes[answer]["seq"], payload.get("free_answer") or option.get("text", "")))
    return [text for _, text in sorted(said) if text]


def _answer_shown(payload: dict[str, Any], nodes: NodeView[str]) -> dict[str, Any]:
    """A clarification answer as a person reads it: the question it answers, and what it said."""
    asked = payload["clarification_message_id"]
    if payload.get("question_index") is not None:
        question = nodes.get(f"{asked}#question:{payload['question_index']}", {}).get("text", "")
    else:
        question = nodes.get(asked, {}).get("label", "")
    option = nodes.get(f"{asked}#option:{payload.get('option_id')}", {}).get("text", "")
    return {"question": question, "answer": payload.get("free_answer") or option}


# What the thread shows closed once a person decided it, with who decided and when.
DECIDED_IN_THREAD = frozenset({"clarification", "agent_capability_declaration"})


def _milestone_mark(envelope: dict[str, Any]) -> bool:
    """A checkpoint the workbench marked at a milestone: a point for History, not a turn in the thread."""
    return envelope["payload_type"] == "checkpoint" and str(envelope["sender"]["type"]) == "system"


# A report opens with its lead: its first section (the answer, the findings, what a review checked;
# for the current answer, the answer card above the thread shows it) and what changed since the
# version it replaces; the rest folds under one line that names it.
LEAD_SECTIONS = frozenset({"what-changed"})
REPORT_PARTS = (
    ("assumptions_made", "Assumptions"),
    ("uncertainties", "Uncertainties"),
    ("supporting_materials", "Sources"),
    ("next_step_recommendations", "Next steps"),
)


def _report_shown(
    payload: dict[str, Any], graph: nx.DiGraph[str], message_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A report as the thread shows it: its sections and itself with their heat (a table the session
    showed before folded under a link to it), the sources it cites, each once and those from the
    session named in words; and its open questions, each with whether it is still open, what
    its answers said and the decision on it."""
    nodes = graph.nodes
    sections = [
        {
            **s,
            "index": index,
            "heat": heat(s.get("confidence")),
            "body": _tables_once(s["body"], nodes.get(f"{message_id}#section:{s['id']}"), nodes),
        }
        for index, s in enumerate(payload["content"].get("sections") or [])
    ]
    # The current answer's own first section is what the answer card at the top of the page shows.
    shown_above = graph.graph.get(CURRENT_ANSWER) == message_id
    lead = [s for s in sections if (s["index"] == 0 and not shown_above) or s["id"] in LEAD_SECTIONS]
    more = [s for s in sections if s not in lead]
    content = {**payload["content"], "sections": sections, "lead": lead, "more": more}
    questions = []
    for index, text in enumerate(payload.get("open_questions_for_human") or []):
        node = f"{message_id}#question:{index}"
        answers = _answers(graph, node) if node in graph else []
        open_now = waits(nodes[node]) if node in graph else True
        dropped = bool(node in graph and nodes[node].get("dropped_by"))
        questions.append(
            {
                "index": index,
                "text": text,
                "open": open_now,
                "dropped": dropped,
                "answers": answers,
                "decision": decision(graph, node),
            }
        )
    asked = {q.get("index"): q for q in (payload.get("provenance") or {}).get("questions") or []}
    questions = [{**q, "details": (asked.get(q["index"]) or {}).get("details", "")} for q in questions]
    shown = {**payload, "heat": heat(payload.get("confidence_score")), "content": content}
    shown["supporting_materials"] = _sources(payload.get("supporting_materials") or [], nodes)
    shown["more"] = [s.get("title") or s["id"] for s in more] + [
        words for key, words in REPORT_PARTS if payload.get(key)
    ]
    shown["quoted"] = _quoted(graph, message_id, [str(s.get("id")) for s in sections])
    return shown, questions


def _sources(materials: list[dict[str, Any]], nodes: NodeView[str]) -> list[dict[str, Any]]:
    """The sources a report cites, each once (two that read the same are one line), those from the
    session named in words."""
    sources: dict[str, dict[str, Any]] = {}
    for material in materials:
        cited = str(material.get("citation", ""))
        if material.get("type") == "session_message" and cited in nodes:
            material = {**material, "shown": labels.message_label(nodes[cited])}
        sources.setdefault(str(material.get("shown") or cited), material)
    return list(sources.values())


def _anchor(section: dict[str, Any]) -> str:
    """The id of a report's section on the page (its message's place in the thread, its own in the report)."""
    return f"msg-{section['seq']}-section-{section['index']}"


def _tables_once(text: str, section: dict[str, Any] | None, nodes: NodeView[str]) -> str:
    """A section's text with each table the session showed before as one line that links where it
    was first shown (``ContextGraph`` notes them: the column profiles and descriptive statistics a
    redo or the written report repeats)."""
    repeats = (section or {}).get("repeats")
    if not repeats:
        return text
    for place, table in enumerate(markdown_tables(text)):
        first = nodes.get(repeats.get(place, ""))
        if first is not None:
            where = escape(labels.message_label(nodes.get(first["message"])))
            link = f'<a href="#{_anchor(first)}">{where}</a>'
            text = text.replace(table, f"<p>The same table as in {link}.</p>", 1)
    return text


def _quoted(graph: nx.DiGraph[str], message_id: str, section_ids: list[str]) -> list[dict[str, Any]]:
    """The spans of a report that feedback quoted, oldest first: the words, where they start in their
    section's (or the report's) text, and the feedback in words with its place in the thread."""
    nodes = graph.nodes
    quoted = []
    for target in (message_id, *(f"{message_id}#section:{sid}" for sid in section_ids)):
        if target not in graph:
            continue
        for source, _, data in graph.in_edges(target, data=True):
            part = json.loads(data.get("part") or "{}") if data["type"] == "targets" else {}
            if part.get("kind") == "quote" and part.get("quote"):
                quoted.append(
                    {
                        "seq": nodes[source]["seq"],
                        "quote": part["quote"],
                        "start": part.get("start", ""),
                        "section": part.get("id", ""),
                        "by": labels.message_label(nodes[source]),
                    }
                )
    return sorted(quoted, key=lambda mark: mark["seq"])


def thread_entry(seq: int, envelope: dict[str, Any], graph: nx.DiGraph[str]) -> dict[str, Any] | None:
    """One message as the thread shows it (None for those it leaves to the status bar), with the
    ``partial`` that renders its payload: ``kind`` says what it is for and ``about`` names the message
    it answers or gives feedback on, in words; each question of a report says whether it is still
    open, and what its answers said. ``graph`` is the context graph's networkx graph."""
    if envelope["payload_type"] in THREAD_HIDDEN or _milestone_mark(envelope):
        return None
    nodes, message_id = graph.nodes, envelope["message_id"]
    payload = envelope["payload"]
    if envelope["payload_type"] == "collaborative_response":
        payload, questions = _report_shown(payload, graph, message_id)
    else:
        questions = []
    summary = payload.get("activity") or payload.get("label") or payload.get("text") or payload.get("operation") or ""
    kind = labels.payload_label(envelope["payload_type"])
    if envelope["payload_type"] == "human_feedback":
        kind = labels.feedback_label(payload["feedback_type"])
    about = payload.get("target_message_id") or payload.get("clarification_message_id")
    standing = _standing(graph, message_id)
    return {
        **envelope,
        "seq": seq,
        "payload": payload,
        "partial": VIEWS[envelope["payload_type"]].template,
        "summary": summary,
        "kind": kind,
        "about": labels.message_label(nodes.get(about)) if about else "",
        "questions": questions,
        "steps": [{**step, "uncovered": None} for step in payload.get("proposed_plan") or []],
        "template_name": labels.template_label(payload.get("template")),
        **(_answer_shown(payload, nodes) if envelope["payload_type"] == "clarification_answer" else {}),
        "answered": _answers(graph, message_id) if envelope["payload_type"] == "clarification" else [],
        "dropped": bool(nodes[message_id].get("dropped_by")) if message_id in nodes else False,
        "decision": decision(graph, message_id) if envelope["payload_type"] in DECIDED_IN_THREAD else None,
        "when": parse_datetime(envelope["timestamp"].replace("Z", "+00:00")),
        **standing,
        "words": _words(kind, envelope["sender"], standing),
    }


def _words(kind: str, sender: dict[str, str], standing: dict[str, Any]) -> str:
    """A message as the feedback panel names its target: whose, which version, where it stands."""
    words = f"the {kind} from {labels.sender_label(sender)}"
    if standing["version"]:
        words += f", version {standing['version']}"
    if standing["current"]:
        return words + " (the current answer)"
    return words + (" (superseded by a newer version)" if standing["replaced_by"] else "")


def _standing(graph: nx.DiGraph[str], message_id: str) -> dict[str, Any]:
    """Where a report stands: the session's current answer, replaced by a newer version (which, by
    its place in the thread, and in words), an analysis written up in a report that repeats it (which),
    or declined feedback; nothing for the rest."""
    node = graph.nodes.get(message_id) or {}
    newer = node.get("superseded_by")
    return {
        "current": graph.graph.get(CURRENT_ANSWER) == message_id,
        "replaced_by": graph.nodes[newer]["seq"] if newer else None,
        "replaced_how": _redo(graph, newer) if newer else "",
        "written_up_in": graph.nodes[node["written_up_in"]]["seq"] if node.get("written_up_in") and not newer else None,
        "declined_by": labels.sender_label(node["declined_by"]) if node.get("declined_by") else "",
        "version": node.get("version", 1) if newer or node.get("supersedes") else None,
    }


def _redo(graph: nx.DiGraph[str], newer: str) -> str:
    """The version that replaced a report, in words: "the redo after alice's correction" when a
    person's feedback led to it (it replies to the feedback, or to a report that does: a review of the
    report written again), else "a newer version"."""
    reply: str | None = newer
    for _ in range(3):
        reply = next((to for _, to, data in graph.out_edges(reply, data=True) if data["type"] == "responds_to"), None)
        if reply is None:
            break
        node = graph.nodes[reply]
        if node.get("feedback_type") and str(node.get("sender")).startswith("human:"):
            return (
                f"the redo after {labels.sender_label(node['sender'])}'s {labels.feedback_label(node['feedback_type'])}"
            )
    return "a newer version"
