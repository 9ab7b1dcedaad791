import uuid

from django.conf import settings
from django.db import models


class SessionState(models.TextChoices):
    PROPOSED = "proposed", "Proposed"
    PLANNING = "planning", "Planning"
    WORKING = "working", "Working"
    REVIEWING = "reviewing", "Reviewing"
    DONE = "done", "Done"
    ARCHIVED = "archived", "Archived"


class MemberRole(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    COMMENTER = "commenter", "Commenter"  # reads, and suggests refinements; decides nothing
    VIEWER = "viewer", "Viewer"


class ShareRole(models.TextChoices):
    """What a group a session is shared with may do: a group never owns a session."""

    EDITOR = "editor", "Editor"
    COMMENTER = "commenter", "Commenter"
    VIEWER = "viewer", "Viewer"


class WorkSession(models.Model):
    """A CHAP session: one shared task, its members and its message log.

    Not called ``Session`` so that it never gets confused with ``request.session``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    title = models.CharField(max_length=200)
    state = models.CharField(max_length=16, choices=SessionState, default=SessionState.PROPOSED)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True)
    # The head of the message log, kept on the row that writers lock: reading it is the
    # version check, and updating it is the append.
    head_seq = models.PositiveIntegerField(default=0)
    head_checksum = models.CharField(max_length=16, blank=True)
    # What of the log waits for a person, and the report that answers it, kept by the same append
    # (``log._append``) so that the sessions list reads it here instead of replaying every session's log.
    open_questions = models.PositiveIntegerField(
        default=0, help_text="clarifications and report questions nobody has answered yet"
    )
    proposed_plans = models.JSONField(
        default=list, blank=True, help_text="message ids of the plans nobody has approved or corrected yet"
    )
    current_answer = models.CharField(
        max_length=128, blank=True, help_text="message id of the report that is the session's answer now"
    )
    # How far the workbench's reactions to the log (agents.reactions: the tasks a message calls for) have
    # got. The worker reacts to the messages after it, so a request only writes its message.
    handled_seq = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-last_activity_at"]
        indexes = [
            # Only the sessions with messages nobody has reacted to yet: the worker's poll reads this.
            models.Index(
                fields=["last_activity_at"],
                condition=models.Q(handled_seq__lt=models.F("head_seq")),
                name="session_unhandled",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class Membership(models.Model):
    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chap_memberships")
    role = models.CharField(max_length=16, choices=MemberRole)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.session}"


class GroupShare(models.Model):
    """A session shared with a team (a Django group): its members find it on the team review page and
    work in it with ``role``, under the same checks as members (``sessions.access.effective_role``)."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="group_shares")
    group = models.ForeignKey("auth.Group", on_delete=models.CASCADE, related_name="chap_shares")
    role = models.CharField(max_length=16, choices=ShareRole, default=ShareRole.VIEWER)
    shared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    shared_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "group"], name="one_share_per_group")]

    def __str__(self) -> str:
        return f"{self.session} shared with {self.group} ({self.role})"


class SessionAgent(models.Model):
    """An agent taking part in a session, with the role it plays and the expected roles it covers."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="participants")
    agent = models.ForeignKey(settings.CHAP_AGENT_MODEL, on_delete=models.CASCADE, related_name="participations")
    role = models.CharField(max_length=100, blank=True)
    covers_roles = models.JSONField(default=list, blank=True)
    # Paused here by an owner or editor: its tasks in this session wait, new ones included.
    paused = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "agent"], name="one_participation_per_agent")]

    def __str__(self) -> str:
        return f"{self.agent} in {self.session}"


class Message(models.Model):
    """One accepted CHAP message: stored once, numbered without gaps, chained by checksum."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    message_id = models.CharField(max_length=128)
    payload_type = models.CharField(max_length=40)
    sender_type = models.CharField(max_length=8)
    sender_id = models.CharField(max_length=150)
    in_reply_to = models.CharField(max_length=128, blank=True)
    envelope = models.JSONField()
    content_hash = models.CharField(max_length=64)
    checksum = models.CharField(max_length=16)
    # The message's words for full-text search (sessions/search.py indexes them per database).
    search_text = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="one_message_per_seq"),
            models.UniqueConstraint(fields=["session", "message_id"], name="message_id_unique_in_session"),
        ]
        indexes = [
            models.Index(fields=["session", "checksum"], name="message_checksum"),
            # The newest message of a type per sender (each agent's latest status) without a scan.
            models.Index(fields=["session", "payload_type", "sender_id", "seq"], name="message_latest_by_sender"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.payload_type} {self.message_id}"


class Presence(models.Model):
    """One open connection of a participant. Rows of a crashed process go stale and stop counting."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="presences")
    participant = models.CharField(max_length=160, help_text="human:alice or agent:planner")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["session", "last_seen"], name="presence_recent")]

    def __str__(self) -> str:
        return f"{self.participant} on {self.channel_name}"


class CriterionCheck(models.Model):
    """A member's verdict on one success criterion of a finished session, for its retrospective."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="criterion_checks")
    index = models.PositiveIntegerField(help_text="the criterion's place in the task proposal's list")
    criterion = models.TextField(help_text="the criterion as it was stated")
    met = models.BooleanField()
    note = models.TextField(blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="criterion_checks"
    )
    checked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "index"], name="one_check_per_criterion")]

    def __str__(self) -> str:
        return f"{'met' if self.met else 'not met'}: {self.criterion[:60]}"


class Rating(models.Model):
    """One member's rating (1 to 5) and comment on a finished session."""

    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_ratings")
    rating = models.PositiveSmallIntegerField()
    comment = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "user"], name="one_rating_per_member"),
            models.CheckConstraint(condition=models.Q(rating__gte=1, rating__lte=5), name="rating_1_to_5"),
        ]

    def __str__(self) -> str:
        return f"{self.user} rated {self.session}: {self.rating}/5"


class GraphSnapshot(models.Model):
    """A session's context graph and map layout as they stood after message ``seq``, so a process that
    opens a long session starts there and reads only the log after it (sessions/graph_snapshots.py)."""

    session = models.OneToOneField(WorkSession, on_delete=models.CASCADE, primary_key=True, related_name="snapshot")
    seq = models.PositiveIntegerField()
    checksum = models.CharField(max_length=16)  # the log's checksum after ``seq``: of another log, not used
    rules = models.CharField(max_length=16)  # the graph rules' version it was built by: other rules, not used
    data = models.BinaryField()
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"graph of {self.session_id} at #{self.seq}"
