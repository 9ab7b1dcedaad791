from typing import Any, Protocol

from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agents.models import Agent, AgentToken, Approval, Task, TaskState, TaskTemplate
from agents.scheduling.acts import task_cancel, task_retry
from agents.tokens import agent_set_enabled, token_issue, token_revoke
from protocol.errors import ProtocolError
from sessions.access import Caller, SessionId
from sessions.admin import ReadOnlyInline, WorkSessionAdmin, signed_in_staff
from sessions.models import WorkSession


class AgentTokenInline(admin.TabularInline[AgentToken, Agent]):
    model = AgentToken
    extra = 0
    can_delete = False
    fields = readonly_fields = ("prefix", "label", "created_at", "last_used_at", "revoked_at")

    def has_add_permission(self, request: HttpRequest, obj: Agent | None = None) -> bool:
        return False  # a token is made by the "Issue a token" action, which shows it once


class _TaskAct(Protocol):
    """A scheduling service acting on one task (task_cancel, task_retry)."""

    def __call__(self, *, session_id: SessionId, task_id: int, caller: Caller) -> object: ...


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin[Agent]):
    list_display = ["name", "kind", "roles", "enabled", "concurrency_limit", "live_tokens", "open_tasks"]
    list_filter = ["kind", "enabled"]
    search_fields = ["name", "description", "behaviour"]
    readonly_fields = ["capability_profile", "created_at"]
    inlines = [AgentTokenInline]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    actions = ["issue_token", "revoke_tokens", "enable", "disable"]
    fieldsets = [
        (None, {"fields": ["name", "kind", "behaviour", "roles", "description", "enabled", "concurrency_limit"]}),
        ("Capabilities", {"fields": ["can_do", "cannot_do", "measured_profile", "capability_profile"]}),
        ("Permissions", {"fields": ["allowed_operations", "approval_operations"]}),
        ("LLM", {"fields": ["llm_base_url", "llm_model", "llm_api_key_env"], "classes": ["collapse"]}),
        (None, {"fields": ["created_at"]}),
    ]

    @admin.display(description="live tokens")
    def live_tokens(self, agent: Agent) -> int:
        return agent.tokens.filter(revoked_at__isnull=True).count()

    @admin.display(description="open tasks")
    def open_tasks(self, agent: Agent) -> int:
        return agent.tasks.exclude(state__in=[TaskState.DONE, TaskState.FAILED, TaskState.CANCELLED]).count()

    @admin.display(description="declared and measured")
    def capability_profile(self, agent: Agent) -> SafeString:
        """What the agent says it can do, next to what a benchmark measured."""
        rows = [
            (c.get("action", ""), c.get("scope") or "any", c.get("limitation") or "none stated") for c in agent.can_do
        ]
        declared = format_html_join("", "<li>{} <small>(scope: {}; limitation: {})</small></li>", rows)
        measured = format_html_join("", "<li>{}: {}</li>", sorted(agent.measured_profile.items()))
        return format_html(
            "<div><strong>Declared</strong><ul>{}</ul><strong>Measured</strong><ul>{}</ul></div>",
            declared or format_html("<li>{}</li>", "nothing declared"),
            measured or format_html("<li>{}</li>", "not measured yet (bench/agents_eval.py)"),
        )

    @admin.action(description="Issue a token (shown once)")
    def issue_token(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        for agent in queryset:
            token = token_issue(agent=agent, label=f"issued in the admin by {request.user}")
            self.message_user(request, f"New token for {agent.name} (copy it now, it is not shown again): {token}")

    @admin.action(description="Revoke all their tokens")
    def revoke_tokens(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        tokens = AgentToken.objects.filter(agent__in=queryset, revoked_at__isnull=True)
        count = tokens.count()
        for token in tokens:
            token_revoke(token=token)
        self.message_user(request, f"{count} token(s) revoked")

    @admin.action(description="Enable")
    def enable(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        for agent in queryset:
            agent_set_enabled(agent=agent, enabled=True)

    @admin.action(description="Disable (tokens stop working, open connections close, no new tasks)")
    def disable(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        for agent in queryset:
            agent_set_enabled(agent=agent, enabled=False)

    def save_model(self, request: HttpRequest, obj: Agent, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "enabled" in form.changed_data:
            agent_set_enabled(agent=obj, enabled=obj.enabled)


@admin.register(AgentToken)
class AgentTokenAdmin(admin.ModelAdmin[AgentToken]):
    list_display = ["prefix", "agent", "label", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "agent__kind"]
    search_fields = ["prefix", "label", "agent__name"]
    readonly_fields = ["agent", "prefix", "digest", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Revoke")
    def revoke(self, request: HttpRequest, queryset: QuerySet[AgentToken]) -> None:
        for token in queryset.filter(revoked_at__isnull=True):
            token_revoke(token=token)


@admin.register(Approval)
class ApprovalAdmin(admin.ModelAdmin[Approval]):
    list_display = ["operation", "session", "requested_by", "status", "decided_by", "created_at"]
    list_filter = ["status", "operation"]
    search_fields = ["operation", "requested_by", "session__title"]
    readonly_fields = [f.name for f in Approval._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin[Task]):
    list_display = ["id", "title", "session", "agent", "required_role", "priority", "state", "paused", "attempts"]
    list_filter = ["state", "paused", "requires_approval", "agent"]
    search_fields = ["title", "session__title", "agent__name", "required_role"]
    list_select_related = ["session", "agent"]
    autocomplete_fields = ["session", "agent"]
    filter_horizontal = ["depends_on"]
    readonly_fields = [
        "attempts", "lease_owner", "lease_expires_at", "result_message_id", "last_error", "resources",
        "approved_by", "approved_at", "created_at", "started_at", "finished_at",
    ]  # fmt: skip
    actions = ["cancel", "retry"]

    def _act(self, request: HttpRequest, queryset: QuerySet[Task], act: _TaskAct, verb: str) -> None:
        """Through the scheduling services, with the admin's name: the act is logged in the session."""
        user = signed_in_staff(request)
        caller = Caller("system", f"admin:{user.get_username()}", user=user)
        done = 0
        for task in queryset:
            try:
                act(session_id=task.session_id, task_id=task.pk, caller=caller)
                done += 1
            except ProtocolError as error:
                self.message_user(request, f"task {task.pk}: {error.message}", messages.WARNING)
        self.message_user(request, f"{done} task(s) {verb}")

    @admin.action(description="Cancel")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Task]) -> None:
        self._act(request, queryset, task_cancel, "cancelled")

    @admin.action(description="Retry")
    def retry(self, request: HttpRequest, queryset: QuerySet[Task]) -> None:
        self._act(request, queryset, task_retry, "queued again")


@admin.register(TaskTemplate)
class TaskTemplateAdmin(admin.ModelAdmin[TaskTemplate]):
    """The planner's semantic layer: edit a template's steps, approvals and deliverable spec here."""

    list_display = ["name", "slug", "step_count", "section_titles", "enabled"]
    list_filter = ["enabled"]
    search_fields = ["name", "slug", "description", "match_text"]
    prepopulated_fields = {"slug": ["name"]}

    @admin.display(description="steps")
    def step_count(self, template: TaskTemplate) -> int:
        return len(template.steps)

    @admin.display(description="deliverable sections")
    def section_titles(self, template: TaskTemplate) -> str:
        return ", ".join(section.get("title", "") for section in template.deliverable_sections)


class ApprovalInline(ReadOnlyInline[Approval]):
    model = Approval
    fields = readonly_fields = ("operation", "requested_by", "status", "decided_by", "decided_at")


class TaskInline(ReadOnlyInline[Task]):
    model = Task
    fk_name = "session"
    fields = readonly_fields = ("title", "agent", "required_role", "priority", "state", "attempts")


class WorkSessionWithAgentsAdmin(WorkSessionAdmin):
    """The session's admin page with its agents' tasks and approvals: sessions knows nothing of agents,
    so this app adds them."""

    inlines = [*WorkSessionAdmin.inlines, TaskInline, ApprovalInline]


admin.site.unregister(WorkSession)
admin.site.register(WorkSession, WorkSessionWithAgentsAdmin)
