"""The decision map: a folded view of the context graph, and where each of its nodes stands.

The map reads as the CHAP reference draws it (§5.1): the goal, how it was planned, the plan's steps,
each step's results, their parts (sections, assumptions, questions) and the feedback and decisions
on them, one column each, left to right. The log's machinery does not get nodes of its own: SAP
operation records, task events and status updates fold into the step (or message) that caused
them, and a message's small parts (constraints, sources, uncertainties, options, the second and
later assumptions) into the node that holds them; node details list what folded where.

Positions are fixed when a node is placed: a node stands in its kind's column, on the first free
row at or below its parent's, and a message only adds nodes that build on older ones. So positions
stay put as the session grows, and placing the nodes of one new message costs what that message
holds, not what the session holds. The graph itself is not changed: the fold is only a view.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sessions.chap.graph import CURRENT_ANSWER, ContextGraph
from sessions.chap.labels import message_label, status_label
from sessions.chap.traits import FOLDED_WORDS, TRAITS, node_kind

COLUMN_WIDTH = 184
BOX_WIDTH = 168
ROW_HEIGHT = 20
MARGIN = 16
CHARS_PER_LINE = 24
LINE_HEIGHT = 14

GOAL, PLAN, STEP, RESULT, PART, DECISION = range(6)
COLUMNS = ("goal", "plan", "step", "result", "part", "decision")
COLUMN_HEADS = ("Goal", "Plan", "Steps", "Results", "Sections and questions", "Feedback, decisions")
HEAD_HEIGHT = 20
# A message's column is its payload type's map shape; the parts of messages that get nodes of their own:
COLUMN_OF = {
    **{node_kind(kind): COLUMNS.index(t.map_shape) for kind, t in TRAITS.items() if t.map_shape != "folded"},
    "step": STEP,
    "section": PART,
    "assumption": PART,
    "question": PART,
}
# Every node is tall enough for two lines of its label (the goal for four); the whole label is its tooltip.
ROWS_TALL = {GOAL: 4, PLAN: 2, STEP: 2, RESULT: 2, PART: 2, DECISION: 2}
# The log's machinery: folded into the step or message that caused it, counted on that node's badge.
ACTIVITY = frozenset(FOLDED_WORDS)
# Small parts of a message, folded into the message's node.
PARTS_FOLDED = frozenset({"goal", "constraint", "criterion", "document", "option", "source", "uncertainty"})
# Folded parts whose plural is not their kind plus "s".
IRREGULAR_WORDS = {"uncertainty": ("uncertainty", "uncertainties"), "criterion": ("criterion", "success criteria")}
# Edges drawn besides the one to a node's parent: what feedback, answers and replies point at.
CROSS_EDGES = ("overturns", "approves", "targets", "answers", "responds_to")
PARENT_EDGES = ("fulfils", "overturns", "approves", "targets", "answers")
# A step's colour follows its task until a person's decision says otherwise.
TASK_STATUS = {
    "queued": "proposed",
    "running": "in_progress",
    "waiting_approval": "open",
    "done": "done",
    "failed": "failed",
    "cancelled": "overturned",
}
DECISIVE = frozenset({"needs_review", "overturned"})
FAILED = "failed"
# A group of assumptions shows the status that most needs attention.
ATTENTION_ORDER = ("needs_review", "overturned", "open", "in_progress", "proposed", "done")
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


@dataclass(frozen=True)
class Placed:
    index: int  # the node's number on the map: the same in every process, since nodes arrive in log order
    key: str
    column: int
    row: int
    rows: int

    @property
    def x(self) -> int:
        return MARGIN + self.column * COLUMN_WIDTH

    @property
    def y(self) -> int:
        return MARGIN + self.row * ROW_HEIGHT

    @property
    def height(self) -> int:
        return self.rows * ROW_HEIGHT - 6


@dataclass
class MapLayout:
    placed: dict[str, Placed] = field(default_factory=dict)  # the visible nodes
    order: list[str] = field(default_factory=list)  # visible nodes in the order they were placed
    seen: int = 0  # graph nodes taken so far
    rep: dict[str, str] = field(default_factory=dict)  # every graph node taken -> the visible node it shows on
    folded: dict[str, list[str]] = field(default_factory=dict)  # visible node -> graph nodes folded into it
    activity: dict[str, int] = field(default_factory=dict)  # visible node -> how much log machinery it holds
    parent: dict[str, tuple[str, str]] = field(default_factory=dict)  # visible node -> (parent, edge type)
    cross: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    step_of: dict[str, str] = field(default_factory=dict)  # visible node -> the plan step it serves
    by_message: dict[str, list[str]] = field(default_factory=dict)  # message -> visible nodes it added
    touched: dict[str, set[str]] = field(default_factory=dict)  # message -> visible nodes its folding changed
    task_anchor: dict[str, str] = field(default_factory=dict)  # task id -> the step or message it serves
    task_state: dict[str, str] = field(default_factory=dict)  # step -> the state of its latest task
    agent_task: dict[str, str] = field(default_factory=dict)  # "agent:name" -> the task it works on
    free: list[int] = field(default_factory=lambda: [0] * len(COLUMNS))  # next free row of each column
    pending: list[str] = field(default_factory=list)  # machinery with nowhere to go yet: the next node takes it
    goal: str | None = None  # the first task proposal: where the session's own machinery folds

    def update(self, context: ContextGraph) -> list[Placed]:
        """Take the graph nodes that arrived since the last update; returns the nodes newly placed."""
        # insertion-ordered: the newest nodes are its tail
        table = context.graph._node  # type: ignore[attr-defined]  # networkx's stubs leave out its node dict
        count = len(table) - self.seen
        if count <= 0:
            return []
        tail: list[str] = []
        for key in reversed(table):
            if len(tail) == count:
                break
            tail.append(key)
        new = []
        for key in reversed(tail):
            spot = self._take(context, key)
            if spot is not None:
                new.append(spot)
        self.seen = len(table)
        return new

    # -- folding --------------------------------------------------------------------------------

    def _take(self, context: ContextGraph, key: str) -> Placed | None:
        attrs = context.graph.nodes[key]
        kind, message = attrs["kind"], attrs["message"]
        if kind in ACTIVITY:
            self._fold(key, self._activity_host(context, key, attrs), message, activity=True)
            return None
        if kind == "checkpoint" and attrs.get("sender", "").startswith("system:"):
            # A milestone the workbench marked: a point for the history, not a node that hides the map.
            if self.goal is not None:
                self._fold(key, self.goal, message)
            return None
        if kind in PARTS_FOLDED and key != message:
            self._fold(key, self.rep.get(message), message)
            return None
        if kind == "assumption":
            first = f"{message}#assumption:0"
            if key != first and self.rep.get(first):
                self._fold(key, self.rep[first], message)
                return None
        return self._place(context, key, attrs)

    def _fold(self, key: str, host: str | None, message: str, *, activity: bool = False) -> None:
        if host is None:
            self.pending.append(key)
            return
        self.rep[key] = host
        self.folded.setdefault(host, []).append(key)
        if activity:
            self.activity[host] = self.activity.get(host, 0) + 1
        self.touched.setdefault(message, set()).add(host)

    def _activity_host(self, context: ContextGraph, key: str, attrs: dict[str, Any]) -> str | None:
        """Where a piece of log machinery folds: the step (or message) of its task, or what asked for it."""
        nodes, kind = context.graph.nodes, attrs["kind"]
        task = ""
        if kind == "task_event":
            task = attrs.get("task_id", "")
            anchor = self._anchor(context, key, attrs)
            if anchor:
                self.task_anchor[task] = anchor
                # A redo after feedback serves the step of what the feedback was about.
                step = anchor if nodes[anchor]["kind"] == "step" else self.step_of.get(self.rep.get(anchor, ""), "")
                if step:
                    self.task_state[step] = attrs.get("task_state", "")
                    self.touched.setdefault(attrs["message"], set()).add(step)
        elif kind == "agent_status":
            task = attrs.get("task_id", "")
            if task:
                self.agent_task[attrs.get("sender", "")] = task
        elif kind == "operation":
            for _, target, data in context.graph.out_edges(key, data=True):
                if data["type"] == "produced_by":
                    return self.rep.get(target)
            task = self.agent_task.get(attrs.get("caller", ""), "")
        anchor = self.task_anchor.get(task)
        return self.rep.get(anchor) if anchor else self.goal

    @staticmethod
    def _anchor(context: ContextGraph, key: str, attrs: dict[str, Any]) -> str | None:
        for _, target, data in context.graph.out_edges(key, data=True):
            if data["type"] == "schedules":
                return target
        source = attrs.get("source")
        return source if source and source in context.graph else None

    # -- placing --------------------------------------------------------------------------------

    def _place(self, context: ContextGraph, key: str, attrs: dict[str, Any]) -> Placed:
        kind = attrs["kind"]
        parent, relation = self._parent_of(context, key, attrs)
        column = COLUMN_OF.get(kind, RESULT)
        if kind == "clarification" and parent and self.placed[parent].column != GOAL:
            column = PART  # an agent's question about its results, not about the goal
        row = self.free[column]
        if parent is not None:
            row = max(row, self.placed[parent].row)
        if column == RESULT:
            row = max(row, self.free[PART])  # its parts start beside it
        rows = ROWS_TALL[column]
        self.free[column] = row + rows
        spot = Placed(len(self.order), key, column, row, rows)
        self.placed[key] = spot
        self.order.append(key)
        self.rep[key] = key
        if kind == "task_proposal" and self.goal is None:
            self.goal = key
        if parent is not None:
            self.parent[key] = (parent, relation)
            self.step_of[key] = key if kind == "step" else self.step_of.get(parent, "")
        elif kind == "step":
            self.step_of[key] = key
        self.cross[key] = self._cross_edges(context, key, parent)
        self.by_message.setdefault(attrs["message"], []).append(key)
        if self.pending:
            waiting, self.pending = self.pending, []
            for item in waiting:
                self._fold(item, key, context.graph.nodes[item]["message"], activity=True)
        return spot

    def _parent_of(self, context: ContextGraph, key: str, attrs: dict[str, Any]) -> tuple[str | None, str]:
        message = attrs["message"]
        if key != message:  # a part of a message: the message's node holds it
            return self.rep.get(message), "part_of"
        out = {data["type"]: target for _, target, data in context.graph.out_edges(key, data=True)}
        for edge in PARENT_EDGES:
            if edge in out and self.rep.get(out[edge]):
                return self.rep[out[edge]], edge
        if attrs["kind"] == "collaborative_response":
            step = self._step_of_task(attrs.get("task_step", ""))
            if step:
                return step, "fulfils"
        if "responds_to" in out and self.rep.get(out["responds_to"]):
            return self.rep[out["responds_to"]], "responds_to"
        return None, ""

    def _step_of_task(self, task_step: str) -> str | None:
        """The plan step a task's result serves ("task-N"): its task's step, or for a task that revises
        after feedback, the step of what the feedback was about."""
        anchor = self.task_anchor.get(task_step.removeprefix("task-")) if task_step.startswith("task-") else None
        visible = self.rep.get(anchor) if anchor else None
        return self.step_of.get(visible) or None if visible else None

    def _cross_edges(self, context: ContextGraph, key: str, parent: str | None) -> list[tuple[str, str]]:
        above: set[str] = set()
        node = parent
        while node is not None and len(above) < 6:  # what the parent chain already connects
            above.add(node)
            node = self.parent.get(node, (None, ""))[0]
        edges, seen = [], set()
        for _, target, data in context.graph.out_edges(key, data=True):
            end = self.rep.get(target)
            if data["type"] in CROSS_EDGES and end and end != key and end not in above and end not in seen:
                seen.add(end)
                edges.append((end, data["type"]))
        return edges

    # -- reading --------------------------------------------------------------------------------

    def status(self, context: ContextGraph, key: str) -> str:
        """What the map colours a node: its own status; a group's most pressing; a step its task's."""
        nodes = context.graph.nodes
        status: str = nodes[key]["status"]
        if nodes[key]["kind"] == "assumption":
            group = [k for k in self.folded.get(key, ()) if nodes[k]["kind"] == "assumption"]
            pressing: str = min([status, *(nodes[k]["status"] for k in group)], key=ATTENTION_ORDER.index)
            return pressing
        if nodes[key]["kind"] == "step" and key in self.task_state:
            task_status = TASK_STATUS.get(self.task_state[key], status)
            if status not in DECISIVE or (task_status == FAILED and status != "overturned"):
                return task_status  # a failure shows even on a step in review
        return status

    def node(self, index: int) -> str | None:
        return self.order[index] if 0 <= index < len(self.order) else None


def _lines(text: str, rows: int) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), CHARS_PER_LINE, max_lines=rows, placeholder="…") or [""]


def report_title(text: str) -> str:
    """A report's first heading (or first line) as its name on the map."""
    for line in (text or "").splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line
    return ""


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
    superseded = bool(attrs.get("superseded_by"))
    return {
        "index": spot.index,
        "x": spot.x,
        "y": spot.y,
        "width": BOX_WIDTH,
        "height": spot.height,
        "kind": kind_word,
        "shape": COLUMNS[spot.column],
        "status": status,
        "status_words": status_label(status),
        "superseded": superseded,
        "current": context.graph.graph.get(CURRENT_ANSWER) == spot.key,
        "label": label,
        "lines": [
            {"text": line, "y": 13 + i * LINE_HEIGHT}
            for i, line in enumerate(_lines(label, max(1, (spot.height - 4) // LINE_HEIGHT)))
        ],
        "heat": heat(confidence) if confidence is not None else "",
        "confidence": confidence,
        "badge": layout.activity.get(spot.key, 0),
        "folded": folded_words(context, layout, spot.key),
        "seq": attrs["seq"],
    }


def _edge(layout: MapLayout, source: str, target: str, edge_type: str) -> dict[str, Any]:
    start, end = layout.placed[source], layout.placed[target]
    # From the left side of the newer node to the right side of the one it builds on (or, within one
    # column, between their left sides).
    x1, y1 = start.x, start.y + start.height / 2
    x2, y2 = end.x + (BOX_WIDTH if end.column != start.column else 0), end.y + end.height / 2
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


def draw_map(context: ContextGraph, layout: MapLayout, *, expanded: bool = False) -> dict[str, Any]:
    """The whole decision map of ``context``. Unless ``expanded``, what lies before the latest
    checkpoint is drawn as that checkpoint alone (edges into it go to the checkpoint)."""
    layout.update(context)
    nodes = context.graph.nodes
    checkpoints = [key for key in layout.order if nodes[key]["kind"] == "checkpoint"]
    boundary = nodes[checkpoints[-1]]["seq"] if checkpoints and not expanded else 0
    shown = [key for key in layout.order if nodes[key]["seq"] >= boundary]
    stand_in = checkpoints[-1] if boundary else None
    spots = [layout.placed[key] for key in shown]
    left = min((s.x for s in spots), default=MARGIN) - MARGIN
    top = min((s.y for s in spots), default=MARGIN) - MARGIN - HEAD_HEIGHT
    right = max((s.x + BOX_WIDTH for s in spots), default=MARGIN + BOX_WIDTH) + MARGIN
    bottom = max((s.y + s.height for s in spots), default=MARGIN + ROW_HEIGHT) + MARGIN
    return {
        "nodes": [map_node(context, layout, spot) for spot in spots],
        "edges": map_edges(context, layout, shown, collapsed_into=stand_in, boundary=boundary),
        "columns": [
            {"x": MARGIN + column * COLUMN_WIDTH, "y": top + MARGIN, "label": COLUMN_HEADS[column]}
            for column in sorted({s.column for s in spots})
        ],
        "view": f"{left} {top} {right - left} {bottom - top}",
        "width": right - left,
        "height": bottom - top,
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

    def ends(pairs: Iterable[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
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
    return {
        "index": index,
        "key": key,
        "kind": attrs["kind"],
        "kind_word": kind_word,
        "status": layout.status(context, key),
        "label": label,
        "superseded": bool(attrs.get("superseded_by")),
        "superseded_by": describe(context, layout, later)[1] if later else "",
        "current": context.graph.graph.get(CURRENT_ANSWER) == key,
        "text": attrs.get("text", ""),
        "confidence": attrs.get("confidence"),
        "message_id": attrs["message"],
        "seq": attrs["seq"],
        "sender": message.get("sender", ""),
        "timestamp": message.get("timestamp", ""),
        "builds_on": ends((t, d) for _, t, d in context.graph.out_edges(key, data=True)),
        "built_on_by": ends((s, d) for s, _, d in context.graph.in_edges(key, data=True)),
        "history": [
            {"cause": cause, "by": message_label(nodes.get(cause)), "status": status}
            for cause, status in attrs.get("events", [])
        ],
        "folded": sorted(groups.items(), key=lambda group: -len(group[1])),
    }
