"""``{{ text|markdown }}``: Markdown rendered and sanitised (workspace/markdown.py)."""

from django import template
from django.utils.safestring import mark_safe

from workspace.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown", is_safe=True)
def markdown_filter(text: object) -> str:
    return mark_safe(render_markdown("" if text is None else str(text)))  # nh3 has cleaned it
