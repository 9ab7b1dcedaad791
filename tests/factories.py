"""Small factories for test data: each makes one real object with sensible defaults."""

import itertools

from django.contrib.auth import get_user_model

from sessions.membership import member_add, session_create
from sessions.models import MemberRole, WorkSession

_counter = itertools.count(1)
PASSWORD = "correct-horse-battery-staple"


def make_user(username: str | None = None, *, superuser: bool = False, password: str = PASSWORD):
    username = username or f"user{next(_counter)}"
    User = get_user_model()
    if superuser:
        return User.objects.create_superuser(username, email=f"{username}@example.test", password=password)
    return User.objects.create_user(username, email=f"{username}@example.test", password=password)


def make_session(*, owner=None, title: str | None = None, members: dict | None = None) -> WorkSession:
    """A session owned by ``owner``; ``members`` maps users to roles (editor, viewer)."""
    session = session_create(owner=owner or make_user(), title=title or f"Session {next(_counter)}")
    for user, role in (members or {}).items():
        member_add(session=session, user=user, role=MemberRole(role))
    return session


def make_agent(name: str | None = None, **fields):
    from agents.models import Agent

    return Agent.objects.create(name=name or f"agent{next(_counter)}", **fields)


def agent_in(session, name: str = "analyst", **fields):
    """The caller of agent ``name`` (made when missing) taking part in ``session``."""
    from agents.models import Agent
    from sessions.access import caller_for_agent
    from sessions.membership import agent_join

    agent, _ = Agent.objects.get_or_create(name=name, defaults=fields)
    agent_join(session=session, agent=agent)
    return caller_for_agent(agent)


def post_message(session, caller, factory, *args, **kwargs):
    """Post ``factory(*args, **kwargs)`` (an envelope factory) as ``caller``, against the session's head."""
    from sessions.log import message_post
    from sessions.models import WorkSession

    kwargs.setdefault("context_checksum", WorkSession.objects.get(pk=session.pk).head_checksum)
    kwargs.setdefault("session_id", session.pk)
    kwargs.setdefault("sender", (caller.kind, caller.sender_id))
    return message_post(session_id=session.pk, caller=caller, envelope=factory(*args, **kwargs))
