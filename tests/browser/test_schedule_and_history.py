"""The scheduling view and the history's difference at the window sizes people use: a reassignment that
asks first asks on the card, in view; hand-off arrows run from card edge to card edge; the difference
between two points says how the answer moved before what changed on the map."""

import pytest

from agents.scheduling.acts import task_create
from sessions.access import caller_for_user
from sessions.membership import agent_join
from tests.chromium import off_the_browser_thread, open_page, screenshot, sign_in
from tests.factories import make_agent, make_session, make_user
from tests.rounds import ASKED, CHECKPOINT, session_with_a_moved_answer

pytestmark = [pytest.mark.browser, pytest.mark.processes]
SIZES = [(1440, 900), (1024, 768)]


def staffed(owner):
    """Three agents of three roles; a chain of three hand-offs, and a long queue for the finder so
    that its last card is well down the page."""
    session = make_session(owner=owner, title="Dengue in Laos")
    for name, role in (("finder", "research"), ("counter", "analysis"), ("author", "writing")):
        agent_join(session=session, agent=make_agent(name, roles=[role]))
    me = caller_for_user(owner)

    def task(title, agent, role, *before):
        made = task_create(session_id=session.pk, caller=me, title=title, agent=agent, required_role=role,
                           depends_on=[t.pk for t in before])  # fmt: skip
        return made

    sources = task("Collect the weekly case counts", "finder", "research")
    counted = task("Count the cases by month", "counter", "analysis", sources)
    task("Write the memo for the district officers", "author", "writing", counted, sources)  # a lane apart
    task("Check the counts against the ministry's totals", "counter", "analysis", counted)
    last = [task(f"Find the province report {n}", "finder", "research") for n in range(1, 9)][-1]
    return session, last


def arrows(page):
    """Each hand-off arrow's ends, the boxes of the cards it joins, and the points along it (every 3 px)
    that fall inside a card or on a lane's heading, on screen."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll("#handoff-lines path.handoff-line"), (path) => {
          const svg = path.ownerSVGElement.getBoundingClientRect(), length = path.getTotalLength();
          const at = (l) => { const p = path.getPointAtLength(l); return {x: svg.left + p.x, y: svg.top + p.y}; };
          const box = (el) => { const r = el.getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
          const inside = (p, r) => p.x > r.left + 1 && p.x < r.right - 1 && p.y > r.top + 1 && p.y < r.bottom - 1;
          const obstacles = Array.from(document.querySelectorAll("#schedule-board .task, #schedule-board .lane > h2, #schedule-board .lane > h3"), box);
          const crossing = [];
          for (let l = 0; l <= length; l += 3) {
            const p = at(l);
            if (obstacles.some((r) => inside(p, r))) crossing.push(p);
          }
          return {start: at(0), end: at(length), from: box(document.getElementById(path.dataset.from)),
                  to: box(document.getElementById(path.dataset.to)), crossing: crossing};
        })"""
    )


def on_an_edge(point, box):
    """Whether ``point`` lies on the left or right edge of ``box`` (within a pixel), between its top and bottom."""
    upright = box["top"] <= point["y"] <= box["bottom"]
    return upright and min(abs(point["x"] - box["left"]), abs(point["x"] - box["right"])) <= 1


@pytest.fixture
def nina_signed_in(daphne_server, chromium):
    owner = make_user("nina")
    pages = []

    def opened(width, height):
        page = open_page(chromium, width=width, height=height)
        sign_in(page, daphne_server, "nina")
        pages.append(page)
        return page

    yield owner, daphne_server, opened
    for page in pages:
        page.context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_the_reassign_confirmation_shows_on_the_card_in_view_and_arrows_join_card_edges(nina_signed_in, width, height):
    owner, server, opened = nina_signed_in
    session, last = off_the_browser_thread(staffed, owner=owner)
    page = opened(width, height)
    page.goto(f"{server.url}/sessions/{session.pk}/schedule/")
    page.locator("#handoff-lines path.handoff-line").nth(3).wait_for(state="attached")
    drawn = arrows(page)
    assert len(drawn) == 4
    for arrow in drawn:
        assert on_an_edge(arrow["start"], arrow["from"]), arrow
        assert on_an_edge(arrow["end"], arrow["to"]), arrow
        assert arrow["crossing"] == [], arrow  # through the gaps: over no card and no lane's heading
    screenshot(page, f"schedule-board-{width}x{height}")

    card = page.locator(f"#task-{last.pk}")
    card.scroll_into_view_if_needed()
    assert page.evaluate("() => window.scrollY") > 0  # the card is below the first screen
    card.get_by_label("Agent").select_option("author")
    card.get_by_role("button", name="Reassign").click()
    confirm = page.get_by_test_id("confirm-reassign")
    confirm.wait_for()
    in_view = """() => { const r = document.querySelector("[data-testid=confirm-reassign]").getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight; }"""
    page.wait_for_function(in_view, timeout=2_000)  # once the board has settled
    assert "author does not do research" in confirm.inner_text()
    box, held = confirm.bounding_box(), page.locator(f"#task-{last.pk}").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"the confirmation is out of view: {box}"
    assert held["y"] <= box["y"] and box["y"] + box["height"] <= held["y"] + held["height"]  # on the card
    assert page.evaluate("() => document.activeElement.textContent") == "Give it to author anyway"
    screenshot(page, f"schedule-confirm-on-the-card-{width}x{height}", whole=False)
    confirm.get_by_role("button", name="Keep it where it is").click()
    confirm.wait_for(state="detached")
    assert page.locator(f'.lane[data-lane="finder"] #task-{last.pk}').count() == 1
    assert page.console_errors == []


@pytest.mark.parametrize("width,height", SIZES)
def test_the_history_difference_says_how_the_answer_moved(nina_signed_in, width, height):
    owner, server, opened = nina_signed_in
    session = off_the_browser_thread(session_with_a_moved_answer, owner=owner)
    page = opened(width, height)
    page.goto(f"{server.url}/sessions/{session.pk}/history/")
    page.get_by_label("From").select_option(str(CHECKPOINT))
    page.get_by_role("button", name="Compare").click()
    answer = page.get_by_test_id("diff-answer")
    answer.wait_for()
    assert (
        f"The answer to “{ASKED}” is now: May has the highest median cases: 60; "
        "it was: June has the highest mean cases: 59.96." in answer.inner_text()
    )
    assert answer.get_by_test_id("answer-was").inner_text().startswith("June has the highest mean cases: 59.96")
    assert answer.get_by_test_id("answer-now").inner_text().startswith("May has the highest median cases: 60")
    answer.scroll_into_view_if_needed()
    screenshot(page, f"history-answer-diff-{width}x{height}", whole=False)
    screenshot(page, f"history-answer-diff-{width}x{height}-page")
    assert page.console_errors == []
