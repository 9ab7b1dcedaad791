"""One node of the decision map, opened: its content, who and when, its edges in words, the statuses
messages gave it, and what the fold (``sessions.chap.layout``) put into it."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from sessions.chap.graph import CURRENT_ANSWER, ContextGraph
from sessions.chap.labels import message_label
from sessions.chap.layout import MapLayout
from sessions.chap.traits import FOLDED_WORDS
from workspace.map_drawing import describe

EDGE_WORDS = {
    "responds_to": "replies to",
    "part_of": "part of",
    "decomposes": "breaks down",
    "fulfils": "result of",
    "assumes": "assumes",
    "cites": "cites",
    "answers": "answers",
    "depends_on": "depends on",
    "produced_by": "asked by",
    "targets": "about",
    "overturns": "overturns",
    "approves": "approves",
    "schedules": "schedules",
}
HEADING_CHARS = 60  # a node's heading is its label up to here; the whole label follows when longer
# Folded parts whose plural is not their kind plus "s".
IRREGULAR_WORDS = {"uncertainty": ("uncertainty", "uncertainties"), "criterion": ("criterion", "success criteria")}


def _ends(
    context: ContextGraph, layout: MapLayout, key: str, pairs: Iterable[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The visible nodes at the other end of ``key``'s edges, once per node and edge type."""
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for other, data in pairs:
        shown = layout.rep.get(other)
        if shown and shown != key and (shown, data["type"]) not in seen:
            seen.add((shown, data["type"]))
            index = layout.placed[shown].index
            words = EDGE_WORDS.get(data["type"], data["type"])
            found.append({"type": words, "index": index, "label": describe(context, layout, shown)[1]})
    return found


def _folded_groups(context: ContextGraph, layout: MapLayout, key: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """What folded into ``key``, grouped by kind in words (the plural), the largest group first."""
    nodes = context.graph.nodes
    groups: dict[str, list[dict[str, Any]]] = {}
    for item in layout.folded.get(key, ()):
        item_attrs = nodes[item]
        kind = item_attrs["kind"]
        words = (FOLDED_WORDS.get(kind) or IRREGULAR_WORDS.get(kind) or ("", kind.replace("_", " ") + "s"))[1]
        groups.setdefault(words, []).append(
            {
                "label": item_attrs.get("label", ""),
                "text": item_attrs.get("text", ""),
                "seq": item_attrs["seq"],
                "status": item_attrs["status"],
                "outcome": item_attrs.get("outcome", ""),
            }
        )
    return sorted(groups.items(), key=lambda group: -len(group[1]))


def node_details(context: ContextGraph, layout: MapLayout, index: int) -> dict[str, Any] | None:
    """One placed node: its content, who and when, its edges, the message it came from, the statuses
    messages gave it, and what folded into it. ``layout`` must be up to date with ``context``."""
    key = layout.node(index)
    if key is None:
        return None
    nodes = context.graph.nodes
    attrs = nodes[key]
    message = nodes.get(attrs["message"], {})
    kind_word, label = describe(context, layout, key)
    later = layout.rep.get(attrs.get("superseded_by") or "")
    text = attrs.get("text", "")
    heading = textwrap.shorten(label, HEADING_CHARS, placeholder=" …")
    return {
        "index": index,
        "key": key,
        "kind": attrs["kind"],
        "kind_word": kind_word,
        "status": layout.status(context, key),
        "label": label,
        "heading": heading,
        # the whole label below a shortened heading, unless the text shown below it says it all
        "full_label": label if heading != " ".join(label.split()) and not (text and text in label) else "",
        "superseded": bool(attrs.get("superseded_by")),
        "superseded_by": describe(context, layout, later)[1] if later else "",
        "current": context.graph.graph.get(CURRENT_ANSWER) == key,
        "text": text,
        "brief": attrs.get("brief"),
        "confidence": attrs.get("confidence"),
        "message_id": attrs["message"],
        "seq": attrs["seq"],
        "sender": message.get("sender", ""),
        "timestamp": message.get("timestamp", ""),
        "builds_on": _ends(context, layout, key, ((t, d) for _, t, d in context.graph.out_edges(key, data=True))),
        "built_on_by": _ends(context, layout, key, ((s, d) for s, _, d in context.graph.in_edges(key, data=True))),
        "history": [
            {"cause": cause, "by": message_label(nodes.get(cause)), "status": status}
            for cause, status in attrs.get("events", [])
        ],
        "folded": _folded_groups(context, layout, key),
    }
