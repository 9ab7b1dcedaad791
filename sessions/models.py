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
    VIEWER = "viewer", "Viewer"


class WorkSession(models.Model):
    """A CHAP session: one shared task, its members and its message log.

    Not called ``Session`` so that it never gets confused with ``request.session``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    title = models.CharField(max_length=200)
    state = models.CharField(max_length=16, choices=SessionState.choices, default=SessionState.PROPOSED)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-last_activity_at"]

    def __str__(self) -> str:
        return self.title


class Membership(models.Model):
    session = models.ForeignKey(WorkSession, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chap_memberships")
    role = models.CharField(max_length=8, choices=MemberRole.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.session}"
