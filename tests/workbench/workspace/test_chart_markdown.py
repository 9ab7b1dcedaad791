"""Charts in messages: a ```vega-lite fence becomes a figure whose image is the chart's own URL,
an SVG drawn offline by vl-convert in a process of its own, built after nh3 has cleaned the rest,
so the page gets only HTML the workbench made."""

import html
import json
import re
import time
import uuid

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join
from tests.factories import make_agent, make_session, make_user, post_message
from tests.sessions import envelopes
from workspace.chart_bounds import MAX_DATA_VALUES
from workspace.chart_process import draw_svg
from workspace.charts import chart_outcome, draw
from workspace.markdown import render_markdown

SESSION = uuid.uuid4()

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


@pytest.fixture(autouse=True)
def chart_store(settings, tmp_path):
    """Each test's charts kept apart, as if no page had shown them before."""
    settings.DATA_DIR = tmp_path
    return tmp_path / "charts"


def figures(page):
    return re.findall(
        r'<figure class="chart" data-testid="chart"><img src="([^"]*)" alt="([^"]*)">(.*?)</figure>', page
    )


def page_of(text):
    return render_markdown(text, SESSION)


def svg_of(src):
    """The chart behind an image's URL, drawn as its view draws it."""
    match = re.fullmatch(rf"/sessions/{SESSION}/charts/([0-9a-f]{{64}})/[0-9a-f]{{32}}\.svg", src)
    assert match, src
    return async_to_sync(chart_outcome)(match.group(1)).image()


def too_large(page):
    found = re.search(
        r'<figure class="chart chart-too-large" data-testid="chart-too-large"><p>([^<]*)</p>'
        r"<figcaption>([^<]*)</figcaption></figure>",
        page,
    )
    assert found, page
    assert found.group(1) == "Chart too large to draw — its data is in the table above."
    return html.unescape(found.group(2))


def test_a_bar_chart_becomes_a_figure_whose_image_is_the_svg_with_its_labels():
    page = page_of(chart_block(bar_spec()))
    [(src, alt, caption)] = figures(page)
    svg = svg_of(src)
    assert svg.startswith("<svg") and all(f">{region}</text>" in svg for region in REGIONS)
    assert alt == "Bar chart: cases are highest in the south."
    assert caption == "<figcaption>Cases by region</figcaption>"
    assert "<p>Here is the chart.</p>" in page and "<p>That is all.</p>" in page
    assert "vega-lite" not in page and '"mark"' not in page  # the spec itself is not shown


def test_alt_and_caption_are_escaped_text():
    spec = bar_spec(title={"text": "<script>alert(1)</script> & co"}, description='Say "hi" <b>now</b>')
    [(_src, alt, caption)] = figures(page_of(chart_block(spec)))
    assert caption == f"<figcaption>{html.escape('<script>alert(1)</script> & co')}</figcaption>"
    assert alt == html.escape('Say "hi" <b>now</b>')
    assert "<script" not in page_of(chart_block(spec))


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
    [(_src, got_alt, got_caption)] = figures(page_of(chart_block(spec)))
    assert (got_alt, got_caption) == (alt, caption)


def test_a_forged_placeholder_in_the_text_is_not_replaced():
    forged = "chart-" + "0" * 32 + "-0"
    text = f"{forged}\n\n<p>{forged}</p>\n\n{chart_block(bar_spec())}\n\n<p>chart-{'a' * 32}-1</p>"
    page = page_of(text)
    assert len(figures(page)) == 1
    assert page.count(forged) == 2 and f"chart-{'a' * 32}-1" in page


def test_a_chart_inside_an_attribute_cannot_break_out():
    text = f'<details><abbr title="\n\n{chart_block(bar_spec())}\n\n<img src=x onerror=alert(1)>">x</abbr></details>'
    page = page_of(text)
    assert "onerror" not in page and "<img src=x" not in page


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('{"mark": "bar", "data": ', "not valid JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        (bar_spec(data={"url": "http://127.0.0.1:9/x.csv"}), "only inline data"),
        (bar_spec(layer=[{"data": {"url": "https://example.com/x.csv"}, "mark": "bar"}]), "only inline data"),
        ("[" * 5000 + "]" * 5000, "not valid JSON"),
    ],
)
def test_a_spec_that_cannot_be_drawn_shows_an_escaped_notice(body, reason):
    page = page_of(chart_block(body))
    notice = re.search(r'<p class="chart-error" data-testid="chart-error">Chart not drawn: ([^<]*)</p>', page)
    assert notice and reason in notice.group(1)
    assert not figures(page) and "<p>That is all.</p>" in page


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (bar_spec(data={"values": [{"region": "r", "cases": i} for i in range(MAX_DATA_VALUES + 1)]}), "at most"),
        (bar_spec(data={"sequence": {"start": 0, "stop": 200_000, "as": "cases"}}), "at most"),
        (bar_spec(data={"sequence": {"start": 0, "stop": "1e9", "as": "cases"}}), "must be numbers"),
        (bar_spec(description="x" * 1_000_001), "over 1,000,000 bytes"),
        ('{"a": ' * 900 + "1" + "}" * 900, "nests deeper than"),
        (bar_spec(transform=[{"calculate": "pad('', 1e9, 'x')", "as": "b"}]), "calls pad()"),
        (bar_spec(transform=[{"calculate": "length(sequence(0, 1e8))", "as": "b"}]), "calls sequence()"),
        (bar_spec(transform=[{"flatten": ["b"]}]), "the transform flatten is not drawn"),
        (bar_spec(transform=[{"impute": "cases", "key": "region", "keyvals": {"start": 0, "stop": "1e9"}}]), "impute"),
        (bar_spec(encoding={"y": {"field": "cases", "impute": {"keyvals": {"stop": 1e9}}}}), "impute"),
        (bar_spec(width=10_000_000, height=10_000_000), "width 10,000,000 is over 4,000"),
        (bar_spec(width={"expr": "1e9"}), "width must be a number"),
        (bar_spec(height={"step": 100_000}), "step of 100,000 pixels"),
        (bar_spec(encoding={"x": {"field": "cases", "bin": {"step": 1e-9}}}), "bin's step"),
        (bar_spec(encoding={"x": {"field": "cases", "axis": {"tickCount": 1e9}}}), "tickCount"),
        ({"repeat": [f"f{i}" for i in range(100)], "spec": bar_spec()}, "views; at most 64"),
        (
            bar_spec(
                data={"values": [{"f0": i} for i in range(2000)]}, transform=[{"fold": [f"f{i}" for i in range(40)]}]
            ),
            "about 80,000 marks",
        ),
    ],
)
def test_a_spec_past_the_bounds_is_the_too_large_figure_at_once(body, reason):
    started = time.monotonic()
    page = page_of(chart_block(body))
    assert time.monotonic() - started < 5
    assert reason in too_large(page)
    assert not figures(page) and "<p>That is all.</p>" in page


