"""What the workbench does with each payload type besides validating it: one registry, read by the
sender check, the thread, the live fragments, the scheduling board, the history and the decision map.

Adding a payload type is its schema (``schemas.PAYLOADS``), its graph rule (``ContextGraph._apply_<type>``),
its traits here and, when the thread shows it, one partial in ``templates/workspace/partials/payloads/``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

HUMAN, AGENT, SYSTEM = frozenset({"human"}), frozenset({"agent"}), frozenset({"system"})
# The decision map's columns a message's node can stand in (layout.COLUMNS), or folded into the node
# of what caused it and counted on that node's badge (the log's machinery).
MAP_SHAPES = ("goal", "plan", "result", "decision", "folded")
PAYLOAD_PARTIALS = "workspace/partials/payloads"


@dataclass(frozen=True)
class PayloadTraits:
    label: str  # what the message is for, as a noun a sentence can carry ("the plan from planner")
    senders: frozenset[str]  # the kinds of sender that may post it (docs/chap.md, "Who may post what")
    map_shape: str  # one of MAP_SHAPES
    renderer: str | None  # its partial in the thread ("line": its one-line summary); None: not in the thread
    in_timeline: bool = True  # listed in the history's timeline (status chatter is not)
    timeline_landmark: bool = False  # kept in a shortened timeline, before the newest entries
    refreshes_panels: bool = False  # the status bar and the approval cards are sent again after it
    changes_schedule: bool = False  # the scheduling board is sent again after it
    node_kind: str = ""  # the kind of its node in the context graph, when not the payload type's name
    badge_words: tuple[str, str] | None = None  # one and many of it on a map node's badge, when folded

    def __post_init__(self) -> None:
        if self.map_shape not in MAP_SHAPES:
            raise ValueError(f"map_shape {self.map_shape!r} is none of {MAP_SHAPES}")
        if (self.map_shape == "folded") != (self.badge_words is not None):
            raise ValueError("a folded payload type, and only one, has badge words")

    @property
    def in_thread(self) -> bool:
        return self.renderer is not None

    @property
    def template(self) -> str | None:
        return f"{PAYLOAD_PARTIALS}/{self.renderer}.html" if self.renderer else None


# Humans keep the final say: only they propose the task, give feedback (approvals and corrections are
# decisions) and answer clarifications; agents declare, respond, ask and report; the workbench records
# what happened. What opens or settles an item waiting for people (plans, questions, answers,
# approvals) refreshes the side panels, as does what agents report.
TRAITS: dict[str, PayloadTraits] = {
    "task_proposal": PayloadTraits(
        label="task", senders=HUMAN, map_shape="goal", renderer="task_proposal", timeline_landmark=True
    ),
    "agent_capability_declaration": PayloadTraits(
        label="plan", senders=AGENT, map_shape="plan", renderer="agent_capability_declaration", refreshes_panels=True
    ),
    "collaborative_response": PayloadTraits(
        label="report", senders=AGENT, map_shape="result", renderer="collaborative_response", refreshes_panels=True
    ),
    "human_feedback": PayloadTraits(
        label="feedback", senders=HUMAN, map_shape="decision", renderer="human_feedback", refreshes_panels=True
    ),
    "clarification": PayloadTraits(
        label="question", senders=AGENT, map_shape="plan", renderer="clarification", refreshes_panels=True
    ),
    "clarification_answer": PayloadTraits(
        label="answer", senders=HUMAN, map_shape="decision", renderer="clarification_answer", refreshes_panels=True
    ),
    "agent_status": PayloadTraits(
        label="status update",
        senders=AGENT,
        map_shape="folded",
        renderer=None,
        in_timeline=False,
        refreshes_panels=True,
        changes_schedule=True,
        badge_words=("status update", "status updates"),
    ),
    "checkpoint": PayloadTraits(
        label="checkpoint", senders=HUMAN | SYSTEM, map_shape="goal", renderer="line", timeline_landmark=True
    ),
    "summary": PayloadTraits(label="summary", senders=AGENT | SYSTEM, map_shape="result", renderer="line"),
    "error": PayloadTraits(label="problem report", senders=AGENT | SYSTEM, map_shape="result", renderer="error"),
    "task_event": PayloadTraits(
        label="scheduling change",
        senders=SYSTEM,
        map_shape="folded",
        renderer=None,
        refreshes_panels=True,
        changes_schedule=True,
        badge_words=("task event", "task events"),
    ),
    "session_event": PayloadTraits(
        label="session change",
        senders=SYSTEM,
        map_shape="folded",
        renderer="line",
        badge_words=("session event", "session events"),
    ),
    "operation_record": PayloadTraits(
        label="operation",
        senders=SYSTEM,
        map_shape="folded",
        renderer=None,
        in_timeline=False,
        refreshes_panels=True,
        changes_schedule=True,
        node_kind="operation",
        badge_words=("operation", "operations"),
    ),
}


def node_kind(payload_type: str) -> str:
    """The kind of a message's node in the context graph."""
    return TRAITS[payload_type].node_kind or payload_type


def _where(trait: Callable[[PayloadTraits], bool]) -> frozenset[str]:
    return frozenset(kind for kind, traits in TRAITS.items() if trait(traits))


THREAD_HIDDEN = _where(lambda traits: not traits.in_thread)
REFRESHES_SIDE_PANELS = _where(lambda traits: traits.refreshes_panels)
SCHEDULE_CHANGES = _where(lambda traits: traits.changes_schedule)
TIMELINE_HIDDEN = _where(lambda traits: not traits.in_timeline)
TIMELINE_LANDMARKS = _where(lambda traits: traits.timeline_landmark)
# The map's badge words by node kind, for the payload types folded into the node that caused them.
FOLDED_WORDS = {node_kind(kind): traits.badge_words for kind, traits in TRAITS.items() if traits.badge_words}
