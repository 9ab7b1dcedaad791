"""Who takes part in a session and how it lives: creation, members, agents, team shares, title and
state, import. Each change that people should see is logged through ``sessions.log``."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from protocol.errors import ProtocolError
from sessions.access import SYSTEM, Access, Caller, SessionId, require_access, require_manager
from sessions.chap.chain import first_break, genesis_checksum
from sessions.chap.history import replay
from sessions.chap.schemas import validate_envelope
from sessions.events import AGENT_JOINED, access_changed_on_commit, send_to_agent_on_commit
from sessions.log import keep_waiting, message_post_at_head, message_row
from sessions.models import (
    GroupShare,
    MemberRole,
    Membership,
    Message,
    SessionAgent,
    SessionState,
    ShareRole,
    WorkSession,
)
from sessions.selectors import EXPORT_FORMAT

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def session_create(*, owner: User, title: str) -> WorkSession:
    session = WorkSession(title=title, created_by=owner)
    session.head_checksum = genesis_checksum(str(session.pk))
    session.save()
    Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
    return session


def member_add(*, session: WorkSession, user: User, role: str) -> Membership:
    """Add a member, or give one another role; a member's open sockets take a new role at once."""
    previous = Membership.objects.filter(session=session, user=user).values_list("role", flat=True).first()
    membership, _ = Membership.objects.update_or_create(session=session, user=user, defaults={"role": role})
    if previous is not None and previous != role:
        access_changed_on_commit("user", user.pk, session.pk)
    return membership


def agent_join(
    *,
    session: WorkSession,
    agent: Any,
    role: str = "",
    covers_roles: list[str] | None = None,
    paused: bool | None = None,
) -> SessionAgent:
    """Add an agent to the session, or change how it takes part (``role``, ``covers_roles``, and from
    the admin ``paused``, else left as it was); an agent's open socket starts receiving it at once."""
    kept: dict[str, Any] = {"role": role, "covers_roles": covers_roles or []}
    if paused is not None:
        kept["paused"] = paused
    participation, created = SessionAgent.objects.update_or_create(session=session, agent=agent, defaults=kept)
    if created:  # an agent connected on /ws/agents/ starts receiving this session at once
        send_to_agent_on_commit(agent.pk, {"type": AGENT_JOINED, "session_id": str(session.pk)})
    return participation


def agent_leave(*, session: WorkSession, agent: Any) -> None:
    """The agent takes no more part in the session; its open sockets stop receiving it at once."""
    if SessionAgent.objects.filter(session=session, agent=agent).delete()[0]:
        access_changed_on_commit("agent", agent.pk, session.pk)


OWNER_ONLY = "only the session's owner can do this"


def session_update(
    *, session_id: SessionId, caller: Caller, title: str | None = None, state: str | None = None
) -> WorkSession:
    """Rename a session or move it to another state (owner and editors); archiving is the owner's."""
    access = require_manager(session_id, caller, to="rename it or change its state", permission="session.manage")
    if state is not None and state not in SessionState.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"state must be one of {list(SessionState.values)}",
            details={"violations": {"state": f"got {state!r}"}},
        )
    if state == SessionState.ARCHIVED and access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.archive"}
        )
    with transaction.atomic():
        session = WorkSession.objects.select_for_update().get(pk=access.session_id)
        who = caller.sender_id
        changes = []
        if title is not None and title != session.title:
            label = f"{who} renamed “{title}”"
            changes.append({"action": "renamed", "title": title, "previous_title": session.title, "label": label})
            session.title = title
        if state is not None and state != session.state:
            label = f"{who} marked {state}"
            changes.append({"action": "state_changed", "state": state, "previous_state": session.state, "label": label})
            session.state = state
        session.save(update_fields=["title", "state"])
        # In the log, so the history shows who changed the session and when, and every open socket
        # learns it with the other messages, in order.
        for change in changes:
            session_event_post(session.pk, caller, **change)
    session.refresh_from_db()
    return session


