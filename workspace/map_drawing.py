"""The decision map drawn: where the fold (``sessions.chap.layout``) placed each node, in pixels, with
its words, colours and the curves between nodes, as the map's SVG template reads it.

A node stands in its column's box, ``ROW_HEIGHT`` pixels a row; an edge runs from the left side of the
newer node to the right side of the one it builds on.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import islice
from typing import Any

from sessions.chap.graph import CURRENT_ANSWER, ContextGraph
from sessions.chap.labels import report_title, status_label
from sessions.chap.layout import ACTIVITY, COLUMNS, MapLayout, Placed
from sessions.chap.traits import FOLDED_WORDS

COLUMN_WIDTH = 184
BOX_WIDTH = 168
ROW_HEIGHT = 20
MARGIN = 16
LINE_HEIGHT = 14
# A label's lines start LABEL_X into their box (past the confidence bar) and end LABEL_RIGHT short of
# its right side: LABEL_WIDTH pixels of 12-pixel text (the map's CSS; the goal and steps in bold).
LABEL_X = 11
LABEL_RIGHT = 6
LABEL_WIDTH = BOX_WIDTH - LABEL_X - LABEL_RIGHT
LABEL_PX = 12
BOLD_SHAPES = ("goal", "step")
HEAD_HEIGHT = 20
COLUMN_HEADS = ("Goal", "Plan", "Steps", "Results", "Sections and questions", "Feedback, decisions")
# The map's colours: done green, open question yellow, overturned grey, needs review orange, in progress blue.
STATUS_LEGEND = (
    ("done", "done"),
    ("open", "open: waits for an answer or approval"),
    ("overturned", "overturned"),
    ("needs_review", "needs review"),
    ("in_progress", "in progress"),
    ("proposed", "proposed"),
    ("failed", "failed"),
)
# Results a later report by the same agent replaced (``superseded_by`` on report nodes), and the
# session's current answer (the graph's ``CURRENT_ANSWER``).
ANSWER_LEGEND = (("superseded", "dimmed: superseded by a later report"), ("current", "the current answer"))
FEEDBACK_WORDS = {
    "correction": "Correction",
    "refinement": "Refinement",
    "approval": "Approved",
    "new_direction": "New direction",
}


def heat(confidence: float | None) -> str:
    """The heatmap bucket of a confidence: 0 (below 0.4) to 3 (0.8 and more), "na" when not stated."""
    if confidence is None:
        return "na"
    return str(sum(confidence >= edge for edge in (0.4, 0.6, 0.8)))


def left(spot: Placed) -> int:
    return MARGIN + spot.column * COLUMN_WIDTH


def top(spot: Placed) -> int:
    return MARGIN + spot.row * ROW_HEIGHT


def height(spot: Placed) -> int:
    return spot.rows * ROW_HEIGHT - 6


# How wide a character is, in ems, erring wide: DejaVu Sans (the ``system-ui`` of a Linux desktop) is
# among the widest fonts a browser picks, and its bold about a tenth wider still. map.js shortens a
# line the reader's own font draws wider than this guessed, so the guess need only be close.
_NARROW, _SLIM, _WIDE, _CAPITAL = "ijlI|!.,:;'`", 'frtJ()[]{}-/\\ "', "mwMW@%", "ABCDEFGHKNOQRSUVXYZ&#"
BOLD = 1.1


@cache
def _em(char: str) -> float:
    if char in _NARROW:
        return 0.3
    if char in _SLIM:
        return 0.42
    if char in _WIDE:
        return 1.0
    if char in _CAPITAL:
        return 0.8
    if unicodedata.combining(char):
        return 0.0
    if unicodedata.east_asian_width(char) in "WF":
        return 1.0
    return 0.64


def _ems(text: str) -> float:
    return sum(_em(char) for char in text)


def _head(word: str, room: float) -> str:
    """The longest start of ``word`` no wider than ``room`` ems (one character at least)."""
    used = 0.0
    for i, char in enumerate(word):
        used += _em(char)
        if used > room:
            return word[: max(i, 1)]
    return word


def _wrapped(words: list[str], room: float) -> Iterator[str]:
    """``words`` in lines no wider than ``room`` ems; a word wider than a line (a URL, a long
    number) is broken across lines."""
    line, used = "", 0.0
    for word in words:
        width = _ems(word)
        if line and used + _em(" ") + width <= room:
            line, used = f"{line} {word}", used + _em(" ") + width
            continue
        if line:
            yield line
        while width > room:
            head = _head(word, room)
            yield head
            word = word[len(head) :]
            width = _ems(word)
        line, used = word, width
    if line:
        yield line


def _lines(text: str, rows: int, *, bold: bool = False) -> list[str]:
    """``text`` wrapped to the width of a node's box in at most ``rows`` lines, the last ending in "…"
    when the text goes on (the node's title holds all of it)."""
    room = LABEL_WIDTH / (LABEL_PX * (BOLD if bold else 1))
    lines = list(islice(_wrapped(text.split(), room), rows + 1))
    if len(lines) > rows:
        last = lines[rows - 1]
        while last and _ems(last) + _em("…") > room:
            last = last[:-1]
        lines[rows - 1 :] = [last.rstrip() + "…"]
    return lines or [""]


def describe(context: ContextGraph, layout: MapLayout, key: str) -> tuple[str, str]:
    """A node's kind and label in plain language."""
    nodes = context.graph.nodes
    attrs = nodes[key]
    kind, label = attrs["kind"], attrs.get("label") or ""
    sender = (attrs.get("sender") or "").partition(":")[2]
    if kind == "task_proposal":
        return "Goal", label
    if kind == "agent_capability_declaration":
        steps = sum(1 for k in layout.by_message.get(key, ()) if nodes[k]["kind"] == "step")
        if not steps:
            return "Plan", f"What {sender} can do"
        return "Plan", f"Plan by {sender}: {steps} step{'s' if steps != 1 else ''}"
    if kind == "step":
        return "Step", f"{key.rpartition(':')[2]}. {label}"
    if kind == "collaborative_response":
        return "Result", f"{report_title(attrs.get('text', '')) or label} · {sender}"
    if kind == "section":
        return "Section", label
    if kind == "assumption":
        count = 1 + sum(1 for k in layout.folded.get(key, ()) if nodes[k]["kind"] == "assumption")
        return "Assumption", label if count == 1 else f"{count} assumptions: {label}"
    if kind in ("question", "clarification"):
        return "Question", label
    if kind == "human_feedback":
        word = FEEDBACK_WORDS.get(attrs.get("feedback_type", ""), "Feedback")
        text = attrs.get("text", "")
        suggestion = " (suggested)" if attrs.get("suggestion") else ""
        return "Decision", f"{word}{suggestion} by {sender}" + (f": {text}" if text else "")
    if kind == "clarification_answer":
        return "Decision", f"Answered by {sender}"
    if kind == "checkpoint":
        return "Checkpoint", f"Checkpoint: {label}"
    return kind.replace("_", " ").capitalize(), label


def folded_words(context: ContextGraph, layout: MapLayout, key: str) -> str:
    """What the badge counts, in words: "14 operations, 3 task events"."""
    counts: dict[str, int] = {}
    for item in layout.folded.get(key, ()):
        kind = context.graph.nodes[item]["kind"]
        if kind in ACTIVITY:
            counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} {FOLDED_WORDS[k][n != 1]}" for k, n in counts.items())


