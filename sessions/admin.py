from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from sessions.access import caller_for_user
from sessions.events import access_changed_on_commit
from sessions.models import CriterionCheck, GroupShare, Membership, Message, Rating, SessionAgent, WorkSession
from sessions.services import share_announce


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class GroupShareInline(admin.TabularInline):
    """Teams (Django groups) the session is shared with; each change is logged in the session."""

    model = GroupShare
    extra = 0
    fields = ["group", "role", "shared_by", "shared_at"]
    readonly_fields = ["shared_by", "shared_at"]


class ParticipantInline(admin.TabularInline):
    model = SessionAgent
    extra = 0
    autocomplete_fields = ["agent"]


class ReadOnlyInline(admin.TabularInline):
    """The log and what agents asked for are history: shown, never edited here."""

    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class CriterionCheckInline(ReadOnlyInline):
    """The retrospective's verdicts are the members' own: made on the retrospective page."""

    model = CriterionCheck
    show_change_link = False
    fields = ["index", "criterion", "met", "note", "checked_by", "checked_at"]
    readonly_fields = fields


class RatingInline(ReadOnlyInline):
    model = Rating
    show_change_link = False
    fields = ["user", "rating", "comment", "updated_at"]
    readonly_fields = fields


@admin.register(WorkSession)
class WorkSessionAdmin(admin.ModelAdmin):
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
    def message_log(self, session):
        url = reverse("admin:chap_sessions_message_changelist") + f"?session__id__exact={session.pk}"
        return format_html('<a href="{}">{} messages, read-only</a>', url, session.head_seq)

    inlines = [
        MembershipInline,
        GroupShareInline,
        ParticipantInline,
        CriterionCheckInline,
        RatingInline,
    ]

    def save_formset(self, request, form, formset, change):
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

    def _save_shares(self, request, formset):
        """Shares made, changed or removed here are logged as session events, as through the services."""
        shares = formset.save(commit=False)
        admin_caller = caller_for_user(request.user)
        for share in formset.deleted_objects:
            share.delete()
            share_announce(session_id=share.session_id, caller=admin_caller, group=share.group, role=None)
        changed = {row.pk for row, _ in formset.changed_objects}
        for share in shares:
            is_new = share.pk is None
            share.shared_by = share.shared_by or request.user
            share.save()
            if is_new or share.pk in changed:
                share_announce(session_id=share.session_id, caller=admin_caller, group=share.group, role=share.role)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["seq", "session", "payload_type", "sender_type", "sender_id", "created_at"]
    list_filter = ["payload_type", "sender_type"]
    search_fields = ["message_id", "sender_id", "session__title"]
    list_select_related = ["session"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
