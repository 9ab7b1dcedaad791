from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sessions.access import caller_for_user
from sessions.events import access_changed_on_commit
from sessions.models import CriterionCheck, GroupShare, Membership, Message, Rating, SessionAgent, WorkSession
from sessions.services import share_announce


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
        """A member or agent removed here, or given another role, loses or changes access on its open
        sockets at once, as through the services."""
        if formset.model is GroupShare:
            self._save_shares(request, formset)
            return
        super().save_formset(request, form, formset, change)
        touched = [*formset.deleted_objects, *(changed for changed, _ in formset.changed_objects)]
        for row in touched:
            if isinstance(row, Membership):
                access_changed_on_commit("user", row.user_id, row.session_id)
            elif isinstance(row, SessionAgent):
                access_changed_on_commit("agent", row.agent_id, row.session_id)

    def _save_shares(self, request: HttpRequest, formset: Any) -> None:
        """Shares made, changed or removed here are logged as session events, as through the services."""
        shares = formset.save(commit=False)
        admin_user = signed_in_staff(request)
        admin_caller = caller_for_user(admin_user)
        for share in formset.deleted_objects:
            share.delete()
            share_announce(session_id=share.session_id, caller=admin_caller, group=share.group, role=None)
        changed = {row.pk for row, _ in formset.changed_objects}
        for share in shares:
            is_new = share.pk is None
            share.shared_by = share.shared_by or admin_user
            share.save()
            if is_new or share.pk in changed:
                share_announce(session_id=share.session_id, caller=admin_caller, group=share.group, role=share.role)


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
