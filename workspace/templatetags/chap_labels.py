"""``{{ status|status_label }}``, ``{{ kind|payload_label }}``, ``{{ sender|sender_label }}``,
``{{ slug|template_label }}``: the protocol's names in plain words (sessions/chap/labels.py);
``{{ moment|when }}``: a time as a person says it, exact to the second in its title."""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html

from sessions.chap import labels

register = template.Library()
register.filter("status_label", labels.status_label)
register.filter("payload_label", labels.payload_label)
register.filter("feedback_label", labels.feedback_label)
register.filter("sender_label", labels.sender_label)
register.filter("template_label", labels.template_label)


@register.filter
def when(moment: datetime | str | None) -> str:
    """A ``<time>`` saying "today 14:05" with the exact moment in ``datetime`` and ``title``, from a
    datetime or the protocol's ISO timestamp (static/js/local_times.js says it in the reader's zone)."""
    if isinstance(moment, str):
        moment = parse_datetime(moment.replace("Z", "+00:00"))
    if moment is None:
        return ""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    return format_html(
        '<time class="when" datetime="{}" title="{}">{}</time>',
        moment.isoformat(),
        local.strftime("%A %d %B %Y, %H:%M:%S %Z").strip(),
        labels.time_words(local, timezone.localtime()),
    )
