"""Reads of sessions, always scoped to what the caller may see."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from sessions.chap.context import DEFAULT_BUDGET, build_agent_context
from sessions.chap.metrics import process_metrics
from sessions.graphs import graph_cache
from sessions.models import WorkSession


def sessions_for_user(*, user: AbstractBaseUser) -> QuerySet[WorkSession]:
    return WorkSession.objects.filter(memberships__user=user).order_by("-last_activity_at")


def session_messages(*, session: WorkSession, since_seq: int = 0, limit: int | None = None) -> list[tuple[int, dict]]:
    rows = session.messages.filter(seq__gt=since_seq).order_by("seq").values_list("seq", "envelope")
    return list(rows[:limit] if limit else rows)


def agent_context(*, session: WorkSession, task_message_id: str | None = None, budget: int = DEFAULT_BUDGET) -> dict:
    entry = graph_cache.entry(session)
    messages = session_messages(session=session)
    with entry.lock:
        return build_agent_context(entry.graph, messages, task_message_id=task_message_id, budget=budget)


def metrics(*, session: WorkSession) -> dict:
    entry = graph_cache.entry(session)
    messages = session_messages(session=session)
    with entry.lock:
        return process_metrics(entry.graph, messages)


EXPORT_FORMAT = "chap-session-export/1"


def session_export(*, session: WorkSession) -> dict:
    """Everything needed to rebuild the session elsewhere: metadata, members, messages with checksums."""
    rows = session.messages.order_by("seq").values_list("seq", "checksum", "envelope")
    memberships = session.memberships.select_related("user")
    return {
        "format": EXPORT_FORMAT,
        "session": {
            "id": str(session.pk),
            "title": session.title,
            "state": session.state,
            "created_at": session.created_at.isoformat(),
            "head_seq": session.head_seq,
            "head_checksum": session.head_checksum,
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in memberships],
        "messages": [{"seq": seq, "checksum": checksum, "envelope": envelope} for seq, checksum, envelope in rows],
    }
