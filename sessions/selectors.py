"""Reads of sessions, always scoped to what the caller may see."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from sessions.models import Membership, WorkSession


def sessions_for_user(*, user: AbstractBaseUser) -> QuerySet[WorkSession]:
    return WorkSession.objects.filter(memberships__user=user).order_by("-last_activity_at")


def membership_of(*, session_id, user: AbstractBaseUser) -> Membership | None:
    """The caller's membership, or None; callers answer "not found" for None so outsiders learn nothing."""
    if not user.is_authenticated:
        return None
    return Membership.objects.select_related("session").filter(session_id=session_id, user=user).first()
