"""The context an agent receives for a task, within a token budget (against context explosion).

Token estimate: every CJK character counts as one token, and other text as one token per four
characters, rounded up. It errs on the generous side for English and matches CJK tokenisers
closely, which is what keeping under a budget needs.

What goes in, in this order, until the budget is spent:
1. the goal and its constraints;
2. every open question, pending decision and node that needs review (always, whatever the budget);
3. the latest checkpoint summary;
4. the active task's own thread in full (newest first when it must be cut);
5. older messages ranked by BM25 relevance to the task.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from rank_bm25 import BM25Okapi

from sessions.chap.graph import ContextGraph

DEFAULT_BUDGET = 4000
MESSAGE_TOKEN_CAP = 1200
ATTENTION_SHARE = 0.5  # open questions may take half the budget before each is shortened
QUESTION_CUT = 60
MIN_LINE_TOKENS = 5  # a line's "[seq id sender type]" header alone costs this much: below it, stop looking
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|[A-Za-z0-9_]+")


def estimate_tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


def message_text(envelope: dict[str, Any]) -> str:
    """The readable core of a message, for prompts and search."""
    payload = envelope["payload"]
    kind = envelope["payload_type"]
    if kind == "collaborative_response":
        parts = [payload["content"]["body"]]
        parts += [f"Assumption: {a}" for a in payload.get("assumptions_made") or []]
        parts += [f"Question: {q}" for q in payload.get("open_questions_for_human") or []]
        return "\n".join(parts)
    if kind == "human_feedback":
        instructions = " ".join(str(v) for v in (payload.get("specific_instructions") or {}).values())
        context = payload.get("provided_context", "")
        return f"{payload['feedback_type']} on {payload['target_message_id']}: {instructions} {context}"
    if kind == "task_proposal":
        goal: str = payload["goal"]
        return goal
    if kind == "agent_capability_declaration":
        return "; ".join(f"{s['step']}. {s['action']}" for s in payload.get("proposed_plan") or [])
    for key in ("question", "activity", "text", "message", "label", "free_answer"):
        if isinstance(value := payload.get(key), str):
            return value
    return json.dumps(payload, ensure_ascii=False)


def _line(seq: int, envelope: dict[str, Any]) -> str:
    sender = envelope["sender"]
    text = message_text(envelope)
    limit = MESSAGE_TOKEN_CAP * 4
    if estimate_tokens(text) > MESSAGE_TOKEN_CAP:
        text = text[:limit] if not _CJK.search(text) else text[:MESSAGE_TOKEN_CAP]
        text += " …"
    return f"[{seq} {envelope['message_id']} {sender['type']}:{sender['id']} {envelope['payload_type']}] {text}"


def build_agent_context(
    graph: ContextGraph,
    messages: list[tuple[int, dict[str, Any]]],
    *,
    task_message_id: str | None = None,
    budget: int = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """``messages`` are the session's ``(seq, envelope)`` in order; returns the text and what it holds."""
    by_id = {envelope["message_id"]: (seq, envelope) for seq, envelope in messages}
    parts: list[tuple[str, str]] = []
    included: list[str] = []

    proposal = next((env for _, env in reversed(messages) if env["payload_type"] == "task_proposal"), None)
    if proposal is not None:
        parts.append(("goal", _goal(proposal["payload"])))
        included.append(proposal["message_id"])

    attention = _attention(graph, budget)
    if attention:
        parts.append(("attention", attention))

    used = sum(estimate_tokens(text) + 1 for _, text in parts)

    checkpoint = next((pair for pair in reversed(messages) if pair[1]["payload_type"] == "checkpoint"), None)
    if checkpoint is not None:
        text = _checkpoint(checkpoint[1]["payload"])
        if used + estimate_tokens(text) <= budget:
            parts.append(("checkpoint", text))
            used += estimate_tokens(text) + 1
            included.append(checkpoint[1]["message_id"])

    thread = sorted(_thread(task_message_id, by_id, messages), key=lambda pair: -pair[0])
    thread_lines, cost = _fit(thread, budget - used, contiguous=True)
    used += cost
    included += [message_id for message_id, _, _ in thread_lines]
    if thread_lines:
        parts.append(("thread", "THIS TASK'S THREAD:\n" + _in_order(thread_lines)))

    taken = set(included)
    rest = [
        (seq, env) for seq, env in messages if env["message_id"] not in taken and env["payload_type"] != "agent_status"
    ]
    if rest and used < budget:
        query = message_text(by_id[task_message_id][1]) if task_message_id in by_id else ""
        query += " " + (proposal["payload"]["goal"] if proposal else "")
        related, cost = _fit(_ranked(query, rest), budget - used, contiguous=False)
        used += cost
        included += [message_id for message_id, _, _ in related]
        if related:
            parts.append(("related", "RELATED EARLIER MESSAGES:\n" + _in_order(related)))

    text = "\n\n".join(body for _, body in parts)
    return {
        "text": text,
        "tokens": estimate_tokens(text),
        "budget": budget,
        "messages": included,
        "sections": [name for name, _ in parts],
    }


