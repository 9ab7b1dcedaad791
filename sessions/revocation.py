"""Every way a person's access ends that does not go through a session's own services: the account
(deactivated, deleted, its password changed), the browser session (signed out), the teams (someone taken
out of a group, a group deleted) and the session itself (deleted). Each tells the open sockets
concerned on commit (sessions.events.access_changed_on_commit), on every server process, and each
socket checks again (sessions.consumers.access_now): closed with 4403, or on with its new role.

sessions.apps connects these receivers; the README's security section lists every path."""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user

from sessions.access import SYSTEM
from sessions.events import ACCESS_CHANGED, access_changed_on_commit, send_on_commit
from sessions.membership import share_announce
from sessions.models import GroupShare

if TYPE_CHECKING:
    from django.contrib.auth.models import Group, User
    from django.http import HttpRequest

    from sessions.models import WorkSession

# The fields of a user whose change can end their access: any other save (a login's last_login) cannot.
ACCESS_FIELDS = frozenset({"is_active", "password"})


def still_signed_in(session_key: str | None, user_id: int) -> bool:
    """Whether the browser session a socket was opened with still signs in this user, by Django's own
    check: not signed out or expired, the account active, its password unchanged since."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return bool(get_user(SimpleNamespace(session=store)).pk == user_id)  # type: ignore[arg-type]


def account_saved(*, instance: User, created: bool, update_fields: frozenset[str] | None, **_: Any) -> None:
    """``post_save`` of a user: deactivated, or given a new password (which ends their other browser
    sessions), every socket of theirs checks again."""
    if created or (update_fields is not None and not ACCESS_FIELDS & update_fields):
        return
    access_changed_on_commit("user", instance.pk)


def account_deleted(*, instance: User, **_: Any) -> None:
    access_changed_on_commit("user", instance.pk)


def signed_out(*, request: HttpRequest, user: User | None, **_: Any) -> None:
    """``user_logged_out``: the browser session ends here, before its sockets are told (Django ends it
    right after this signal, too late for a socket that checks at once); sockets of other browsers stay."""
    if user is None:
        return
    request.session.flush()
    access_changed_on_commit("user", user.pk)


def team_changed(*, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **_: Any) -> None:
    """``m2m_changed`` of users' groups: the users whose teams changed check their access again in
    the sessions shared with those teams (``instance`` is a user, or a group when ``reverse``)."""
    if action not in ("post_add", "post_remove", "pre_clear"):
        return
    if reverse:
        groups, users = [instance.pk], list(pk_set or instance.user_set.values_list("pk", flat=True))
    else:
        groups, users = list(pk_set or instance.groups.values_list("pk", flat=True)), [instance.pk]
    sessions = set(GroupShare.objects.filter(group_id__in=groups).values_list("session_id", flat=True))
    for user_id in users:
        for session_id in sessions:
            access_changed_on_commit("user", user_id, session_id)


def team_deleted(*, instance: Group, **_: Any) -> None:
    """``pre_delete`` of a group: its shares and memberships go by cascade, so each share ends here as
    an unshare does, logged in the session and told to the team's open sockets."""
    for session_id in instance.chap_shares.values_list("session_id", flat=True):
        share_announce(session_id=session_id, caller=SYSTEM, group=instance, role=None)


def session_deleted(*, instance: WorkSession, **_: Any) -> None:
    """``post_delete`` of a session: every socket of it, whoever's, finds it gone and closes."""
    send_on_commit(instance.pk, {"type": ACCESS_CHANGED, "session_id": str(instance.pk)})
