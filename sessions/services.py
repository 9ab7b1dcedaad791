"""Writes to sessions. Every change to a session goes through one of these functions."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from sessions.models import MemberRole, Membership, WorkSession


@transaction.atomic
def session_create(*, owner: AbstractBaseUser, title: str) -> WorkSession:
    session = WorkSession.objects.create(title=title, created_by=owner)
    Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
    return session


def member_add(*, session: WorkSession, user: AbstractBaseUser, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(session=session, user=user, defaults={"role": role})
    return membership
