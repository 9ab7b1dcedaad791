"""Filters for showing message content of any shape validation accepts.

A template's ``d.items`` is ``d["items"]`` when the dict has that key, so free-form objects from
messages (``specific_instructions``, ``provenance``…) are iterated through ``|entries`` instead.
"""

import json

from django import template

register = template.Library()


@register.filter
def entries(value: object) -> list[tuple[object, object]]:
    """The (key, value) pairs of a dict; nothing for any other value."""
    return list(value.items()) if isinstance(value, dict) else []


@register.filter
def as_text(value: object) -> str:
    """A JSON value as a person reads it: text as it is, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