def member_invite(*, session_id: SessionId, caller: Caller, username: str, role: str) -> Membership:
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.members"}
        )
    if role not in MemberRole.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"role must be one of {list(MemberRole.values)}",
            details={"violations": {"role": f"got {role!r}"}},
        )
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ProtocolError("RESOURCE_NOT_FOUND", f"no user {username!r}", details={"resource_type": "USER"})
    if user.pk == access.session.created_by_id and role != MemberRole.OWNER:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "the session's creator stays its owner",
            details={"violations": {"role": "the creator's role cannot change"}},
        )
    with transaction.atomic():
        membership = member_add(session=access.session, user=user, role=role)
        session_event_post(
            access.session_id, caller, action="member_added", username=username, role=role,
            label=f"{caller.sender_id} added {username} as {MemberRole(role).label.lower()}",
        )  # fmt: skip
    return membership


def session_event_post(session_id: SessionId, caller: Caller, **payload: Any) -> None:
    """A change to the session in its log, written by the workbench on the actor's behalf."""
    message_post_at_head(
        session_id=session_id,
        caller=SYSTEM,
        payload_type="session_event",
        payload={**payload, "by": f"{caller.kind}:{caller.sender_id}"},
    )


def _require_owner(session_id: SessionId, caller: Caller, permission: str) -> Access:
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError("PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": permission})
    return access


def _group_named(name: str) -> Group:
    group = Group.objects.filter(name=name).first()
    if group is None:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"no group {name!r}",
            details={"resource_type": "GROUP", "resource_name": name},
            suggestion=["an admin creates groups in the Django admin"],
        )
    return group


def share_announce(*, session_id: SessionId, caller: Caller, group: Group, role: str | None) -> None:
    """Log that the session was shared with ``group`` as ``role`` (None: no longer shared), and make
    the group's members' open sockets check their access again (also when a group is deleted)."""
    if role is None:
        change = {"action": "unshared", "label": f"{caller.sender_id} stopped sharing the session with {group.name}"}
    else:
        label = f"{caller.sender_id} shared the session with {group.name} as {ShareRole(role).label.lower()}s"
        change = {"action": "shared", "role": role, "label": label}
    by = f"{caller.kind}:{caller.sender_id}"
    payload = {**change, "group": group.name, "by": by}
    message_post_at_head(session_id=session_id, caller=SYSTEM, payload_type="session_event", payload=payload)
    for user_id in group.user_set.values_list("pk", flat=True):
        access_changed_on_commit("user", user_id, session_id)


@transaction.atomic
def share_set(*, session_id: uuid.UUID, group: Group, role: str, caller: Caller) -> GroupShare:
    """Share the session with ``group`` as ``role``, logged when it is new or changed; no permission
    check (``session_share`` checks the owner's, the admin is Django's staff)."""
    share, created = GroupShare.objects.get_or_create(
        session_id=session_id, group=group, defaults={"role": role, "shared_by": caller.user}
    )
    if created or share.role != role:
        share.role = role
        share.save(update_fields=["role"])
        share_announce(session_id=session_id, caller=caller, group=group, role=role)
    return share


@transaction.atomic
def share_drop(*, session_id: uuid.UUID, group: Group, caller: Caller) -> bool:
    """Stop sharing the session with ``group``, logged; False when it was not shared with it."""
    if not GroupShare.objects.filter(session_id=session_id, group=group).delete()[0]:
        return False
    share_announce(session_id=session_id, caller=caller, group=group, role=None)
    return True


def session_share(*, session_id: SessionId, caller: Caller, group: str, role: str) -> GroupShare:
    """The owner shares the session with a team (a Django group), or gives the team another role;
    logged as a session event. The group's members' open sockets take the new role at once."""
    access = _require_owner(session_id, caller, "session.share")
    if role not in ShareRole.values:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"role must be one of {list(ShareRole.values)}",
            details={"violations": {"role": f"got {role!r}"}},
        )
    return share_set(session_id=access.session_id, group=_group_named(group), role=role, caller=caller)


