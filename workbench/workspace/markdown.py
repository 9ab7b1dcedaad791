"""Markdown as the workbench shows it: rendered by markdown-it-py (CommonMark with tables and
strikethrough), then cleaned by nh3 against an allow-list, so whatever a message says, the page
gets only these tags and attributes and only http(s) and mailto links."""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

# Raw HTML passes the parser so that a report may fold its method into <details>; nh3 is the guard.
_PARSER = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False}).enable(
    ["table", "strikethrough"]
)
ALLOWED_TAGS = frozenset(
    {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "dl", "dt", "dd",
     "table", "thead", "tbody", "tr", "th", "td", "caption", "pre", "code", "em", "strong", "del", "s", "sub",
     "sup", "a", "details", "summary", "span", "abbr", "kbd", "mark"}
)  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "th": {"align", "style"},
    "td": {"align", "style"},
    "abbr": {"title"},
    "ol": {"start"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})
_CLEANER = nh3.Cleaner(
    tags=set(ALLOWED_TAGS),
    clean_content_tags={"script", "style"},
    attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
    url_schemes=set(URL_SCHEMES),
    link_rel="noopener noreferrer nofollow",
    filter_style_properties={"text-align"},  # markdown-it aligns table columns with style=
    strip_comments=True,
)


@lru_cache(maxsize=2048)
def render_markdown(text: str) -> str:
    """Safe HTML for ``text`` (messages are immutable, so the same text renders the same)."""
    return _CLEANER.clean(_PARSER.render(text or ""))