def map_node(context: ContextGraph, layout: MapLayout, spot: Placed) -> dict[str, Any]:
    """What the map draws for one node."""
    attrs = context.graph.nodes[spot.key]
    kind_word, label = describe(context, layout, spot.key)
    status = layout.status(context, spot.key)
    confidence = attrs.get("confidence")
    superseded = bool(attrs.get("superseded_by") or attrs.get("dropped_by"))  # a question asked no more too
    drawn = {
        "index": spot.index,
        "x": left(spot),
        "y": top(spot),
        "width": BOX_WIDTH,
        "height": height(spot),
        "kind": kind_word,
        "shape": COLUMNS[spot.column],
        "status": status,
        "status_words": status_label(status),
        "superseded": superseded,
        "current": context.graph.graph.get(CURRENT_ANSWER) == spot.key,
        "label": label,
        "lines": [
            {"text": line, "y": 13 + i * LINE_HEIGHT}
            for i, line in enumerate(
                _lines(label, max(1, (height(spot) - 4) // LINE_HEIGHT), bold=COLUMNS[spot.column] in BOLD_SHAPES)
            )
        ],
        "heat": heat(confidence) if confidence is not None else "",
        "confidence": confidence,
        "badge": layout.activity.get(spot.key, 0),
        "folded": folded_words(context, layout, spot.key),
        "seq": attrs["seq"],
    }
    return {**drawn, **_named(drawn)}


def _named(node: dict[str, Any]) -> dict[str, str]:
    """A drawn node's classes, and how a screen reader (``spoken``) and a hover (``title``) name it: its
    kind, label and status, whether it is the current answer or a later report replaced it, its
    confidence and what folded into it. Made once per node here: in the template these were a dozen
    lookups and tests for each of the thousands of nodes of a long session."""
    current, superseded, folded = node["current"], node["superseded"], node["folded"]
    confidence = node["confidence"]
    classes = f"node shape-{node['shape']} status-{node['status']}"
    spoken = f"{node['kind']}{' (the current answer)' if current else ''}: {node['label']} ({node['status_words']}"
    title = f"{'The current answer · ' if current else ''}{node['label']} · {node['status_words']}"
    if superseded:
        classes, spoken, title = (
            f"{classes} superseded",
            f"{spoken}, superseded by a later report",
            f"{title} · superseded by a later report",
        )
    if current:
        classes += " current"
    if confidence is not None:
        spoken += f", confidence {confidence}"
    if folded:
        spoken, title = f"{spoken}; {folded}", f"{title} · {folded}"
    return {"classes": classes, "spoken": f"{spoken})", "title": title}


def _edge(layout: MapLayout, source: str, target: str, edge_type: str) -> dict[str, Any]:
    start, end = layout.placed[source], layout.placed[target]
    # From the left side of the newer node to the right side of the one it builds on (or, within one
    # column, between their left sides).
    x1, y1 = left(start), top(start) + height(start) / 2
    x2, y2 = left(end) + (BOX_WIDTH if end.column != start.column else 0), top(end) + height(end) / 2
    bend = max(24, abs(x1 - x2) / 2) if end.column != start.column else -30
    return {"d": f"M{x1} {y1:g} C{x1 - bend:g} {y1:g} {x2 + bend:g} {y2:g} {x2} {y2:g}", "type": edge_type}


def map_edges(
    context: ContextGraph,
    layout: MapLayout,
    keys: Iterable[str],
    *,
    collapsed_into: str | None = None,
    boundary: int = 0,
) -> list[dict[str, Any]]:
    """The edges leaving ``keys``, as curves between placed nodes; an edge into a node older than
    ``boundary`` ends at ``collapsed_into`` (the checkpoint that stands for it), once per source."""
    edges = []
    nodes = context.graph.nodes
    for key in keys:
        ends = []
        if key in layout.parent:
            ends.append(layout.parent[key])
        ends += layout.cross.get(key, [])
        into_checkpoint = False
        for target, edge_type in ends:
            if nodes[target]["seq"] < boundary:
                if into_checkpoint or collapsed_into is None or key == collapsed_into:
                    continue
                into_checkpoint, target = True, collapsed_into
            edges.append(_edge(layout, key, target, edge_type))
    return edges


def _frame(spots: list[Placed]) -> dict[str, Any]:
    """The view box around ``spots`` (a margin, and the column heads above them), and the heads."""
    x0 = min((left(s) for s in spots), default=MARGIN) - MARGIN
    y0 = min((top(s) for s in spots), default=MARGIN) - MARGIN - HEAD_HEIGHT
    x1 = max((left(s) + BOX_WIDTH for s in spots), default=MARGIN + BOX_WIDTH) + MARGIN
    y1 = max((top(s) + height(s) for s in spots), default=MARGIN + ROW_HEIGHT) + MARGIN
    return {
        "columns": [
            {"x": MARGIN + column * COLUMN_WIDTH, "y": y0 + MARGIN, "label": COLUMN_HEADS[column]}
            for column in sorted({s.column for s in spots})
        ],
        "view": f"{x0} {y0} {x1 - x0} {y1 - y0}",
        "width": x1 - x0,
        "height": y1 - y0,
    }


MAP_SHOWN = 150  # the newest nodes the map draws until it is expanded


def draw_map(context: ContextGraph, layout: MapLayout, *, expanded: bool = False) -> dict[str, Any]:
    """The whole decision map of ``context``. Unless ``expanded``, what lies before the latest
    checkpoint is drawn as that checkpoint alone (edges into it go to the checkpoint), and at most
    the newest ``MAP_SHOWN`` nodes are drawn (a long session's whole map was thousands of nodes and
    megabytes on every page; expanding it draws them)."""
    layout.update(context)
    nodes = context.graph.nodes
    # Nodes are placed in the order of their messages: what is newest is the tail, read without a walk.
    shown, stand_in = layout.order, None
    if not expanded:
        shown = layout.order[-MAP_SHOWN:]
        stand_in = next((key for key in reversed(shown) if nodes[key]["kind"] == "checkpoint"), None)
        if stand_in is not None:
            shown = shown[shown.index(stand_in) :]
    boundary = nodes[shown[0]]["seq"] if len(shown) < len(layout.order) else 0
    spots = [layout.placed[key] for key in shown]
    return {
        "nodes": [map_node(context, layout, spot) for spot in spots],
        "edges": map_edges(context, layout, shown, collapsed_into=stand_in, boundary=boundary),
        **_frame(spots),
        "graph_nodes": len(nodes),
        "hidden": len(layout.order) - len(shown),
        "checkpoint": nodes[stand_in]["label"] if stand_in else None,
        "legend": STATUS_LEGEND,
        "answer_legend": ANSWER_LEGEND,
    }


def _index_in(layout: MapLayout) -> Callable[[str], int]:
    return lambda key: layout.placed[key].index


def _standing_changed(context: ContextGraph, layout: MapLayout, message_id: str) -> set[str]:
    """The reports whose standing a new report changed: the version it replaced (dimmed now) and the
    answer it displaced as the current one."""
    attrs = context.graph.nodes.get(message_id) or {}
    earlier = (attrs.get(key) for key in ("supersedes", "was_current"))
    return {layout.rep[key] for key in earlier if key and layout.rep.get(key)}


def map_update(context: ContextGraph, layout: MapLayout, message_id: str) -> dict[str, Any]:
    """What one new message changes on the map: the nodes it added, and the nodes whose status, badge or
    label it changed (what it folded into, and the visible nodes of what it set the status of)."""
    layout.update(context)
    added = layout.by_message.get(message_id, [])
    own = set(added)
    changed = set(layout.touched.get(message_id, ()))
    changed |= {layout.rep[key] for key in context.caused.get(message_id, ()) if layout.rep.get(key)}
    changed |= _standing_changed(context, layout, message_id)
    changed -= own
    return {
        "added": [map_node(context, layout, layout.placed[key]) for key in added],
        "changed": [map_node(context, layout, layout.placed[key]) for key in sorted(changed, key=_index_in(layout))],
        "edges": map_edges(context, layout, added),
    }
