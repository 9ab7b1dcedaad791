"""The words of a message, for full-text search, and the marked snippets search gives back."""

from __future__ import annotations

from typing import Any

MAX_SEARCH_TEXT = 200_000
# A snippet's matches are marked with these control characters (never in rendered text), so the page
# can escape the snippet and wrap the matches in <mark> without trusting any markup from the database.
MATCH_START, MATCH_END = "\x02", "\x03"
# Ids, hashes and enumerations say nothing a person searches for; a checkpoint's summary restates
# earlier messages, which would then match every search twice.
_NOT_WORDS = frozenset(
    {
        "id",
        "message_id",
        "target_message_id",
        "clarification_message_id",
        "request_message_id",
        "result_message_id",
        "plan_message_id",
        "task_id",
        "task_step_id",
        "format",
        "type",
        "summary",
    }
)


def searchable_text(envelope: dict[str, Any]) -> str:
    """Every string of the payload a reader could mean, sender first; at most MAX_SEARCH_TEXT characters."""
    words = [envelope["sender"]["id"], envelope["payload_type"].replace("_", " ")]
    _collect(envelope["payload"], words)
    return "\n".join(words)[:MAX_SEARCH_TEXT]


def _collect(value: object, words: list[str]) -> None:
    if isinstance(value, str):
        words.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _NOT_WORDS:
                _collect(item, words)
    elif isinstance(value, list):
        for item in value:
            _collect(item, words)


def snippet_parts(snippet: str) -> list[tuple[str, bool]]:
    """A marked snippet as ``(text, is_match)`` pieces, for a template to escape and highlight."""
    parts: list[tuple[str, bool]] = []
    for index, piece in enumerate(snippet.replace(MATCH_END, MATCH_START).split(MATCH_START)):
        if piece:
            parts.append((piece, index % 2 == 1))
    return parts
