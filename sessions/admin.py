from django.contrib import admin

from sessions.models import Membership, WorkSession


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(WorkSession)
class WorkSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "state", "created_by", "created_at", "last_activity_at"]
    list_filter = ["state", "created_at"]
    search_fields = ["title", "id", "created_by__username"]
    readonly_fields = ["id", "created_at", "last_activity_at"]
    inlines = [MembershipInline]
