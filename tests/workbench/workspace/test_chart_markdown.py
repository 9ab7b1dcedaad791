"""Charts in messages: a ```vega-lite fence becomes a figure whose image is an SVG drawn offline
by vl-convert, built after nh3 has cleaned the rest, so the page gets only HTML the workbench made."""

import base64
import html
import json
import re
import time

import pytest
from django.urls import reverse

from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join
from tests.factories import make_agent, make_session, make_user, post_message
from tests.sessions import envelopes
from workspace.markdown import MAX_DATA_VALUES, draw_svg, render_markdown

REGIONS = ["north", "south", "east", "west"]


def bar_spec(**extra):
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": "Cases by region",
        "description": "Bar chart: cases are highest in the south.",
        "data": {"values": [{"region": region, "cases": 10 + i} for i, region in enumerate(REGIONS)]},
        "mark": "bar",
        "encoding": {
            "x": {"field": "region", "type": "nominal"},
            "y": {"field": "cases", "type": "quantitative"},
        },
    }
    return spec | extra


def chart_block(spec):
    body = spec if isinstance(spec, str) else json.dumps(spec)
    return f"Here is the chart.\n\n```vega-lite\n{body}\n```\n\nThat is all."


def figures(page):
    return re.findall(
        r'<figure class="chart" data-testid="chart"><img src="([^"]*)" alt="([^"]*)">(.*?)</figure>', page
    )


def svg_of(src):
    prefix = "data:image/svg+xml;base64,"
    assert src.startswith(prefix)
    return base64.b64decode(src[len(prefix) :]).decode()


def test_a_bar_chart_becomes_a_figure_whose_image_is_the_svg_with_its_labels():
    page = render_markdown(chart_block(bar_spec()))
    [(src, alt, caption)] = figures(page)
    svg = svg_of(src)
    assert svg.startswith("<svg") and all(f">{region}</text>" in svg for region in REGIONS)
    assert alt == "Bar chart: cases are highest in the south."
    assert caption == "<figcaption>Cases by region</figcaption>"
    assert "<p>Here is the chart.</p>" in page and "<p>That is all.</p>" in page
    assert "vega-lite" not in page and '"mark"' not in page  # the spec itself is not shown


def test_alt_and_caption_are_escaped_text():
    spec = bar_spec(title={"text": "<script>alert(1)</script> & co"}, description='Say "hi" <b>now</b>')
    [(_src, alt, caption)] = figures(render_markdown(chart_block(spec)))
    assert caption == f"<figcaption>{html.escape('<script>alert(1)</script> & co')}</figcaption>"
    assert alt == html.escape('Say "hi" <b>now</b>')
    assert "<script" not in render_markdown(chart_block(spec))


@pytest.mark.parametrize(
    ("extra", "alt", "caption"),
    [
        ({"description": None}, "Cases by region", "<figcaption>Cases by region</figcaption>"),
        ({"description": None, "title": None}, "Chart", ""),
        ({"description": "  ", "title": ["Two", "lines"]}, "Two lines", "<figcaption>Two lines</figcaption>"),
    ],
)
def test_alt_falls_back_to_the_title_and_then_to_chart(extra, alt, caption):
    spec = {key: value for key, value in bar_spec(**extra).items() if value is not None}
    [(_src, got_alt, got_caption)] = figures(render_markdown(chart_block(spec)))
    assert (got_alt, got_caption) == (alt, caption)


def test_a_forged_placeholder_in_the_text_is_not_replaced():
    forged = "chart-" + "0" * 32 + "-0"
    text = f"{forged}\n\n<p>{forged}</p>\n\n{chart_block(bar_spec())}\n\n<p>chart-{'a' * 32}-1</p>"
    page = render_markdown(text)
    assert len(figures(page)) == 1
    assert page.count(forged) == 2 and f"chart-{'a' * 32}-1" in page


def test_a_chart_inside_an_attribute_cannot_break_out():
    text = f'<details><abbr title="\n\n{chart_block(bar_spec())}\n\n<img src=x onerror=alert(1)>">x</abbr></details>'
    page = render_markdown(text)
    assert "onerror" not in page and "<img src=x" not in page


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('{"mark": "bar", "data": ', "not valid JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        (bar_spec(data={"url": "http://127.0.0.1:9/x.csv"}), "only inline data"),
        (bar_spec(layer=[{"data": {"url": "https://example.com/x.csv"}, "mark": "bar"}]), "only inline data"),
        (bar_spec(data={"values": [{"region": "r", "cases": i} for i in range(MAX_DATA_VALUES + 1)]}), "at most"),
        (bar_spec(data={"sequence": {"start": 0, "stop": 200_000, "as": "cases"}}), "at most"),
        (bar_spec(description="x" * 1_000_001), "over 1,000,000 bytes"),
        (bar_spec(mark="no-such-mark"), "Vega-Lite could not draw it"),
        ('{"a": ' * 900 + "1" + "}" * 900, "nests deeper than"),
        ("[" * 5000 + "]" * 5000, "not valid JSON"),
    ],
)
def test_a_spec_that_cannot_be_drawn_shows_an_escaped_notice(body, reason):
    started = time.monotonic()
    page = render_markdown(chart_block(body))
    assert time.monotonic() - started < 5
    notice = re.search(r'<p class="chart-error" data-testid="chart-error">Chart not drawn: ([^<]*)</p>', page)
    assert notice and reason in notice.group(1)
    assert not figures(page) and "<p>That is all.</p>" in page


def test_vl_convert_itself_fetches_nothing_and_says_so():
    with pytest.raises(ValueError, match="not allowed"):
        draw_svg(bar_spec(data={"url": "http://127.0.0.1:9/x.csv"}))


def test_raw_spec_text_in_an_error_stays_text():
    page = render_markdown(chart_block('{"title": "<img src=x onerror=alert(1)>", oops}'))
    assert "<img" not in page and "onerror=alert" not in page.replace("&lt;", "")


def test_other_fences_render_as_code_as_before():
    page = render_markdown('```python\nprint(\'<b>\')\n```\n\n```json\n{"mark": "bar"}\n```')
    assert page == '<pre><code>print(\'&lt;b&gt;\')\n</code></pre>\n<pre><code>{"mark": "bar"}\n</code></pre>\n'


@pytest.mark.django_db
def test_the_thread_shows_a_chart_in_a_report(client):
    owner = make_user("olga")
    session = make_session(owner=owner, title="Groups")
    post_message(session, caller_for_user(owner), envelopes.proposal, message_id="t")
    payload = envelopes.response(sections=())["payload"]
    payload["content"]["body"] = chart_block(bar_spec())
    analyst = make_agent("analyst")
    agent_join(session=session, agent=analyst)
    post_message(
        session, caller_for_agent(analyst), envelopes.envelope, "collaborative_response", payload, message_id="r1"
    )
    client.force_login(owner)
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    [(src, alt, _caption)] = figures(page)
    assert "north" in svg_of(src) and alt.startswith("Bar chart")
