from django.conf import settings
from django.db import models


class AgentKind(models.TextChoices):
    BUILTIN = "builtin", "Built-in"
    LLM = "llm", "LLM"
    EXTERNAL = "external", "External"


class Agent(models.Model):
    """A limited-responsibility colleague: what it is, which roles it can take, whether it may work."""

    name = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=16, choices=AgentKind.choices, default=AgentKind.EXTERNAL)
    roles = models.JSONField(
        default=list, blank=True, help_text="Roles it can take: research, analysis, writing, review…"
    )
    description = models.TextField(blank=True)
    allowed_operations = models.JSONField(
        default=list, blank=True, help_text="SAP operation patterns it may run: file.read, dataset.*, …"
    )
    approval_operations = models.JSONField(
        default=list, blank=True, help_text="SAP operation patterns that wait for a human's approval"
    )
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class AgentToken(models.Model):
    """A bearer token of an agent. Only its SHA-256 is stored; the token is shown once, when made."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="tokens")
    prefix = models.CharField(max_length=12, help_text="The first characters, to tell tokens apart")
    digest = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.agent})"


class ApprovalStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class Approval(models.Model):
    """A risky SAP request waiting for a human: what would run, for whom, why it is risky, and the decision."""

    session = models.ForeignKey("chap_sessions.WorkSession", on_delete=models.CASCADE, related_name="approvals")
    requested_by = models.CharField(max_length=160, help_text="agent:NAME or human:USERNAME")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="approvals")
    operation = models.CharField(max_length=200)
    block_type = models.CharField(max_length=16)
    block_id = models.CharField(max_length=128, blank=True)
    request = models.JSONField(help_text="the validated parameters")
    reason = models.TextField(help_text="why it needs a human's approval")
    status = models.CharField(max_length=10, choices=ApprovalStatus.choices, default=ApprovalStatus.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    response = models.JSONField(null=True, blank=True, help_text="the result or error block, once decided")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["session", "status"], name="approval_pending")]

    def __str__(self) -> str:
        return f"{self.operation} for {self.requested_by} ({self.status})"
