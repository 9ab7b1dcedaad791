"""History review in plain Python: the context graph as of any message, and what changed between two.

The graph is never stored per version: the log is the history, and replaying it up to a message gives
the graph exactly as it stood then (statuses included, since they are derived from the messages).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from networkx.classes.reportviews import NodeView

from sessions.chap.graph import ContextGraph
from sessions.chap.labels import feedback_label, message_label, report_title, sender_label
from sessions.chap.summary import is_decision
from sessions.chap.traits import FOLDED_WORDS

# The log's machinery and its milestones: counted in one folded line of a difference, not listed.
MACHINERY_WORDS = {**FOLDED_WORDS, "checkpoint": ("checkpoint", "checkpoints")}


def statuses(context: ContextGraph) -> dict[str, str]:
    return {node: attrs["status"] for node, attrs in context.graph.nodes(data=True)}


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a graph is built: a replay allocates tens of
    thousands of small objects that all stay alive, and each collection would rescan the growing
    heap for nothing (at 10,000 messages that doubled the time; bench/history.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def replay(session_id: str, messages: Iterable[tuple[int, dict[str, Any]]], *, until: int) -> ContextGraph:
    """The graph after message ``until`` (0 is the empty session), from ``(seq, envelope)`` in order."""
    context = ContextGraph(session_id)
    with collection_paused():
        for seq, envelope in messages:
            if seq > until:
                break
            context.apply(seq, envelope)
    return context


def spoken(node: str, attrs: dict[str, Any]) -> str:
    """A node as a person names it in a difference: reports by their title and author, a person's
    feedback by its kind and author, steps by their number; never a message id."""
    kind, label = attrs["kind"], attrs.get("label", "")
    who = sender_label(attrs.get("sender", ""))
    if kind == "collaborative_response":
        return f"{report_title(attrs.get('text', '')) or label} (by {who})"
    if kind == "human_feedback" and attrs.get("feedback_type"):
        said = f": {attrs['text']}" if attrs.get("text") else ""
        suggested = " suggested" if attrs.get("suggestion") else ""
        return f"{feedback_label(attrs['feedback_type']).capitalize()}{suggested} by {who}{said}"
    if kind == "step":
        return f"{node.rpartition(':')[2]}. {label}"
    return str(label)


def _brief(node: str, attrs: dict[str, Any], nodes: NodeView[str]) -> dict[str, Any]:
    """A node as the difference lists it; ``cause_label`` names the message that set its status."""
    events = attrs.get("events") or []
    cause = events[-1][0] if events else None
    return {
        "node": node,
        "kind": attrs["kind"],
        "label": spoken(node, attrs),
        "status": attrs["status"],
        "seq": attrs["seq"],
        "sender": attrs.get("sender", ""),
        "cause": cause,
        "cause_label": message_label(nodes.get(cause)) if cause else "",
    }


def difference(before: dict[str, str], after: ContextGraph) -> dict[str, Any]:
    """What happened between two versions: the nodes added (the log's machinery only counted, in
    ``machinery``: words -> the labels of those added); the decisions taken (approvals, corrections, new
    directions) and what they settled; what was overturned or put in review.
    ``before`` is the earlier version's statuses (``statuses``), ``after`` the later graph."""
    added, decisions, settled, overturned, review = [], [], [], [], []
    machinery: dict[str, list[str]] = {}
    for node, attrs in after.graph.nodes(data=True):
        was, status = before.get(node), attrs["status"]
        if was is None and attrs["kind"] in MACHINERY_WORDS:
            machinery.setdefault(attrs["kind"], []).append(attrs.get("label", ""))
            continue
        if was is None:
            added.append(_brief(node, attrs, after.graph.nodes))
            if is_decision(attrs):
                decisions.append({**_brief(node, attrs, after.graph.nodes), "type": attrs["feedback_type"]})
        if status == was:
            continue
        if status == "done" and attrs["events"]:
            settled.append(_brief(node, attrs, after.graph.nodes))
        elif status == "overturned":
            overturned.append(_brief(node, attrs, after.graph.nodes))
        elif status == "needs_review":
            review.append(_brief(node, attrs, after.graph.nodes))
    return {
        "added": added,
        "machinery": [
            (f"{len(labels)} {MACHINERY_WORDS[kind][len(labels) != 1]}", labels) for kind, labels in machinery.items()
        ],
        "decisions": decisions,
        "settled": settled,
        "overturned": overturned,
        "needs_review": review,
    }