def session_unshare(*, session_id: SessionId, caller: Caller, group: str) -> None:
    """The owner stops sharing the session with a team; logged, and the team's open sockets close."""
    access = _require_owner(session_id, caller, "session.share")
    team = _group_named(group)
    if not share_drop(session_id=access.session_id, group=team, caller=caller):
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"the session is not shared with {team.name!r}",
            details={"resource_type": "GROUP_SHARE", "resource_name": team.name},
        )


def member_remove(*, session_id: SessionId, caller: Caller, username: str) -> None:
    """The owner removes a member; the member's open sockets of the session are closed at once."""
    access = require_access(session_id, caller, write=True)
    if access.role != MemberRole.OWNER:
        raise ProtocolError(
            "PERMISSION_DENIED", OWNER_ONLY, details={"role": access.role, "permission": "session.members"}
        )
    membership = (
        Membership.objects.filter(session_id=access.session_id, user__username=username).select_related("user").first()
    )
    if membership is None:
        raise ProtocolError(
            "RESOURCE_NOT_FOUND",
            f"{username!r} is not a member of this session",
            details={"resource_type": "MEMBER", "resource_name": username},
        )
    if membership.user_id == access.session.created_by_id:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "the session's creator stays its owner",
            details={"violations": {"username": "the creator cannot be removed"}},
        )
    member_drop(membership)


@transaction.atomic
def member_drop(membership: Membership) -> None:
    """Take a member out of the session; the member's open sockets of the session close at once."""
    membership.delete()
    access_changed_on_commit("user", membership.user_id, membership.session_id)


def session_import(*, data: dict[str, Any], owner: User) -> WorkSession:
    """Load an export into this workbench after verifying its chain; the session keeps its id."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"not a {EXPORT_FORMAT} file",
            details={"invalid": {"format": "expected " + EXPORT_FORMAT}},
        )
    meta: dict[str, Any] = data.get("session") or {}
    rows: list[dict[str, Any]] = data.get("messages") or []
    try:
        session_id = str(uuid.UUID(str(meta.get("id"))))
        entries = [(int(row["seq"]), validate_envelope(row["envelope"]), str(row["checksum"])) for row in rows]
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError("VALIDATION_FAILED", f"malformed export: {exc}") from None
    broken = first_break(session_id, entries)
    if broken is not None:
        raise ProtocolError(
            "VALIDATION_FAILED", f"the checksum chain breaks at message #{broken}", details={"seq": broken}
        )
    if WorkSession.objects.filter(pk=session_id).exists():
        raise ProtocolError(
            "RESOURCE_ALREADY_EXISTS", f"session {session_id} exists already", details={"resource_type": "SESSION"}
        )
    with transaction.atomic():
        session = WorkSession(
            id=session_id,
            title=str(meta.get("title") or "Imported session")[:200],
            state=meta["state"] if meta.get("state") in SessionState.values else SessionState.PROPOSED,
            created_by=owner,
            head_seq=entries[-1][0] if entries else 0,
            head_checksum=entries[-1][2] if entries else genesis_checksum(session_id),
        )
        keep_waiting(session, replay(session_id, ((seq, env) for seq, env, _ in entries), until=session.head_seq))
        session.handled_seq = session.head_seq  # an imported history sets no agent to work again
        session.save(force_insert=True)
        Membership.objects.create(session=session, user=owner, role=MemberRole.OWNER)
        for member in data.get("members") or []:
            user = get_user_model().objects.filter(username=member.get("username")).exclude(pk=owner.pk).first()
            if user is not None and member.get("role") in MemberRole.values:
                Membership.objects.create(session=session, user=user, role=member["role"])
        Message.objects.bulk_create(
            message_row(session, seq, envelope, checksum) for seq, envelope, checksum in entries
        )
    return session
