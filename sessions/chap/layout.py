"""The decision map: a folded view of the context graph, and where each of its nodes stands.

The map reads as the CHAP reference draws it (§5.1): the goal, how it was planned, the plan's steps,
each step's results, their parts (sections, assumptions, questions) and the feedback and decisions
on them, one column each, left to right. The log's machinery does not get nodes of its own: SAP
operation records, task events and status updates fold into the step (or message) that caused
them, and a message's small parts (constraints, sources, uncertainties, options, the second and
later assumptions) into the node that holds them.

Positions are fixed when a node is placed: a node stands in its kind's column, on the first free
row at or below its parent's, and a message only adds nodes that build on older ones. So positions
stay put as the session grows, and placing the nodes of one new message costs what that message
holds, not what the session holds. The graph itself is not changed: the fold is only a view.

Places are columns and rows, not pixels: the workspace draws them (``workspace.map_drawing``) and
shows a node's details (``workspace.node_details``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions.chap.graph import ContextGraph
from sessions.chap.traits import FOLDED_WORDS, TRAITS, node_kind

GOAL, PLAN, STEP, RESULT, PART, DECISION = range(6)
COLUMNS = ("goal", "plan", "step", "result", "part", "decision")
# A message's column is its payload type's map shape; the parts of messages that get nodes of their own:
COLUMN_OF = {
    **{node_kind(kind): COLUMNS.index(t.map_shape) for kind, t in TRAITS.items() if t.map_shape != "folded"},
    "step": STEP,
    "section": PART,
    "assumption": PART,
    "question": PART,
}
# How many rows a node takes: two lines of its label (the goal four); the whole label is its tooltip.
ROWS_TALL = {GOAL: 4, PLAN: 2, STEP: 2, RESULT: 2, PART: 2, DECISION: 2}
# The log's machinery: folded into the step or message that caused it, counted on that node's badge.
ACTIVITY = frozenset(FOLDED_WORDS)
# Small parts of a message, folded into the message's node.
PARTS_FOLDED = frozenset({"goal", "constraint", "criterion", "document", "option", "source", "uncertainty"})
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


@dataclass(frozen=True)
class Placed:
    index: int  # the node's number on the map: the same in every process, since nodes arrive in log order
    key: str
    column: int
    row: int
    rows: int  # how many rows of its column it takes


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
