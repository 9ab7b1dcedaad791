"""How the workspace shows each payload type: the partial that renders it in the thread, and which
panels the live page sends again after it. Keyed by the payload types of the CHAP core's registry
(``sessions.chap.traits.TRAITS``); the lists the thread, the live fragments and the socket read are
read off this one table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PAYLOAD_PARTIALS = "workspace/partials/payloads"


@dataclass(frozen=True)
class PayloadView:
    renderer: str | None  # its partial in the thread ("line": its one-line summary); None: not in the thread
    refreshes_panels: bool = False  # the status bar and the approval cards are sent again after it
    changes_schedule: bool = False  # the scheduling board is sent again after it

    @property
    def in_thread(self) -> bool:
        return self.renderer is not None

    @property
    def template(self) -> str | None:
        return f"{PAYLOAD_PARTIALS}/{self.renderer}.html" if self.renderer else None


# What opens or settles an item waiting for people (plans, questions, answers, approvals) refreshes the
# side panels, as does what agents report; the log's machinery is left to the status bar and the map.
VIEWS: dict[str, PayloadView] = {
    "task_proposal": PayloadView("task_proposal"),
    "agent_capability_declaration": PayloadView("agent_capability_declaration", refreshes_panels=True),
    "collaborative_response": PayloadView("collaborative_response", refreshes_panels=True),
    "human_feedback": PayloadView("human_feedback", refreshes_panels=True),
    "clarification": PayloadView("clarification", refreshes_panels=True),
    "clarification_answer": PayloadView("clarification_answer", refreshes_panels=True),
    "agent_status": PayloadView(None, refreshes_panels=True, changes_schedule=True),
    "checkpoint": PayloadView("line"),
    "summary": PayloadView("line"),
    "error": PayloadView("error"),
    "task_event": PayloadView(None, refreshes_panels=True, changes_schedule=True),
    "session_event": PayloadView("line"),
    "operation_record": PayloadView(None, refreshes_panels=True, changes_schedule=True),
}


def _where(trait: Callable[[PayloadView], bool]) -> frozenset[str]:
    return frozenset(kind for kind, view in VIEWS.items() if trait(view))


THREAD_HIDDEN = _where(lambda view: not view.in_thread)
REFRESHES_SIDE_PANELS = _where(lambda view: view.refreshes_panels)
SCHEDULE_CHANGES = _where(lambda view: view.changes_schedule)
