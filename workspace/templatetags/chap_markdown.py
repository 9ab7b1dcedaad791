"""``{{ text|markdown }}``: Markdown rendered and sanitised (workspace/markdown.py)."""

from uuid import UUID

from django import template
from django.utils.safestring import mark_safe

from workspace.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown", is_safe=True)
def markdown_filter(text: object, session_id: object = None) -> str:
    """Charts are drawn only with the session whose page shows them (``{{ text|markdown:session.pk }}``)."""
    session = session_id if isinstance(session_id, UUID) else None
    return mark_safe(render_markdown("" if text is None else str(text), session))  # nh3 has cleaned it
