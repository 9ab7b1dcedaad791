"""What a person reads on a rendered page: its text without markup, scripts or folded <details>."""

import re

DETAILS = re.compile(r"<details\b(?:(?!<details\b).)*?</details>", re.S)
# What belongs in technical details and exports only: message ids, senders as "agent:…", raw ISO times.
IDS_AND_RAW_TIMES = re.compile(
    r"task\d+-report|msg_[0-9a-f]|\b(?:agent|human|system):[a-z]|\d{4}-\d\d-\d\dT\d\d:\d\d|\(#\d+\)"
)


def visible_text(html: str) -> str:
    """The text outside every <details> (folded ones are opened on purpose), scripts and templates."""
    html = re.sub(r"<(script|template|style)\b.*?</\1>", " ", html, flags=re.S)
    while DETAILS.search(html):
        html = DETAILS.sub(" ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html))


def leaked_ids(html: str) -> list[str]:
    """Ids, raw senders and ISO times a person would read outside technical details, with context."""
    text = visible_text(html)
    return [text[max(0, m.start() - 60) : m.end() + 40] for m in IDS_AND_RAW_TIMES.finditer(text)]
