"""What the CHAP core knows of each payload type besides its schema: one registry, read by the sender
check, the words, the history and the decision map's fold. How the workspace shows each payload type
(its partial in the thread, the panels sent again after it) is the workspace's own registry,
``workspace.traits``, keyed by the same payload types.

Adding a payload type is its schema (``payloads.PAYLOADS``), its graph rule (``ContextGraph._apply_<type>``),
its traits here and its view in ``workspace.traits``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

HUMAN, AGENT, SYSTEM = frozenset({"human"}), frozenset({"agent"}), frozenset({"system"})
# The decision map's columns a message's node can stand in (layout.COLUMNS), or folded into the node
# of what caused it and counted on that node's badge (the log's machinery).
MAP_SHAPES = ("goal", "plan", "result", "decision", "folded")


@dataclass(frozen=True)
class PayloadTraits:
    label: str  # what the message is for, as a noun a sentence can carry ("the plan from planner")
    senders: frozenset[str]  # the kinds of sender that may post it (docs/chap.md, "Who may post what")
    map_shape: str  # one of MAP_SHAPES
    in_timeline: bool = True  # listed in the history's timeline (status chatter is not)
    timeline_landmark: bool = False  # kept in a shortened timeline, before the newest entries
    node_kind: str = ""  # the kind of its node in the context graph, when not the payload type's name
    badge_words: tuple[str, str] | None = None  # one and many of it on a map node's badge, when folded

    def __post_init__(self) -> None:
        if self.map_shape not in MAP_SHAPES:
            raise ValueError(f"map_shape {self.map_shape!r} is none of {MAP_SHAPES}")
        if (self.map_shape == "folded") != (self.badge_words is not None):
            raise ValueError("a folded payload type, and only one, has badge words")


# Humans keep the final say: only they propose the task, give feedback (approvals and corrections are
# decisions) and answer clarifications; agents declare, respond, ask and report; the workbench records
# what happened. The log's machinery folds into what caused it on the map.
TRAITS: dict[str, PayloadTraits] = {
    "task_proposal": PayloadTraits("task", HUMAN, "goal", timeline_landmark=True),
    "agent_capability_declaration": PayloadTraits("plan", AGENT, "plan"),
    "collaborative_response": PayloadTraits("report", AGENT, "result"),
    "human_feedback": PayloadTraits("feedback", HUMAN, "decision"),
    "clarification": PayloadTraits("question", AGENT, "plan"),
    "clarification_answer": PayloadTraits("answer", HUMAN, "decision"),
    "agent_status": PayloadTraits(
        "status update", AGENT, "folded", in_timeline=False, badge_words=("status update", "status updates")
    ),
    "checkpoint": PayloadTraits("checkpoint", HUMAN | SYSTEM, "goal", timeline_landmark=True),
    "summary": PayloadTraits("summary", AGENT | SYSTEM, "result"),
    "error": PayloadTraits("problem report", AGENT | SYSTEM, "result"),
    "task_event": PayloadTraits("scheduling change", SYSTEM, "folded", badge_words=("task event", "task events")),
    "session_event": PayloadTraits("session change", SYSTEM, "folded", badge_words=("session event", "session events")),
    "operation_record": PayloadTraits(
        "operation", SYSTEM, "folded", in_timeline=False, node_kind="operation", badge_words=("operation", "operations")
    ),
}


def node_kind(payload_type: str) -> str:
    """The kind of a message's node in the context graph."""
    return TRAITS[payload_type].node_kind or payload_type


def _where(trait: Callable[[PayloadTraits], bool]) -> frozenset[str]:
    return frozenset(kind for kind, traits in TRAITS.items() if trait(traits))


TIMELINE_HIDDEN = _where(lambda traits: not traits.in_timeline)
TIMELINE_LANDMARKS = _where(lambda traits: traits.timeline_landmark)
# The map's badge words by node kind, for the payload types folded into the node that caused them.
FOLDED_WORDS = {node_kind(kind): traits.badge_words for kind, traits in TRAITS.items() if traits.badge_words}
