"""Where each node of the context graph stands on the decision map, in plain Python.

Layered by dependency from the goal: a node's layer is one more than the deepest node it builds on
(dependency edges point from the newer node to the older), and within a layer nodes stand in the
order they arrived. Both are fixed when a node is placed, because a message only adds edges from its
own nodes to older ones: positions are stable as the session grows, and placing the nodes of one new
message costs what that message holds, not what the session holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sessions.chap.graph import DEPENDENCY_EDGES, ContextGraph
from sessions.chap.labels import message_label, payload_label

COLUMN_WIDTH = 180
ROW_HEIGHT = 56
MARGIN = 80  # room for the labels of the first column's boxes
# Shapes by kind: messages are boxes, their units circles, decisions and questions diamonds.
SHAPES = {
    "task_proposal": "box",
    "agent_capability_declaration": "box",
    "collaborative_response": "box",
    "human_feedback": "diamond",
    "clarification": "diamond",
    "question": "diamond",
    "goal": "hexagon",
    "operation": "small",
    "task_event": "small",
    "session_event": "small",
    "agent_status": "small",
}
# The map's colours: done green, open question yellow, overturned grey, needs review orange, in progress blue.
STATUS_LEGEND = (
    ("done", "done"),
    ("open", "open question"),
    ("overturned", "overturned"),
    ("needs_review", "needs review"),
    ("in_progress", "in progress"),
    ("proposed", "proposed"),
)


@dataclass(frozen=True)
class Placed:
    index: int  # the node's number on the map: the same in every process, since nodes arrive in log order
    key: str
    layer: int
    row: int

    @property
    def x(self) -> int:
        return MARGIN + self.layer * COLUMN_WIDTH

    @property
    def y(self) -> int:
        return MARGIN + self.row * ROW_HEIGHT


@dataclass
class MapLayout:
    placed: dict[str, Placed] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # nodes so far in each layer

    def update(self, context: ContextGraph) -> list[Placed]:
        """Place the nodes that arrived since the last update; returns them."""
        graph = context.graph
        new = []
        for key in list(graph.nodes)[len(self.order) :]:
            below = [
                self.placed[target].layer
                for _, target, data in graph.out_edges(key, data=True)
                if data["type"] in DEPENDENCY_EDGES and target in self.placed
            ]
            layer = max(below, default=-1) + 1
            while len(self.rows) <= layer:
                self.rows.append(0)
            spot = Placed(len(self.order), key, layer, self.rows[layer])
            self.rows[layer] += 1
            self.placed[key] = spot
            self.order.append(key)
            new.append(spot)
        return new

    @property
    def width(self) -> int:
        return 2 * MARGIN + max(len(self.rows), 1) * COLUMN_WIDTH

    @property
    def height(self) -> int:
        return 2 * MARGIN + max(self.rows, default=1) * ROW_HEIGHT

    def node(self, index: int) -> str | None:
        return self.order[index] if 0 <= index < len(self.order) else None


def map_node(context: ContextGraph, spot: Placed) -> dict:
    """What the map draws for one node."""
    attrs = context.graph.nodes[spot.key]
    kind = attrs["kind"]
    return {
        "index": spot.index,
        "x": spot.x,
        "y": spot.y,
        "kind": kind,
        "shape": SHAPES.get(kind, "circle"),
        "status": attrs["status"],
        "label": attrs.get("label") or payload_label(kind),
        "seq": attrs["seq"],
    }


def map_edges(
    context: ContextGraph, layout: MapLayout, keys, *, collapsed_into: str | None = None, boundary: int = 0
) -> list[dict]:
    """The edges leaving ``keys``, as lines between placed nodes; an edge into a node older than
    ``boundary`` ends at ``collapsed_into`` (the checkpoint that stands for it), once per source."""
    edges = []
    nodes = context.graph.nodes
    for key in keys:
        source = layout.placed[key]
        into_checkpoint = False
        for _, target, data in context.graph.out_edges(key, data=True):
            if target not in layout.placed:
                continue
            if nodes[target]["seq"] < boundary:
                if into_checkpoint or collapsed_into is None or key == collapsed_into:
                    continue
                into_checkpoint, target = True, collapsed_into
            end = layout.placed[target]
            edges.append({"x1": source.x, "y1": source.y, "x2": end.x, "y2": end.y, "type": data["type"]})
    return edges


def draw_map(context: ContextGraph, layout: MapLayout, *, expanded: bool = False) -> dict:
    """The whole decision map of ``context``. Unless ``expanded``, what lies before the latest
    checkpoint is drawn as that checkpoint alone (edges into it go to the checkpoint)."""
    layout.update(context)
    nodes = context.graph.nodes
    checkpoints = [key for key in layout.order if nodes[key]["kind"] == "checkpoint"]
    boundary = nodes[checkpoints[-1]]["seq"] if checkpoints and not expanded else 0
    shown = [key for key in layout.order if nodes[key]["seq"] >= boundary]
    stand_in = checkpoints[-1] if boundary else None
    return {
        "nodes": [map_node(context, layout.placed[key]) for key in shown],
        "edges": map_edges(context, layout, shown, collapsed_into=stand_in, boundary=boundary),
        "width": layout.width,
        "height": layout.height,
        "hidden": len(layout.order) - len(shown),
        "checkpoint": nodes[stand_in]["label"] if stand_in else None,
        "legend": STATUS_LEGEND,
    }


def node_details(context: ContextGraph, layout: MapLayout, index: int) -> dict | None:
    """One placed node: its content, who and when, its edges, the message it came from, and the
    statuses messages gave it. ``layout`` must be up to date with ``context``."""
    key = layout.node(index)
    if key is None:
        return None
    nodes = context.graph.nodes
    attrs = nodes[key]
    message = nodes.get(attrs["message"], {})

    def ends(pairs):
        return [
            {"type": data["type"], "index": layout.placed[other].index, "label": nodes[other].get("label", other)}
            for other, data in pairs
            if other in layout.placed
        ]

    return {
        "index": index,
        "key": key,
        "kind": attrs["kind"],
        "status": attrs["status"],
        "label": attrs.get("label", ""),
        "text": attrs.get("text", ""),
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
    }
