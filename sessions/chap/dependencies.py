"""The graph under the shared context: nodes that keep the status events messages caused, and
dependency edges from each node to what it builds on. It holds no payload type's rule: ``graph.ContextGraph``
adds each message's nodes; here a status is set, overturned with all that derives from it, and
withdrawn when its cause is, and the graph is exported.

Statuses are never edited in place: a node keeps the list of status events that messages
caused, and its status is the latest event whose cause is still in force. When a correction
is itself overturned, its events stop counting and every node it touched falls back.
"""

from __future__ import annotations

import io
import json
import re
from collections import deque
from typing import Any

import networkx as nx

DEPENDENCY_EDGES = frozenset(
    {"responds_to", "part_of", "decomposes", "fulfils", "assumes", "cites", "answers", "depends_on", "produced_by"}
)
STATUSES = ("proposed", "in_progress", "done", "open", "overturned", "needs_review")

_BASE_STATUS = {
    "task_proposal": "in_progress",
    "agent_capability_declaration": "proposed",
    "collaborative_response": "proposed",
    "clarification": "open",
    "goal": "in_progress",
    "step": "proposed",
    "question": "open",
    "assumption": "proposed",
}
ASKS = frozenset({"clarification", "question"})  # the kinds of node that wait for a person's answer while open


def waits(attrs: dict[str, Any]) -> bool:
    """Whether an ask (a clarification, a report's question) waits for a person's answer: it is open,
    and no later report of its agent dropped it (a redo asks again what it still needs to know)."""
    return attrs["kind"] in ASKS and attrs["status"] == "open" and not attrs.get("dropped_by")


class DependencyGraph:
    def __init__(self) -> None:
        self.graph: nx.DiGraph[str] = nx.DiGraph()
        self.caused: dict[str, set[str]] = {}  # message id -> the nodes whose status it set
        # What waits for a person, kept as statuses change so that counting it never walks the graph:
        self.open_asks: set[str] = set()  # clarifications and report questions still waiting (``waits``)
        self.plans: set[str] = set()  # the declarations that propose a plan
        self.proposed_plans: set[str] = set()  # of those, the ones still only proposed

    def _node(self, node: str, kind: str, message_id: str, seq: int, **attrs: Any) -> str:
        base = _BASE_STATUS.get(kind, "done")
        self.graph.add_node(node, kind=kind, message=message_id, seq=seq, base=base, events=[], **attrs)
        self._status(node, self.graph.nodes[node], base)
        return node

    def _edge(self, source: str, target: str, edge_type: str, **attrs: Any) -> None:
        self.graph.add_edge(source, target, type=edge_type, **attrs)

    # -- statuses and invalidation ------------------------------------------------------------

    def _status(self, node: str, attrs: dict[str, Any], status: str) -> None:
        """Every status is written here, so the sets of what waits for a person follow it."""
        attrs["status"] = status
        if attrs["kind"] in ASKS:
            _keep(self.open_asks, node, waits(attrs))
        elif node in self.plans:
            _keep(self.proposed_plans, node, status == "proposed")

    def _drop_asks(self, sender: str, by: str) -> None:
        """``sender``'s asks still open before its report ``by`` wait no more: the report asks again
        what ``sender`` still needs to know, so what it does not ask is no longer asked."""
        nodes = self.graph.nodes
        seq = nodes[by]["seq"]
        for node in [n for n in self.open_asks if nodes[n]["seq"] < seq]:
            if nodes[nodes[node]["message"]].get("sender") == sender:
                nodes[node]["dropped_by"] = by
                self.open_asks.discard(node)

    def _set(self, node: str, status: str, cause: str) -> None:
        attrs = self.graph.nodes[node]
        attrs["events"].append((cause, status))
        self._status(node, attrs, status)
        self.caused.setdefault(cause, set()).add(node)

    def _overturn(self, target: str, *, cause: str) -> None:
        """Overturn ``target`` and flag everything derived from it; undo what the target itself set."""
        nodes = self.graph.nodes
        self._set(target, "overturned", cause)
        flagged = self.caused[cause]
        derived = self.derived_from(target)
        whole = nodes[target]["message"]
        if whole != target:  # a corrected part (a section, a quote) puts its whole message in doubt
            derived |= {whole} | self.derived_from(whole)
        for node in derived:
            attrs = nodes[node]
            # A question still open keeps waiting for its answer: the doubt is about what was said.
            if node != cause and attrs["status"] not in ("overturned", "open"):
                attrs["events"].append((cause, "needs_review"))
                self._status(node, attrs, "needs_review")
                flagged.add(node)
        if target in self.caused:
            self._withdraw(target)

    def _withdraw(self, cause: str) -> None:
        """A message was overturned: the statuses it set stop counting (a correction of a correction)."""
        nodes = self.graph.nodes
        for node in self.caused[cause]:
            attrs = nodes[node]
            attrs["events"] = [event for event in attrs["events"] if event[0] != cause]
            self._status(node, attrs, attrs["events"][-1][1] if attrs["events"] else attrs["base"])

    def derived_from(self, node: str) -> set[str]:
        """Every node that depends on ``node``, transitively, along dependency edges."""
        # The adjacency dict itself, not the pred view: this walk is the hot path of a correction.
        pred = self.graph._pred  # type: ignore[attr-defined]  # networkx's stubs leave out its adjacency dicts
        return _reached(pred, node) - {node}

    def depends_on(self, node: str) -> set[str]:
        """Everything ``node`` builds on, transitively (the node itself included)."""
        return _reached(self.graph._succ, node)  # type: ignore[attr-defined]  # as in derived_from

    def affected_by(self, message_id: str) -> frozenset[str]:
        """The nodes a message set the status of: for a correction, what it overturned and flagged."""
        return frozenset(self.caused.get(message_id, ()))

    # -- export -------------------------------------------------------------------------------

    def node_link(self) -> dict[str, Any]:
        return nx.node_link_data(_exportable(self.graph), edges="edges")

    def graphml(self) -> str:
        buffer = io.BytesIO()
        nx.write_graphml(_exportable(self.graph, xml=True), buffer)
        return buffer.getvalue().decode()


# Characters XML 1.0 forbids (control characters, U+FFFE, U+FFFF): in an export they become U+FFFD,
# the replacement character, so GraphML stays well-formed whatever the messages hold.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _exportable(graph: nx.DiGraph[str], *, xml: bool = False) -> nx.DiGraph[str]:
    """A copy whose attributes are scalars: GraphML has no lists, and events are internal."""
    out: nx.DiGraph[str] = nx.DiGraph()
    for node, attrs in graph.nodes(data=True):
        out.add_node(node, **{key: _scalar(value, xml) for key, value in attrs.items() if key != "events"})
    for source, target, attrs in graph.edges(data=True):
        out.add_edge(source, target, **{key: _scalar(value, xml) for key, value in attrs.items()})
    return out


def _scalar(value: object, xml: bool) -> str | bool | int | float:
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _XML_FORBIDDEN.sub("\ufffd", text) if xml else text


def _reached(adjacency: dict[str, dict[str, dict[str, Any]]], node: str) -> set[str]:
    """``node`` and every node reached from it along the dependency edges of ``adjacency``."""
    seen = {node}
    queue = deque([node])
    while queue:
        current = queue.popleft()
        for other, edge in adjacency[current].items():
            if other not in seen and edge["type"] in DEPENDENCY_EDGES:
                seen.add(other)
                queue.append(other)
    return seen


def _keep(members: set[str], node: str, member: bool) -> None:
    if member:
        members.add(node)
    else:
        members.discard(node)
