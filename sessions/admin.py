from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sessions.access import Caller, caller_for_user
from sessions.membership import agent_join, agent_leave, member_add, member_drop, share_drop, share_set
from sessions.models import CriterionCheck, GroupShare, Membership, Message, Rating, SessionAgent, WorkSession


def signed_in_staff(request: HttpRequest) -> User:
    """Who uses the admin: a signed-in staff account (the admin lets no one else in)."""
    assert isinstance(request.user, User), "the admin lets only signed-in staff in"
    return request.user


class MembershipInline(admin.TabularInline[Membership, WorkSession]):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class GroupShareInline(admin.TabularInline[GroupShare, WorkSession]):
    """Teams (Django groups) the session is shared with; each change is logged in the session."""

    model = GroupShare
    extra = 0
    fields = ["group", "role", "shared_by", "shared_at"]
    readonly_fields = ["shared_by", "shared_at"]


class ParticipantInline(admin.TabularInline[SessionAgent, WorkSession]):
    model = SessionAgent
    extra = 0
    autocomplete_fields = ["agent"]


_Row = TypeVar("_Row", bound=Model)


class ReadOnlyInline(admin.TabularInline[_Row, WorkSession]):
    """The log and what agents asked for are history: shown, never edited here."""

    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: WorkSession | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: WorkSession | None = None) -> bool:
        return False


class CriterionCheckInline(ReadOnlyInline[CriterionCheck]):
    """The retrospective's verdicts are the members' own: made on the retrospective page."""

    model = CriterionCheck
    show_change_link = False
    fields = readonly_fields = ("index", "criterion", "met", "note", "checked_by", "checked_at")


class RatingInline(ReadOnlyInline[Rating]):
    model = Rating
    show_change_link = False
    fields = readonly_fields = ("user", "rating", "comment", "updated_at")


@admin.register(WorkSession)
class WorkSessionAdmin(admin.ModelAdmin[WorkSession]):
    list_display = ["title", "state", "created_by", "created_at", "last_activity_at"]
    list_filter = ["state", "created_at"]
    search_fields = ["title", "id", "created_by__username"]
    readonly_fields = [
        "id",
        "created_at",
        "last_activity_at",
        "head_seq",
        "head_checksum",
        "open_questions",
        "proposed_plans",
        "message_log",
    ]

    @admin.display(description="message log")
    def message_log(self, session: WorkSession) -> SafeString:
        url = reverse("admin:chap_sessions_message_changelist") + f"?session__id__exact={session.pk}"
        return format_html('<a href="{}">{} messages, read-only</a>', url, session.head_seq)

    inlines = [
        MembershipInline,
        GroupShareInline,
        ParticipantInline,
        CriterionCheckInline,
        RatingInline,
    ]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """Members, agents and team shares edited here change through the membership services, so the
        log and their open sockets learn it as when the owner changes them on the session page."""
        save = {Membership: _save_members, SessionAgent: _save_agents, GroupShare: _save_shares}.get(formset.model)
        if save is None:
            super().save_formset(request, form, formset, change)
            return
        rows = formset.save(commit=False)
        save(caller_for_user(signed_in_staff(request)), formset.deleted_objects, rows)


def _save_members(caller: Caller, deleted: list[Any], rows: list[Any]) -> None:
    for row in deleted:
        member_drop(row)
    for row in rows:
        member_add(session=row.session, user=row.user, role=row.role)


def _save_agents(caller: Caller, deleted: list[Any], rows: list[Any]) -> None:
    for row in deleted:
        agent_leave(session=row.session, agent=row.agent)
    for row in rows:
        agent_join(
            session=row.session, agent=row.agent, role=row.role, covers_roles=row.covers_roles, paused=row.paused
        )


def _save_shares(caller: Caller, deleted: list[Any], rows: list[Any]) -> None:
    for row in deleted:
        share_drop(session_id=row.session_id, group=row.group, caller=caller)
    for row in rows:
        share_set(session_id=row.session_id, group=row.group, role=row.role, caller=caller)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin[Message]):
    list_display = ["seq", "session", "payload_type", "sender_type", "sender_id", "created_at"]
    list_filter = ["payload_type", "sender_type"]
    search_fields = ["message_id", "sender_id", "session__title"]
    list_select_related = ["session"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Message | None = None) -> bool:
        return False