def _goal(proposal: dict[str, Any]) -> str:
    """The task proposal's goal, constraints and success criteria."""
    constraints = ", ".join(f"{k}: {v}" for k, v in (proposal.get("constraints") or {}).items())
    criteria = "; ".join(proposal.get("success_criteria") or [])
    return f"GOAL: {proposal['goal']}\nCONSTRAINTS: {constraints or 'none'}\nSUCCESS: {criteria or 'none'}"


def _checkpoint(checkpoint: dict[str, Any]) -> str:
    """A checkpoint's summary: the decisions taken and the plan's steps with their status."""
    summary = checkpoint.get("summary") or {}
    lines = [f"CHECKPOINT {checkpoint['label']} (at message {summary.get('seq')}):"]
    lines += [
        f"- decided: {d['type']} of {d['target']} {d.get('instruction', '')}".rstrip()
        for d in summary.get("decisions", [])
    ]
    lines += [f"- step {p['step']} {p['status']}: {p['label']}" for p in summary.get("plan", [])]
    return "\n".join(lines)


def _fit(
    candidates: Iterable[tuple[int, dict[str, Any]]], room: int, *, contiguous: bool
) -> tuple[list[tuple[str, int, str]], int]:
    """Message lines, in the candidates' order, while they fit in ``room`` tokens: ``(id, seq, line)``
    and their cost. ``contiguous`` stops at the first that does not fit; otherwise smaller ones later
    may still fill the room."""
    taken: list[tuple[str, int, str]] = []
    used = 0
    for seq, envelope in candidates:
        if room - used < MIN_LINE_TOKENS:
            break
        line = _line(seq, envelope)
        cost = estimate_tokens(line) + 1
        if used + cost > room:
            if contiguous:
                break
            continue
        taken.append((envelope["message_id"], seq, line))
        used += cost
    return taken, used


def _in_order(lines: list[tuple[str, int, str]]) -> str:
    return "\n".join(line for _, _, line in sorted(lines, key=lambda item: item[1]))


def _attention(graph: ContextGraph, budget: int) -> str:
    """Open questions and pending decisions in full; what needs review by id, grouped per message
    so that a long session's review list stays short."""
    questions: list[str] = []
    pending: list[str] = []
    review: dict[str, list[str]] = {}
    for node, attrs in graph.graph.nodes(data=True):
        status = attrs["status"]
        if status == "open":
            questions.append(f"- {node}: {attrs.get('text') or attrs.get('label', '')}")
        elif status == "needs_review":
            review.setdefault(attrs["message"], []).append(node)
        elif attrs["kind"] == "step" and attrs.get("requires_approval") and status != "done":
            pending.append(f"- {node} (needs a human's approval): {attrs.get('label', '')}")
    blocks = []
    if questions:
        if sum(map(estimate_tokens, questions)) > ATTENTION_SHARE * budget:
            # Many open questions: every one stays listed, each cut to its start.
            questions = [
                question[:QUESTION_CUT] + "…" if len(question) > QUESTION_CUT else question for question in questions
            ]
        blocks.append("OPEN QUESTIONS:\n" + "\n".join(questions))
    if pending:
        blocks.append("PENDING DECISIONS:\n" + "\n".join(pending))
    if review:
        grouped = [
            message
            if len(nodes) == 1 and nodes[0] == message
            else f"{message} (+{len(nodes) - (message in nodes)} parts)"
            for message, nodes in review.items()
        ]
        blocks.append("NEEDS REVIEW: " + ", ".join(grouped))
    return "\n".join(blocks)


def _thread(
    task_message_id: str | None,
    by_id: dict[str, tuple[int, dict[str, Any]]],
    messages: list[tuple[int, dict[str, Any]]],
) -> list[tuple[int, dict[str, Any]]]:
    """The task message, what it replies to (transitively), and the replies to it."""
    if task_message_id not in by_id:
        return []
    chain: list[tuple[int, dict[str, Any]]] = []
    current: str | None = task_message_id
    while current in by_id and len(chain) < 1000:
        chain.append(by_id[current])
        current = by_id[current][1].get("in_reply_to")
    replies = [pair for pair in messages if pair[1].get("in_reply_to") == task_message_id]
    return chain + replies


def _tokens(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def _ranked(query: str, candidates: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    corpus = [_tokens(message_text(envelope)) or ["_"] for _, envelope in candidates]
    scores = BM25Okapi(corpus).get_scores(_tokens(query) or ["_"])
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], -candidates[i][0]))
    return [candidates[i] for i in order]
