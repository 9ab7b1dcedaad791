"""The shared context as a versioned directed graph, derived from the message log.

Each message adds its own node and the units inside it (goal, constraints, plan steps,
assumptions, sections, questions, sources, …). Edges point from the newer, dependent node to
what it builds on: ``reply --responds_to--> original``, ``response --assumes--> assumption``,
``step --decomposes--> goal``. So everything *derived from* a node is its set of ancestors
along the dependency edges, which is what a correction must flag.

Statuses are never edited in place: a node keeps the list of status events that messages
caused, and its status is the latest event whose cause is still in force. When a correction
is itself overturned, its events stop counting and every node it touched falls back.

``apply`` costs what the message itself contains (plus, for a correction, what it flags);
nothing in it walks the whole session, so appending stays flat as sessions grow.
"""

from __future__ import annotations

import io
import json
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import networkx as nx

from sessions.chap.labels import feedback_label, message_label, payload_label
from sessions.chap.traits import node_kind

DEPENDENCY_EDGES = frozenset(
    {"responds_to", "part_of", "decomposes", "fulfils", "assumes", "cites", "answers", "depends_on", "produced_by"}
)
REDIRECTING_FEEDBACK = frozenset({"correction", "new_direction"})
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
CURRENT_ANSWER = "current_answer"  # the graph-level attribute naming the report that is the session's answer now
ASKS = frozenset({"clarification", "question"})  # the kinds of node that wait for a person's answer while open


@dataclass(frozen=True)
class Redirect:
    """A correction or new direction: when it was accepted and what it aimed at."""

    seq: int
    message_id: str
    target: str


