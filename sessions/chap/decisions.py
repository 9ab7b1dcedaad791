"""Who decided what waited for a person, read from the context graph: the answer to a question or a
clarification, the approval or rejection of a plan. The thread shows a decided item closed, with who
decided and when; ``message_post`` refuses a second decision of it with ALREADY_DECIDED, and an answer
to a question the session does not hold with RESOURCE_NOT_FOUND, whatever channel it came by (a form,
REST, a socket). Plain Python: no Django."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import networkx as nx

from protocol.errors import ProtocolError, not_found
from sessions.chap.dependencies import ASKS
from sessions.chap.labels import sender_label

# Which edge into a decided node settles it, and the verb a person reads for it.
SETTLING_EDGES = {"answers": "answered", "approves": "approved", "overturns": "rejected"}
# The feedback that decides a proposed plan (docs/chap.md, "Deciding a plan"): an approval approves it;
# a correction or a new direction rejects it, as they overturn whatever they aim at. A refinement asks
# its author to revise it, and leaves it to be decided.
PLAN_DECISIONS = frozenset({"approval", "correction", "new_direction"})


@dataclass(frozen=True)
class Decision:
    """How an item was settled: ``verb`` is "answered", "approved" or "rejected"."""

    verb: str
    by: str  # a name a person reads
    at: datetime
    said: str  # the answer, or the reason of a rejection ("" when none was given)
    message_id: str
    seq: int


def decision(graph: nx.DiGraph[str], node: str) -> Decision | None:
    """The decision that settles ``node`` now (the latest one a person took and nobody overturned),
    or None while it still waits. A rejection counts only for a plan: a correction of a report
    opens it to review, it does not close it."""
    if node not in graph or graph.nodes[node]["status"] in ("open", "proposed"):
        return None
    nodes = graph.nodes
    settling = [
        (nodes[source]["seq"], source, SETTLING_EDGES[data["type"]])
        for source, _, data in graph.in_edges(node, data=True)
        if data["type"] in SETTLING_EDGES
        and nodes[source]["sender"].startswith("human:")
        and nodes[source]["status"] != "overturned"
        and (data["type"] != "overturns" or nodes[node]["kind"] == "agent_capability_declaration")
    ]
    if not settling:
        return None
    seq, source, verb = max(settling)
    attrs = nodes[source]
    return Decision(
        verb=verb,
        by=sender_label(attrs["sender"]),
        at=datetime.fromisoformat(attrs["timestamp"].replace("Z", "+00:00")),
        said=_said(graph, source),
        message_id=source,
        seq=seq,
    )


def _said(graph: nx.DiGraph[str], source: str) -> str:
    attrs = graph.nodes[source]
    answer = attrs.get("answer")
    if answer is None:  # feedback: its instructions, as the graph keeps them
        return str(attrs.get("text") or "")
    option = graph.nodes.get(f"{attrs.get('asked', '')}#option:{answer.get('option_id')}", {})
    return str(answer.get("free_answer") or option.get("text") or "")


def asked_node(payload: dict[str, Any]) -> str:
    """The node a clarification_answer answers: a clarification, or one question of a report."""
    asked = str(payload["clarification_message_id"])
    return f"{asked}#question:{payload['question_index']}" if payload.get("question_index") is not None else asked


def refuse_unknown_question(graph: nx.DiGraph[str], envelope: dict[str, Any]) -> None:
    """RESOURCE_NOT_FOUND for an answer to no question of this session: an id of another session (which
    the sender may not even see), of no message, or of a message that asks nothing; precondition: valid."""
    if envelope["payload_type"] != "clarification_answer":
        return
    node = asked_node(envelope["payload"])
    if graph.nodes.get(node, {}).get("kind") not in ASKS:
        raise not_found(
            "QUESTION",
            node,
            "this session has no such question to answer",
            suggestion=["answer a clarification or a report's open question of this session, by its message id"],
        )


def refuse_second_decision(graph: nx.DiGraph[str], envelope: dict[str, Any]) -> None:
    """ALREADY_DECIDED for an answer to what was answered, or a person's approval or rejection of a
    plan that was decided; precondition: ``envelope`` is valid and not yet applied."""
    payload = envelope["payload"]
    if envelope["payload_type"] == "clarification_answer":
        node, wanted = asked_node(payload), "answer"
    elif envelope["payload_type"] == "human_feedback" and payload["feedback_type"] in PLAN_DECISIONS:
        node, wanted = str(payload["target_message_id"]), payload["feedback_type"]
        if graph.nodes.get(node, {}).get("kind") != "agent_capability_declaration":
            return
    else:
        return
    settled = decision(graph, node)
    if settled is not None:
        raise already_decided(settled, refused=wanted)


def already_decided(settled: Decision, *, refused: str) -> ProtocolError:
    """The refusal of a second decision: who decided, what, and when (in details)."""
    return ProtocolError(
        "ALREADY_DECIDED",
        f"{settled.by} {settled.verb} this already" + (f": “{settled.said[:200]}”" if settled.said else ""),
        details={
            "decided": settled.verb,
            "decided_by": settled.by,
            "decided_at": settled.at.isoformat(),
            "decision_message_id": settled.message_id,
            "refused": refused,
        },
        suggestion=["reload the page to see the decision; to change it, give feedback on the decision"],
    )
