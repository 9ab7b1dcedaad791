"""``{{ status|status_label }}``, ``{{ kind|payload_label }}``, ``{{ sender|sender_label }}``: the
protocol's names in plain words (sessions/chap/labels.py); ``{{ moment|ago }}``: a time in words."""

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from sessions.chap import labels

register = template.Library()
register.filter("status_label", labels.status_label)
register.filter("payload_label", labels.payload_label)
register.filter("feedback_label", labels.feedback_label)
register.filter("sender_label", labels.sender_label)


@register.filter
def ago(moment: datetime) -> str:
    """How long ago ``moment`` was, in words that hold in every viewer's time zone ("just now",
    "5 minutes ago")."""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"
