"""Markdown as the workbench shows it: rendered by markdown-it-py (CommonMark with tables and
strikethrough), then cleaned by nh3 against an allow-list, so whatever a message says, the page
gets only these tags and attributes and only http(s) and mailto links.

A ```vega-lite fence is the one exception, and it never passes through nh3: the parser leaves a
placeholder carrying a per-call random token, nh3 cleans the rest, and only then are the
placeholders swapped for figures built here, the chart drawn offline by vl-convert and embedded
as a base64 SVG ``<img>`` (where no script runs and nothing is fetched)."""

from __future__ import annotations

import base64
import html
import json
import math
import re
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import nh3
import vl_convert
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

CHART_LANGUAGE = "vega-lite"
MAX_SPEC_BYTES = 1_000_000
MAX_DATA_VALUES = 5_000
MAX_SVG_BYTES = 4_000_000
MAX_SPEC_DEPTH = 64
_ENV_TOKEN, _ENV_CHARTS = "chart_token", "charts"


class ChartError(ValueError):
    """A chart that is not drawn; its message is shown (escaped) in place of the chart."""


class _ChartRenderer(RendererHTML):
    """Renders a vega-lite fence as a placeholder paragraph; every other fence as markdown-it does."""

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if _ENV_TOKEN not in env or (token.info.split() or [""])[0].lower() != CHART_LANGUAGE:
            return super().fence(tokens, idx, options, env)
        charts: list[str] = env[_ENV_CHARTS]
        charts.append(chart_html(token.content))
        return f"<p>chart-{env[_ENV_TOKEN]}-{len(charts) - 1}</p>\n"


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
    # A fresh token per call: the text existed before the token did, so it cannot forge a placeholder.
    token = secrets.token_hex(16)
    env: dict[str, Any] = {_ENV_TOKEN: token, _ENV_CHARTS: []}
    cleaned = _CLEANER.clean(_PARSER.render(text or "", env))
    return _put_charts(cleaned, token, env[_ENV_CHARTS])


def _put_charts(cleaned: str, token: str, charts: list[str]) -> str:
    """Swap each placeholder nh3 let through for its figure, each at most once. nh3 writes ``<`` as
    ``&lt;`` in text and attribute values alike, so the pattern only meets the paragraphs we emitted."""
    if not charts:
        return cleaned
    unused = dict(enumerate(charts))
    pattern = re.compile(rf"<p>chart-{token}-(\d+)</p>")
    return pattern.sub(lambda match: unused.pop(int(match.group(1)), ""), cleaned)


def chart_html(source: str) -> str:
    """The figure for a Vega-Lite spec, or an escaped notice saying why it was not drawn."""
    try:
        spec = parse_spec(source)
        svg = draw_svg(spec)
    except ChartError as error:
        return f'<p class="chart-error" data-testid="chart-error">Chart not drawn: {html.escape(str(error))}</p>'
    return _figure(svg, spec)


def parse_spec(source: str) -> dict[str, Any]:
    """The spec as a JSON object, refused before drawing if it is too big to draw quickly."""
    if len(source.encode()) > MAX_SPEC_BYTES:
        raise ChartError(f"the spec is over {MAX_SPEC_BYTES:,} bytes.")
    try:
        spec = json.loads(source)
    except (ValueError, RecursionError) as error:
        raise ChartError(f"the spec is not valid JSON ({_first_line(error)}).") from error
    if not isinstance(spec, dict):
        raise ChartError("the spec is not a JSON object.")
    count = _count_values(spec)
    if count > MAX_DATA_VALUES:
        raise ChartError(f"the chart has {count:,} data values; at most {MAX_DATA_VALUES:,} are drawn.")
    return spec


def _count_values(node: Any, key: str = "", depth: int = 0) -> int:
    """Inline data values and generated sequences anywhere in the spec (layers, datasets, lookups),
    and refuses data by URL: a chart is drawn only from data the message itself carries."""
    if depth > MAX_SPEC_DEPTH:  # real specs nest a few levels; a deep one would exhaust the stack
        raise ChartError(f"the spec nests deeper than {MAX_SPEC_DEPTH} levels.")
    if isinstance(node, list):
        return (len(node) if key == "values" else 0) + sum(_count_values(item, "", depth + 1) for item in node)
    if not isinstance(node, dict):
        return 0
    if key == "data" and "url" in node:
        raise ChartError("only inline data (data.values) is drawn, not data.url.")
    own = _sequence_length(node) if key in {"sequence", "keyvals"} else 0
    if key == "datasets":
        own += sum(len(item) for item in node.values() if isinstance(item, list))
    return own + sum(_count_values(value, name, depth + 1) for name, value in node.items())


def _sequence_length(node: dict[str, Any]) -> int:
    """How many rows a sequence generator makes (a huge one would stall rendering for seconds)."""
    start, stop, step = node.get("start", 0), node.get("stop", 0), node.get("step", 1)
    if not all(isinstance(number, int | float) for number in (start, stop, step)) or step == 0:
        return 0
    length = (stop - start) / step
    return math.ceil(length) if math.isfinite(length) and length > 0 else 0


def draw_svg(spec: dict[str, Any]) -> str:
    """SVG from vl-convert with no base URL allowed, so no data, image or font is ever fetched."""
    try:
        svg = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
    except Exception as error:  # vl-convert raises ValueError, but any failure is a notice, not a 500
        raise ChartError(f"Vega-Lite could not draw it ({_first_line(error)}).") from error
    if len(svg) > MAX_SVG_BYTES:
        raise ChartError(f"the drawing is over {MAX_SVG_BYTES:,} bytes.")
    return svg


def _figure(svg: str, spec: dict[str, Any]) -> str:
    """The figure markup; the SVG only as a data URI, alt and caption escaped."""
    title = _text(spec.get("title"))
    alt = _text(spec.get("description")) or title or "Chart"
    data_uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
    image = f'<img src="{data_uri}" alt="{html.escape(alt)}">'
    caption = f"<figcaption>{html.escape(title)}</figcaption>" if title else ""
    return f'<figure class="chart" data-testid="chart">{image}{caption}</figure>'


def _text(value: Any) -> str:
    """Plain text of a Vega-Lite title or description: a string, lines, or an object with ``text``."""
    if isinstance(value, dict):
        value = value.get("text")
    if isinstance(value, list):
        value = " ".join(str(line) for line in value if isinstance(line, str | int | float))
    return " ".join(value.split()) if isinstance(value, str) else ""


def _first_line(error: BaseException) -> str:
    """A short reason: vl-convert's errors carry a JavaScript stack after the first line or two."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    reason = next((line for line in lines if not line.endswith("failed:")), type(error).__name__)
    return reason[:200]
