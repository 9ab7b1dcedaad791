"""The demo session as a person reads it in Chromium at 1440x900 and 1024x768: no id, raw sender or
ISO time outside the folded technical details, times in words, table headers whole, and the page
never wider than the window. Screenshots go to test-artifacts/."""

import pytest

from agents.behaviours.registry import builtin_agents_ensure
from agents.demo import demo_seed
from tests.chromium import ARTIFACTS, off_the_browser_thread, open_page, screenshot, sign_in
from tests.factories import make_user
from tests.pages import IDS_AND_RAW_TIMES

pytestmark = [pytest.mark.browser, pytest.mark.processes]

# The page's text with every <details> left out, as a person reads it before opening one.
VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('details, script, template').forEach(e => e.remove());
  return copy.textContent.replace(/\\s+/g, ' ');
}"""
# Table headers broken inside a word: a header rendered on more lines than it has words.
BROKEN_HEADERS = """() => [...document.querySelectorAll('.markdown th')].filter(th => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  return lines > th.textContent.trim().split(/\\s+/).length;
}).map(th => th.textContent)"""


@pytest.fixture
def demo(daphne_server, chromium, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    owner = make_user("olga")
    session = off_the_browser_thread(lambda: demo_seed(owner=owner, agents=builtin_agents_ensure()))
    return {"server": daphne_server, "session": session, "owner": owner, "browser": chromium}


@pytest.mark.parametrize("width,height", [(1440, 900), (1024, 768)])
def test_the_session_page_reads_in_plain_words(demo, width, height):
    page = open_page(demo["browser"], width=width, height=height)
    sign_in(page, demo["server"], demo["owner"].username)
    page.goto(f"{demo['server'].url}/sessions/{demo['session'].pk}/")
    page.locator("#thread article").first.wait_for()
    text = page.evaluate(VISIBLE_TEXT)
    leaked = [m.group(0) for m in IDS_AND_RAW_TIMES.finditer(text)]
    assert not leaked, leaked
    first_time = page.locator("#thread time.when").first
    assert first_time.inner_text().startswith("today ") and first_time.get_attribute("title")
    assert page.evaluate(BROKEN_HEADERS) == []
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, f"plain-words-{width}x{height}")
    page.screenshot(path=ARTIFACTS / f"plain-words-{width}x{height}-top.png")
    page.locator("#thread").evaluate("e => e.scrollIntoView()")
    page.screenshot(path=ARTIFACTS / f"plain-words-{width}x{height}-thread.png")
    page.context.close()