class ContextGraph:
    def __init__(self, session_id: str):
        self.session_id = session_id
        self.graph: nx.DiGraph[str] = nx.DiGraph()
        self.seq = 0
        self.goal: str | None = None
        self.steps: dict[int, str] = {}
        self.redirects: list[Redirect] = []
        self.caused: dict[str, set[str]] = {}  # message id -> the nodes whose status it set
        # What waits for a person, kept as statuses change so that counting it never walks the graph:
        self.open_asks: set[str] = set()  # clarifications and report questions still open
        self.plans: set[str] = set()  # the declarations that propose a plan
        self.proposed_plans: set[str] = set()  # of those, the ones still only proposed
        self.latest_report: dict[str, str] = {}  # sender -> its report that stands (later ones supersede it)

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def from_messages(cls, session_id: str, messages: Iterable[tuple[int, dict[str, Any]]]) -> ContextGraph:
        """``messages`` yields ``(seq, envelope)`` in order; the graph as of the last one."""
        graph = cls(session_id)
        for seq, envelope in messages:
            graph.apply(seq, envelope)
        return graph

    def apply(self, seq: int, envelope: dict[str, Any]) -> None:
        """Add one accepted message. Preconditions: ``seq == self.seq + 1`` and a valid envelope."""
        if seq != self.seq + 1:
            raise ValueError(f"message {seq} applied after {self.seq}: the log has a gap")
        self.seq = seq
        message_id = envelope["message_id"]
        kind = envelope["payload_type"]
        payload = envelope["payload"]
        self._node(
            message_id,
            node_kind(kind),
            message_id,
            seq,
            label=_label(kind, payload),
            sender=f"{envelope['sender']['type']}:{envelope['sender']['id']}",
            timestamp=envelope["timestamp"],
            ontology=payload.get("ontology"),
        )
        reply = envelope.get("in_reply_to")
        if reply and reply in self.graph:
            self._edge(message_id, reply, "responds_to")
        builder = getattr(self, f"_apply_{kind}", None)
        if builder is not None:
            builder(message_id, seq, payload)
        if kind == "collaborative_response":
            self._stand(message_id, reply, payload.get("provenance") or {})

    def _node(self, node: str, kind: str, message_id: str, seq: int, **attrs: Any) -> str:
        base = _BASE_STATUS.get(kind, "done")
        self.graph.add_node(node, kind=kind, message=message_id, seq=seq, base=base, events=[], **attrs)
        self._status(node, self.graph.nodes[node], base)
        return node

    def _unit(
        self, message_id: str, seq: int, kind: str, key: object, text: str, *, label: str = "", **attrs: Any
    ) -> str:
        node = f"{message_id}#{kind}:{key}"
        self._node(node, kind, message_id, seq, label=_short(label or text), text=text, **attrs)
        self._edge(node, message_id, "part_of")
        return node

    def _edge(self, source: str, target: str, edge_type: str, **attrs: Any) -> None:
        self.graph.add_edge(source, target, type=edge_type, **attrs)

    def _apply_task_proposal(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        self.goal = self._unit(message_id, seq, "goal", 0, payload["goal"])
        for key, value in (payload.get("constraints") or {}).items():
            node = self._unit(message_id, seq, "constraint", key, f"{key}: {value}")
            self._edge(node, self.goal, "depends_on")
        for index, criterion in enumerate(payload.get("success_criteria") or []):
            self._unit(message_id, seq, "criterion", index, criterion)
        for index, document in enumerate(payload.get("background_context") or []):
            node = self._unit(message_id, seq, "document", index, document)
            self._edge(self.goal, node, "cites")

    def _apply_agent_capability_declaration(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        if payload.get("proposed_plan"):
            self.plans.add(message_id)
            self._status(message_id, self.graph.nodes[message_id], "proposed")
        for step in payload.get("proposed_plan") or []:
            node = self._unit(
                message_id,
                seq,
                "step",
                step["step"],
                step["action"],
                output=step.get("output", ""),
                requires_approval=bool(step.get("requires_approval")),
            )
            self.steps[step["step"]] = node
            if self.goal:
                self._edge(node, self.goal, "decomposes")

    def _apply_collaborative_response(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        self.graph.nodes[message_id].update(
            confidence=payload["confidence_score"],
            text=payload["content"]["body"],
            task_step=str(payload.get("task_step_id") or ""),
        )
        for index, section in enumerate(payload["content"].get("sections") or []):
            self._unit(
                message_id,
                seq,
                "section",
                section["id"],
                section["body"],
                label=section.get("title") or section["body"],
                confidence=section.get("confidence"),
                index=index,
            )
        for index, assumption in enumerate(payload.get("assumptions_made") or []):
            node = f"{message_id}#assumption:{index}"
            self._node(node, "assumption", message_id, seq, label=_short(assumption), text=assumption)
            self._edge(message_id, node, "assumes")
        for index, source in enumerate(payload.get("supporting_materials") or []):
            node = f"{message_id}#source:{index}"
            self._node(
                node,
                "source",
                message_id,
                seq,
                label=_short(source["citation"]),
                text=source["citation"],
                url=source.get("url", ""),
                confidence_in_source=source.get("confidence_in_source", ""),
            )
            self._edge(message_id, node, "cites")
        for index, uncertainty in enumerate(payload.get("uncertainties") or []):
            self._unit(message_id, seq, "uncertainty", index, uncertainty["aspect"])
        for index, question in enumerate(payload.get("open_questions_for_human") or []):
            self._unit(message_id, seq, "question", index, question)
        step = self._step_node(payload.get("task_step_id"))
        if step is not None:
            self._edge(message_id, step, "fulfils")
            if self.graph.nodes[step]["status"] == "proposed":
                self._set(step, "in_progress", message_id)

    def _apply_clarification(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        for option in payload.get("options") or []:
            self._unit(message_id, seq, "option", option["id"], option["label"])

    def _apply_clarification_answer(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        asked = payload["clarification_message_id"]
        if payload.get("question_index") is not None:
            asked = f"{asked}#question:{payload['question_index']}"
        self.graph.nodes[message_id].update(
            asked=payload["clarification_message_id"],
            answer={k: payload[k] for k in ("option_id", "free_answer") if payload.get(k)},
        )
        if asked in self.graph:
            self._edge(message_id, asked, "answers")
            self._set(asked, "done", message_id)

    def _apply_human_feedback(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        target = self.resolve_target(payload["target_message_id"], payload.get("target_part"))
        if target is None:
            return
        self._edge(message_id, target, "targets", part=json.dumps(payload.get("target_part") or {}))
        if not self.graph.nodes[message_id]["sender"].startswith("human:"):
            # An agent's feedback is a suggestion: it changes no status until a human acts on it.
            self.graph.nodes[message_id].update(feedback_type=payload["feedback_type"], target=target, suggestion=True)
            return
        feedback_type = payload["feedback_type"]
        instruction = payload.get("specific_instructions") or {}
        self.graph.nodes[message_id].update(
            label=f"{feedback_label(feedback_type)} of {message_label(self.graph.nodes[target])}",
            feedback_type=feedback_type,
            target=target,
            text=" ".join(str(value) for value in instruction.values()) or payload.get("provided_context", ""),
        )
        if feedback_type in REDIRECTING_FEEDBACK:
            self._edge(message_id, target, "overturns")
            self.redirects.append(Redirect(seq, message_id, target))
            self._overturn(target, cause=message_id)
        elif feedback_type == "approval":
            self._edge(message_id, target, "approves")
            self._set(target, "done", message_id)
            for _, step, data in self.graph.out_edges(target, data=True):
                if data["type"] == "fulfils":
                    self._set(step, "done", message_id)
        else:
            self._set(target, "needs_review", message_id)

    def _apply_agent_status(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        self.graph.nodes[message_id]["task_id"] = str(payload.get("task_id") or "")

    def _apply_operation_record(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        caller = (payload.get("request") or {}).get("caller") or {}
        self.graph.nodes[message_id].update(
            caller=f"{caller.get('type', '')}:{caller.get('id', '')}",
            outcome=payload["outcome"],
        )
        request = payload.get("request_message_id")
        if request and request in self.graph:
            self._edge(message_id, request, "produced_by")

    def _apply_task_event(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        self.graph.nodes[message_id].update(
            label=f"task {payload['task_id']} {payload['action']}: {payload.get('title', '')}",
            task_id=str(payload["task_id"]),
            task_state=payload.get("state", ""),
            source=payload.get("plan_message_id") or "",
        )
        step = f"{payload.get('plan_message_id')}#step:{payload.get('plan_step')}"
        if step in self.graph:
            self._edge(message_id, step, "schedules")
        result = payload.get("result_message_id")
        if result and result in self.graph:
            self._edge(message_id, result, "cites")

    def _stand(self, message_id: str, reply: str | None, provenance: dict[str, Any]) -> None:
        """Which report is current: a sender's new report supersedes its earlier one, a review names
        what it reviewed, and a refusal takes back the correction it declines. The session's current
        answer (``graph.graph[CURRENT_ANSWER]``) is its latest written deliverable, and before there is
        one, its latest report that is not a review."""
        attrs = self.graph.nodes[message_id]
        sender = attrs["sender"]
        if provenance.get("review_of") in self.graph:
            attrs["review_of"] = provenance["review_of"]
        if provenance.get("deliverable"):
            attrs["deliverable"] = True
        if provenance.get("from_message_id") in self.graph:
            attrs["written_from"] = provenance["from_message_id"]
        if provenance.get("refused"):
            attrs["refused"] = True
            if self._decline(reply, sender):
                attrs["declines"] = reply
            return
        earlier = self.latest_report.get(sender)
        if earlier is not None:
            self.graph.nodes[earlier]["superseded_by"] = message_id
            attrs["supersedes"] = earlier
        self.latest_report[sender] = message_id
        current = self.graph.graph.get(CURRENT_ANSWER)
        written = current is not None and self.graph.nodes[current].get("deliverable") and current != earlier
        if "review_of" not in attrs and (attrs.get("deliverable") or not written):
            self.graph.graph[CURRENT_ANSWER] = message_id
            if current not in (None, earlier):
                attrs["was_current"] = current

    def _decline(self, correction: str | None, sender: str) -> bool:
        """The author of a corrected report (or of the analysis it was written from) says it cannot act
        on a person's correction, refinement or new direction: what that feedback overturned and
        flagged stands again, so nothing looks redone that was not."""
        nodes = self.graph.nodes
        if correction is None or correction not in self.graph:
            return False
        if nodes[correction].get("feedback_type") in (None, "approval") or nodes[correction].get("suggestion"):
            return False
        target = nodes[correction].get("target")
        report = nodes[nodes[target]["message"]] if target is not None else {}
        analysis = nodes.get(str(report.get("written_from")), {})
        if sender not in (report.get("sender"), analysis.get("sender")):
            return False
        nodes[correction]["declined_by"] = sender
        if correction in self.caused:
            self._withdraw(correction)
        return True

    # -- statuses and invalidation ------------------------------------------------------------

    def _status(self, node: str, attrs: dict[str, Any], status: str) -> None:
        """Every status is written here, so the sets of what waits for a person follow it."""
        attrs["status"] = status
        if attrs["kind"] in ASKS:
            _keep(self.open_asks, node, status == "open")
        elif node in self.plans:
            _keep(self.proposed_plans, node, status == "proposed")

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
        seen = {node}
        queue = deque([node])
        while queue:
            current = queue.popleft()
            for parent, edge in pred[current].items():
                if parent not in seen and edge["type"] in DEPENDENCY_EDGES:
                    seen.add(parent)
                    queue.append(parent)
        seen.discard(node)
        return seen

    def depends_on(self, node: str) -> set[str]:
        """Everything ``node`` builds on, transitively (the node itself included)."""
        succ = self.graph._succ  # type: ignore[attr-defined]  # as in derived_from
        seen = {node}
        queue = deque([node])
        while queue:
            current = queue.popleft()
            for child, edge in succ[current].items():
                if child not in seen and edge["type"] in DEPENDENCY_EDGES:
                    seen.add(child)
                    queue.append(child)
        return seen

    def affected_by(self, message_id: str) -> frozenset[str]:
        """The nodes a message set the status of: for a correction, what it overturned and flagged."""
        return frozenset(self.caused.get(message_id, ()))

    def unseen_redirects(self, *, since_seq: int, in_reply_to: str | None) -> list[str]:
        """Corrections after ``since_seq`` that change what a reply to ``in_reply_to`` builds on."""
        if not in_reply_to or in_reply_to not in self.graph:
            return []
        later = [redirect for redirect in self.redirects if redirect.seq > since_seq]
        if not later:
            return []
        basis = self.depends_on(in_reply_to)
        basis_messages = {self.graph.nodes[node]["message"] for node in basis}
        return [
            redirect.message_id
            for redirect in later
            if redirect.target in basis or self.graph.nodes[redirect.target]["message"] in basis_messages
        ]

    # -- reading ------------------------------------------------------------------------------

    def resolve_target(self, message_id: str, part: dict[str, Any] | None) -> str | None:
        """The node a piece of feedback aims at: a whole message or one part of it."""
        if message_id not in self.graph:
            return None
        if not part or part.get("kind") == "quote":
            section = part.get("id") if part else None
            node = f"{message_id}#section:{section}"
            return node if section and node in self.graph else message_id
        kind = part["kind"]
        # Sections are named by id; assumptions and questions by index; steps by step number.
        key = part.get("id") if kind == "section" else part.get("index", part.get("id"))
        node = f"{message_id}#{kind}:{key}"
        return node if node in self.graph else None

    def _step_node(self, task_step_id: object) -> str | None:
        if task_step_id is None:
            return None
        number = _int(str(task_step_id).removeprefix("step_").removeprefix("step-").removeprefix("step"))
        return self.steps.get(number) if number is not None else None

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


def _keep(members: set[str], node: str, member: bool) -> None:
    if member:
        members.add(node)
    else:
        members.discard(node)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _label(kind: str, payload: dict[str, Any]) -> str:
    for key in ("goal", "question", "activity", "label", "text", "message", "operation"):
        if isinstance(payload.get(key), str):
            return _short(payload[key])
    if kind == "collaborative_response":
        return _short(payload["content"]["body"])
    if kind == "human_feedback":
        return f"{payload['feedback_type'].replace('_', ' ')} of {payload['target_message_id']}"
    return payload_label(kind)
