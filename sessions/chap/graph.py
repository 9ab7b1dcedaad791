"""The shared context as a versioned directed graph, derived from the message log.

Each message adds its own node and the units inside it (goal, constraints, plan steps,
assumptions, sections, questions, sources, …). Edges point from the newer, dependent node to
what it builds on: ``reply --responds_to--> original``, ``response --assumes--> assumption``,
``step --decomposes--> goal``. So everything *derived from* a node is its set of ancestors
along the dependency edges, which is what a correction must flag.

A message's nodes and edges are its payload type's rule (``_apply_<payload_type>``); statuses,
what derives from what and the export are ``dependencies.DependencyGraph``'s.

``apply`` costs what the message itself contains (plus, for a correction, what it flags);
nothing in it walks the whole session, so appending stays flat as sessions grow.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sessions.chap.dependencies import DependencyGraph
from sessions.chap.labels import feedback_label, message_label, payload_label
from sessions.chap.tables import markdown_tables, table_digest
from sessions.chap.traits import node_kind

REDIRECTING_FEEDBACK = frozenset({"correction", "new_direction"})
CURRENT_ANSWER = "current_answer"  # the graph-level attribute naming the report that is the session's answer now
# A report's provenance flag: the questions its sender asked before and did not ask again still wait
# (an agent that asks each question once). Without it a new report asks again what its sender still
# needs, and what it does not ask waits no more.
EARLIER_QUESTIONS_STAND = "earlier_questions_stand"


@dataclass(frozen=True)
class Redirect:
    """A correction or new direction: when it was accepted and what it aimed at."""

    seq: int
    message_id: str
    target: str


class ContextGraph(DependencyGraph):
    def __init__(self, session_id: str):
        super().__init__()
        self.session_id = session_id
        self.seq = 0
        self.goal: str | None = None
        self.steps: dict[int, str] = {}
        self.redirects: list[Redirect] = []
        self.latest_report: dict[str, str] = {}  # sender -> its report that stands (later ones supersede it)
        self.first_tables: dict[str, str] = {}  # a Markdown table's digest -> the section that first showed it

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

    def _unit(
        self, message_id: str, seq: int, kind: str, key: object, text: str, *, label: str = "", **attrs: Any
    ) -> str:
        node = f"{message_id}#{kind}:{key}"
        self._node(node, kind, message_id, seq, label=_short(label or text), text=text, **attrs)
        self._edge(node, message_id, "part_of")
        return node

    def _apply_task_proposal(self, message_id: str, seq: int, payload: dict[str, Any]) -> None:
        # What the proposal asked besides its goal, on the node the map draws as the goal (the unit folds into it).
        self.graph.nodes[message_id]["brief"] = {key: value for key, value in payload.items() if key != "ontology"}
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
            node = self._unit(
                message_id,
                seq,
                "section",
                section["id"],
                section["body"],
                label=section.get("title") or section["body"],
                confidence=section.get("confidence"),
                index=index,
            )
            self._tables_shown(node, section["body"])
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

    def _tables_shown(self, section: str, text: str) -> None:
        """Note the section's tables the session showed before (``repeats``: a table's place among the
        section's tables -> the section that first showed it), and where the others are first shown."""
        repeats = {}
        for place, table in enumerate(markdown_tables(text)):
            first = self.first_tables.setdefault(table_digest(table), section)
            if first != section:
                repeats[place] = first
        if repeats:
            self.graph.nodes[section]["repeats"] = repeats

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
        what it reviewed, a refusal takes back the correction it declines, and what the sender asked before
        and did not ask again waits no more (``_drop_asks``), unless the report says its earlier
        questions stand (``EARLIER_QUESTIONS_STAND``: the analyst asks a question once). The session's current
        answer (``graph.graph[CURRENT_ANSWER]``) is its latest written deliverable, and before there is
        one, its latest report that is not a review."""
        attrs = self.graph.nodes[message_id]
        sender = attrs["sender"]
        if provenance.get("review_of") in self.graph:
            attrs["review_of"] = provenance["review_of"]
            self.graph.nodes[provenance["review_of"]]["reviewed_by"] = message_id  # its latest review
        if provenance.get("deliverable"):
            attrs["deliverable"] = True
        if provenance.get("from_message_id") in self.graph:
            attrs["written_from"] = provenance["from_message_id"]
            self.graph.nodes[attrs["written_from"]]["written_up_in"] = message_id
        if provenance.get("refused"):
            attrs["refused"] = True
            if self._decline(reply, sender):
                attrs["declines"] = reply
            return
        if not provenance.get(EARLIER_QUESTIONS_STAND):
            self._drop_asks(sender, message_id)
        earlier = self.latest_report.get(sender)
        if earlier is not None:
            self.graph.nodes[earlier]["superseded_by"] = message_id
            attrs["supersedes"] = earlier
            attrs["version"] = self.graph.nodes[earlier].get("version", 1) + 1  # of its sender's report
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
