"""``{{ status|status_label }}``, ``{{ kind|payload_label }}``, ``{{ sender|sender_label }}``: the
protocol's names in plain words (sessions/chap/labels.py)."""

from django import template

from sessions.chap import labels

register = template.Library()
register.filter("status_label", labels.status_label)
register.filter("payload_label", labels.payload_label)
register.filter("feedback_label", labels.feedback_label)
register.filter("sender_label", labels.sender_label)