def test_a_chart_vega_lite_cannot_draw_says_why_in_its_image_and_then_on_the_page():
    text = chart_block(bar_spec(mark="no-such-mark"))
    [(src, _alt, _caption)] = figures(page_of(text))
    assert "Vega-Lite could not draw it" in svg_of(src)
    notice = re.search(r'data-testid="chart-error">Chart not drawn: ([^<]*)</p>', page_of(text))
    assert notice and "Vega-Lite could not draw it" in notice.group(1)


def test_a_drawing_past_its_cpu_time_is_killed_and_kept_as_too_large(settings, chart_store):
    settings.CHART_RENDER_CPU_S, settings.CHART_RENDER_TIMEOUT_S = 1, 300
    cells = {"data": {"values": [{"a": i, "b": i} for i in range(3000)]}, "mark": "point"}
    encoding = {"x": {"field": "a", "type": "quantitative"}, "facet": {"field": "a", "columns": 60}}
    text = chart_block({**cells, "encoding": encoding})  # within the bounds, yet 3,000 small multiples
    [(src, _alt, _caption)] = figures(page_of(text))
    assert "Chart too large to draw" in svg_of(src)
    assert "ran out of memory or CPU time" in too_large(page_of(text))


def test_a_drawing_past_the_wall_clock_is_killed_and_tried_again_next_time(settings, chart_store):
    settings.CHART_RENDER_TIMEOUT_S = 0.01  # no drawing is that quick: as on a machine too busy to draw
    text = chart_block(bar_spec())
    [(src, _alt, _caption)] = figures(page_of(text))
    assert "Chart too large to draw" in svg_of(src)
    assert [path.suffix for path in chart_store.iterdir()] == [".json"]  # the spec only: no outcome kept
    settings.CHART_RENDER_TIMEOUT_S = 60
    assert ">north</text>" in svg_of(figures(page_of(text))[0][0])


def test_a_spec_that_exhausts_v8_ends_only_its_own_process(settings):
    """The spec that killed the server (an impute with a string stop), drawn with no pre-check."""
    settings.CHART_RENDER_TIMEOUT_S = 300  # its CPU or memory limit ends it, however busy the machine
    spec = bar_spec(transform=[{"impute": "cases", "key": "region", "keyvals": {"start": 0, "stop": "1e9"}}])
    outcome = async_to_sync(draw)(json.dumps(spec).encode())
    assert outcome.too_large and outcome.final and not outcome.svg


def test_a_chart_is_drawn_once_and_kept_by_its_spec(chart_store):
    text = chart_block(bar_spec())
    [(src, _alt, _caption)] = figures(page_of(text))
    first = svg_of(src)
    [drawn] = chart_store.glob("*.svg")
    assert drawn.read_text() == first
    drawn.write_text("<svg>kept</svg>")
    assert svg_of(figures(page_of(text))[0][0]) == "<svg>kept</svg>"


def test_without_a_session_a_chart_is_not_drawn():
    notice = re.search(
        r'data-testid="chart-error">Chart not drawn: ([^<]*)</p>', render_markdown(chart_block(bar_spec()))
    )
    assert notice and "drawn only on the pages of a session" in notice.group(1)


def test_vl_convert_itself_fetches_nothing_and_says_so():
    with pytest.raises(ValueError, match="not allowed"):
        draw_svg(bar_spec(data={"url": "http://127.0.0.1:9/x.csv"}))


def test_raw_spec_text_in_an_error_stays_text():
    page = page_of(chart_block('{"title": "<img src=x onerror=alert(1)>", oops}'))
    assert "<img" not in page and "onerror=alert" not in page.replace("&lt;", "")


def test_other_fences_render_as_code_as_before():
    page = page_of('```python\nprint(\'<b>\')\n```\n\n```json\n{"mark": "bar"}\n```')
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
    [(src, alt, _caption)] = set(figures(page))  # the report's, and the answer card's: the same chart
    image = client.get(src)
    assert image["Content-Type"] == "image/svg+xml" and alt.startswith("Bar chart")
    assert image["Cache-Control"] == "private, max-age=86400"  # a drawing is kept: the browser may keep it too
    assert ">north</text>" in image.content.decode()
    client.force_login(make_user("mallory"))
    assert client.get(src).status_code == 404  # not a member of the session
    client.force_login(owner)
    other = make_session(owner=owner, title="Other")
    assert client.get(src.replace(str(session.pk), str(other.pk))).status_code == 404  # not shown there
