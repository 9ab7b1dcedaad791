"""Retrospectives of finished sessions: the services that record members' checks and ratings, and
the report that puts them next to what the log says about the session."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from statistics import mean
from typing import Any

from protocol.errors import ProtocolError
from sessions import selectors
from sessions.access import Access, Caller, SessionId, require_access
from sessions.chap import retrospective
from sessions.chap.deliverable import Delivered
from sessions.models import CriterionCheck, Rating, SessionState, WorkSession

FINISHED = frozenset({SessionState.DONE, SessionState.ARCHIVED})
MAX_NOTE = 5000
# Metrics the apps built on sessions add to the report (agents: how long risky steps waited);
# sessions cannot know them, so they register here when their app is ready.
CONTRIBUTED_METRICS: dict[str, Callable[[WorkSession], float | None]] = {}


def metric_contribute(name: str, measure: Callable[[WorkSession], float | None]) -> None:
    CONTRIBUTED_METRICS[name] = measure


def _finished_access(session_id: SessionId, caller: Caller, *, write: bool = False) -> Access:
    access = require_access(session_id, caller, write=write)
    if caller.kind != "human":
        raise ProtocolError(
            "PERMISSION_DENIED", "retrospectives are the members' own", details={"permission": "session.retrospective"}
        )
    state = access.session.state
    if state not in FINISHED:
        raise ProtocolError(
            "INVALID_STATE",
            f"the session is {state}: its retrospective opens when it is done",
            details={"state": state},
            suggestion=["mark the session done first"],
        )
    return access


def success_criteria(messages: Iterable[tuple[int, dict[str, Any]]]) -> tuple[str, list[str]]:
    """The goal and success criteria of the first task proposal among ``(seq, envelope)`` pairs."""
    for _, envelope in messages:
        if envelope["payload_type"] == "task_proposal":
            payload = envelope["payload"]
            return payload["goal"], list(payload.get("success_criteria") or [])
    return "", []


def criterion_check(*, session_id: SessionId, caller: Caller, index: int, met: bool, note: str = "") -> CriterionCheck:
    """Record whether a success criterion was met (owner and editors); a later check replaces it."""
    access = _finished_access(session_id, caller, write=True)
    proposals = access.session.messages.filter(payload_type="task_proposal").order_by("seq")
    _, criteria = success_criteria(proposals.values_list("seq", "envelope")[:1])
    if not 0 <= index < len(criteria):
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"the session has {len(criteria)} success criteria; there is no criterion {index}",
            details={"violations": {"index": f"must be 0 to {len(criteria) - 1}"}},
        )
    check, _ = CriterionCheck.objects.update_or_create(
        session_id=access.session_id,
        index=index,
        defaults={"criterion": criteria[index], "met": met, "note": note[:MAX_NOTE], "checked_by": caller.user},
    )
    return check


def session_rate(*, session_id: SessionId, caller: Caller, rating: int, comment: str = "") -> Rating:
    """A member's rating (1-5) and comment; each member has one, which they may change."""
    access = _finished_access(session_id, caller)
    if not isinstance(rating, int) or isinstance(rating, bool) or not 1 <= rating <= 5:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "a rating is a whole number from 1 to 5",
            details={"violations": {"rating": f"got {rating!r}"}},
        )
    rated, _ = Rating.objects.update_or_create(
        session_id=access.session_id, user=caller.user, defaults={"rating": rating, "comment": comment[:MAX_NOTE]}
    )
    return rated


def retrospective_report(*, session_id: SessionId, caller: Caller) -> dict[str, Any]:
    """Goal and criteria against what was delivered, process metrics, charts' data and ratings."""
    session = _finished_access(session_id, caller).session
    messages = selectors.session_messages(session=session)
    goal, criteria = success_criteria(messages)
    checks = {c.index: c for c in session.criterion_checks.select_related("checked_by")}
    final = selectors.final_report(session=session, messages=messages)
    ratings: list[dict[str, Any]] = [
        {"member": r.user.get_username(), "rating": r.rating, "comment": r.comment, "at": r.updated_at.isoformat()}
        for r in session.ratings.select_related("user").order_by("updated_at")
    ]
    return {
        "session": _session_summary(session),
        "goal": goal,
        "criteria": [_criterion(index, text, checks.get(index)) for index, text in enumerate(criteria)],
        "deliverable": _delivered(final),
        "metrics": {
            **selectors.metrics(session=session, messages=messages),
            **retrospective.resources_used(messages),
            **{name: measure(session) for name, measure in CONTRIBUTED_METRICS.items()},
        },
        "series": retrospective.metrics_over_time(messages),
        "ratings": ratings,
        "average_rating": round(mean(r["rating"] for r in ratings), 2) if ratings else None,
    }


def _session_summary(session: WorkSession) -> dict[str, Any]:
    return {
        "id": str(session.pk),
        "title": session.title,
        "state": session.state,
        "created_at": session.created_at.isoformat(),
        "last_activity_at": session.last_activity_at.isoformat(),
        "messages": session.head_seq,
    }


def _criterion(index: int, text: str, check: CriterionCheck | None) -> dict[str, Any]:
    return {
        "index": index,
        "criterion": text,
        "met": check.met if check else None,
        "by": check.checked_by.get_username() if check and check.checked_by else None,
        "note": check.note if check else "",
        "at": check.checked_at.isoformat() if check else None,
    }


def _delivered(final: Delivered | None) -> dict[str, Any] | None:
    """The final deliverable, its status and review (``selectors.final_report``), as the report shows them."""
    if final is None:
        return None
    envelope = final.envelope
    payload = envelope["payload"]
    return {
        "message_id": envelope["message_id"],
        "sender": f"{envelope['sender']['type']}:{envelope['sender']['id']}",
        "title": final.title,
        "status": final.standing,
        "confidence": payload["confidence_score"],
        "sections": [
            {"title": s.get("title") or s["id"], "confidence": s["confidence"]}
            for s in payload["content"].get("sections") or []
            if s.get("confidence") is not None
        ],
    }
