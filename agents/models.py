from django.conf import settings
from django.db import models


class AgentKind(models.TextChoices):
    BUILTIN = "builtin", "Built-in"
    LLM = "llm", "LLM"
    EXTERNAL = "external", "External"


class Agent(models.Model):
    """A limited-responsibility colleague: what it is, which roles it can take, whether it may work."""

    name = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=16, choices=AgentKind, default=AgentKind.EXTERNAL)
    roles = models.JSONField(
        default=list, blank=True, help_text="Roles it can take: research, analysis, writing, review…"
    )
    description = models.TextField(blank=True)
    behaviour = models.CharField(
        max_length=100,
        blank=True,
        help_text="For built-in agents: which built-in behaviour runs its tasks (see agents/behaviours/registry.py)",
    )
    can_do = models.JSONField(
        default=list, blank=True, help_text="Self-declared: [{action, scope, limitation}], as in CHAP declarations"
    )
    cannot_do = models.JSONField(default=list, blank=True, help_text="Self-declared: what it will not attempt")
    measured_profile = models.JSONField(
        default=dict,
        blank=True,
        help_text="Measured by a benchmark run (bench/agents_eval.py): {figure: value, measured_at, run}",
    )
    concurrency_limit = models.PositiveSmallIntegerField(default=1, help_text="Tasks it may run at once")
    llm_base_url = models.URLField(blank=True, help_text="LLM agents: an OpenAI-compatible API, e.g. http://host/v1")
    llm_model = models.CharField(max_length=200, blank=True)
    llm_api_key_env = models.CharField(
        max_length=100, blank=True, help_text="The environment variable that holds the key (never the key itself)"
    )
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
        # Sessions point at the agent model through settings.CHAP_AGENT_MODEL, as at the user model
        # through AUTH_USER_MODEL (sessions/agent_model.py).
        swappable = "CHAP_AGENT_MODEL"

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
    status = models.CharField(max_length=10, choices=ApprovalStatus, default=ApprovalStatus.PENDING)
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


class TaskState(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    WAITING_HUMAN = "waiting_human", "Waiting for a human"
    WAITING_APPROVAL = "waiting_approval", "Waiting for approval"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


OPEN_STATES = (TaskState.QUEUED, TaskState.RUNNING, TaskState.WAITING_HUMAN, TaskState.WAITING_APPROVAL)


class Task(models.Model):
    """A durable unit of agent work in a session. A worker holds it under a lease it renews; when
    the worker dies the lease runs out and another worker takes the task again (``attempts`` counts)."""

    session = models.ForeignKey("chap_sessions.WorkSession", on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(max_length=2000)
    instructions = models.TextField(blank=True)
    source_message_id = models.CharField(max_length=128, blank=True, help_text="the plan or message it serves")
    plan_step = models.PositiveIntegerField(null=True, blank=True)
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="tasks")
    required_role = models.CharField(max_length=200, blank=True, help_text="who may take it while unassigned")
    priority = models.IntegerField(default=0, help_text="higher runs first")
    state = models.CharField(max_length=16, choices=TaskState, default=TaskState.QUEUED)
    paused = models.BooleanField(default=False)
    requires_approval = models.BooleanField(default=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    depends_on = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="dependents")
    attempts = models.PositiveIntegerField(default=0)
    max_attempts = models.PositiveIntegerField(default=3)
    lease_owner = models.CharField(max_length=200, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    result_message_id = models.CharField(max_length=128, blank=True)
    last_error = models.TextField(blank=True)
    resources = models.JSONField(default=dict, blank=True, help_text="wall_s, sap_operations, llm_tokens")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-priority", "created_at"]
        indexes = [
            models.Index(fields=["state", "priority"], name="task_queue"),
            models.Index(fields=["session", "state"], name="task_session_state"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.title[:60]} ({self.state})"


class TaskTemplate(models.Model):
    """A kind of task the planner knows: how it breaks down, what needs a human, what the result must hold."""

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField()
    match_text = models.TextField(
        blank=True, help_text="Example goals and key words the planner matches task proposals against"
    )
    steps = models.JSONField(default=list, help_text="[{step, action, capability, requires_approval, output}] in order")
    evaluation_criteria = models.JSONField(default=list, blank=True)
    deliverable_sections = models.JSONField(
        default=list, help_text="[{title, required, description}]: what the deliverable must contain"
    )
    enabled = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
