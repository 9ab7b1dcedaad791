"""Markdown as the workbench shows it: rendered by markdown-it-py (CommonMark with tables and
strikethrough), then cleaned by nh3 against an allow-list, so whatever a message says, the page
gets only these tags and attributes and only http(s) and mailto links.

A ```vega-lite fence is the one exception, and it never passes through nh3: the parser leaves a
placeholder carrying a per-call random token, nh3 cleans the rest, and only then are the
placeholders swapped for figures built here. Nothing is drawn here: a spec within the bounds
(``chart_bounds``) becomes an ``<img>`` of the chart's own URL, drawn by ``workspace.charts`` in a
process of its own when the browser asks for it; one past them, or one whose drawing overran, a
plain "too large" figure. Table columns are aligned by class, not by a style the page's CSP refuses."""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from agents.behaviours.answers import READING_LINES
from sessions.access import SessionId
from workspace.chart_bounds import ChartError, ChartTooLarge, parse_spec
from workspace.charts import TOO_LARGE, chart_key, chart_url, remember_spec, stored_outcome

CHART_LANGUAGE = "vega-lite"
_ENV_TOKEN, _ENV_CHARTS = "chart_token", "charts"
_CELLS = frozenset({"th", "td"})
_ALIGNMENTS = {"align-left", "align-center", "align-right"}


class _ChartRenderer(RendererHTML):
    """Renders a vega-lite fence as a placeholder paragraph; every other fence as markdown-it does."""

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if _ENV_TOKEN not in env or (token.info.split() or [""])[0].lower() != CHART_LANGUAGE:
            return super().fence(tokens, idx, options, env)
        charts: list[str] = env[_ENV_CHARTS]
        charts.append(token.content)
        return f"<p>chart-{env[_ENV_TOKEN]}-{len(charts) - 1}</p>\n"

    def renderToken(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A table cell's alignment as a class: markdown-it writes a style attribute, which the CSP refuses.
        A paragraph that says how the analyst read the question is a ``reading``: a muted line under
        the answer, not a second answer."""
        token = tokens[idx]
        style = token.attrs.pop("style", None) if token.tag in _CELLS else None
        if isinstance(style, str) and style.startswith("text-align:"):
            token.attrSet("class", "align-" + style.removeprefix("text-align:"))
        if token.type == "paragraph_open" and tokens[idx + 1].content.startswith(READING_LINES):
            token.attrSet("class", "reading")
        return super().renderToken(tokens, idx, options, env)


# Raw HTML passes the parser so that a report may fold its method into <details>; nh3 is the guard.
_PARSER = MarkdownIt(
    "commonmark", {"html": True, "linkify": False, "typographer": False}, renderer_cls=_ChartRenderer
).enable(["table", "strikethrough"])
ALLOWED_TAGS = frozenset(
    {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "dl", "dt", "dd",
     "table", "thead", "tbody", "tr", "th", "td", "caption", "pre", "code", "em", "strong", "del", "s", "sub",
     "sup", "a", "details", "summary", "span", "abbr", "kbd", "mark"}
)  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
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
    allowed_classes={**{cell: set(_ALIGNMENTS) for cell in _CELLS}, "p": {"reading"}},
    strip_comments=True,
)


def render_markdown(text: str, session_id: SessionId | None = None) -> str:
    """Safe HTML for ``text``; its charts are drawn on the pages of ``session_id`` (none without one)."""
    cleaned, token, charts = _cleaned(text or "")
    if not charts:
        return cleaned
    return _put_charts(cleaned, token, [chart_html(source, session_id) for source in charts])


@lru_cache(maxsize=2048)
def _cleaned(text: str) -> tuple[str, str, tuple[str, ...]]:
    """The cleaned HTML with a placeholder for each chart, the placeholders' token and the charts'
    specs (messages are immutable, so the same text cleans the same)."""
    # A fresh token per call: the text existed before the token did, so it cannot forge a placeholder.
    token = secrets.token_hex(16)
    env: dict[str, Any] = {_ENV_TOKEN: token, _ENV_CHARTS: []}
    return _CLEANER.clean(_PARSER.render(text, env)), token, tuple(env[_ENV_CHARTS])


def _put_charts(cleaned: str, token: str, charts: list[str]) -> str:
    """Swap each placeholder nh3 let through for its figure, each at most once. nh3 writes ``<`` as
    ``&lt;`` in text and attribute values alike, so the pattern only meets the paragraphs we emitted."""
    unused = dict(enumerate(charts))
    pattern = re.compile(rf"<p>chart-{token}-(\d+)</p>")
    return pattern.sub(lambda match: unused.pop(int(match.group(1)), ""), cleaned)


@dataclass(frozen=True)
class _Checked:
    """A spec as the bounds found it: its key, alt text and caption, or why it is not drawn."""

    key: str = ""
    alt: str = ""
    title: str = ""
    refusal: ChartError | None = None


@lru_cache(maxsize=1024)
def _checked(source: str) -> _Checked:
    try:
        spec = parse_spec(source)
    except ChartError as error:
        return _Checked(refusal=error)
    title = _text(spec.get("title"))
    return _Checked(key=chart_key(source), alt=_text(spec.get("description")) or title or "Chart", title=title)


def chart_html(source: str, session_id: SessionId | None) -> str:
    """The figure for a Vega-Lite spec: its image, the "too large" figure, or an escaped notice."""
    checked = _checked(source)
    if isinstance(checked.refusal, ChartTooLarge):
        return too_large_figure(str(checked.refusal))
    if checked.refusal is not None:
        return _notice(str(checked.refusal))
    if session_id is None:
        return _notice("charts are drawn only on the pages of a session.")
    remember_spec(checked.key, source)
    outcome = stored_outcome(checked.key)
    if outcome is not None and outcome.too_large:
        return too_large_figure(outcome.reason)
    if outcome is not None and outcome.reason:
        return _notice(outcome.reason)
    image = f'<img src="{chart_url(session_id, checked.key)}" alt="{html.escape(checked.alt)}">'
    caption = f"<figcaption>{html.escape(checked.title)}</figcaption>" if checked.title else ""
    return f'<figure class="chart" data-testid="chart">{image}{caption}</figure>'


def too_large_figure(reason: str) -> str:
    return (
        '<figure class="chart chart-too-large" data-testid="chart-too-large">'
        f"<p>{TOO_LARGE}</p><figcaption>{html.escape(reason)}</figcaption></figure>"
    )


def _notice(reason: str) -> str:
    return f'<p class="chart-error" data-testid="chart-error">Chart not drawn: {html.escape(reason)}</p>'


def _text(value: Any) -> str:
    """Plain text of a Vega-Lite title or description: a string, lines, or an object with ``text``."""
    if isinstance(value, dict):
        value = value.get("text")
    if isinstance(value, list):
        value = " ".join(str(line) for line in value if isinstance(line, str | int | float))
    return " ".join(value.split()) if isinstance(value, str) else ""
