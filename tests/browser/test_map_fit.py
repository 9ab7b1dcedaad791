"""The decision map at the window sizes people use: Fit shows every column, labels span two lines,
node details open in view, a failed step shows failed, and no id is used twice on a page."""

import pytest

from agents.models import Task
from sessions.access import SYSTEM, caller_for_user
from tests.chromium import ARTIFACTS, off_the_browser_thread, open_page, screenshot, sign_in
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes
from workspace.map_drawing import LABEL_RIGHT, LABEL_X

pytestmark = [pytest.mark.browser, pytest.mark.processes]

LONG = "Use the 2022 regional survey for the market figures and say which suppliers it leaves out"


def task_event(task, action, state, step, **kwargs):
    payload = {"task_id": task, "action": action, "state": state, "title": f"step {step}", "by": "system:workbench"}
    return envelopes.envelope("task_event", {**payload, "plan_message_id": "d", "plan_step": step}, **kwargs)


def long_correction(**kwargs):
    correction = envelopes.feedback("r1", part={"kind": "section", "id": "market"}, message_id="c1", **kwargs)
    correction["payload"]["specific_instructions"] = {"request": LONG}
    return correction


def build(owner):
    """Goal, an approved plan of three steps, the analyst's report on step 1 with its sections, a
    correction of one section, the redo, and a failed task on step 2: every column of the map."""
    session = make_session(owner=owner, title="Battery suppliers")
    me, planner, analyst = caller_for_user(owner), agent_in(session, "planner"), agent_in(session, "analyst")
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, planner, envelopes.declaration, message_id="d", in_reply_to="t")
    post_message(session, me, envelopes.feedback, "d", feedback_type="approval")  # its steps become tasks
    post_message(session, analyst, envelopes.response, step=1, message_id="r1", in_reply_to="d")
    post_message(session, me, long_correction)
    post_message(session, analyst, envelopes.response, message_id="r2", in_reply_to="c1")
    step_2 = Task.objects.get(session=session, source_message_id="d", plan_step=2)
    post_message(session, SYSTEM, task_event, step_2.pk, "failed", "failed", 2)
    return session


@pytest.fixture
def mapped(daphne_server, chromium):
    owner = make_user("olga")
    session = off_the_browser_thread(build, owner=owner)
    yield {"session": session, "server": daphne_server, "owner": owner, "chromium": chromium}


def in_view(page, selector):
    """Whether every element ``selector`` matches lies inside the map's frame on screen."""
    return page.evaluate(
        """(selector) => {
          const frame = document.getElementById("map-svg").getBoundingClientRect();
          return Array.from(document.querySelectorAll(selector)).every((el) => {
            const r = el.getBoundingClientRect();
            return r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
          });
        }""",
        selector,
    )


def duplicate_ids(page):
    return page.evaluate(
        """() => {
          const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
          return ids.filter((id, i) => ids.indexOf(id) !== i);
        }"""
    )


@pytest.mark.parametrize("width,height", [(1024, 768), (1440, 900)])
def test_fit_shows_every_column_labels_wrap_and_details_open_in_view(mapped, width, height):
    page = open_page(mapped["chromium"], width=width, height=height)
    sign_in(page, mapped["server"], mapped["owner"].username)
    page.goto(f"{mapped['server'].url}/sessions/{mapped['session'].pk}/")
    page.locator("#map-svg").wait_for()
    page.get_by_role("button", name="Fit").click()
    columns = page.evaluate(
        "Array.from(new Set(Array.from(document.querySelectorAll('#map-nodes .node'), n => n.dataset.x)))"
    )
    assert len(columns) == 6  # goal, plan, steps, results, sections, feedback
    for x in columns:
        assert in_view(page, f'#map-nodes .node[data-x="{x}"]'), f"the column at x={x} is cropped"
    assert not page.locator("#map-svg").evaluate("svg => svg.classList.contains('far')")  # labels drawn

    decision = page.locator("#map-nodes .node.shape-decision", has_text="Correction by olga")
    spans = decision.locator("tspan")
    assert spans.count() == 2 and spans.nth(1).text_content().endswith("…")
    first, second = (spans.nth(i).bounding_box() for i in (0, 1))
    assert second["y"] > first["y"] + first["height"] / 2  # two lines, one under the other
    assert LONG in decision.locator("title").text_content()  # the whole label on hover

    assert page.locator("#map-nodes .node.status-failed.shape-step").count() == 1  # step 2's task failed
    screenshot(page, f"map-fit-{width}x{height}")

    page.locator("#map-nodes .node.shape-result").first.click()
    details = page.get_by_test_id("node-details")
    details.locator("h2").first.wait_for()
    box = details.locator("h2").first.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, "the node details opened out of view"
    page.screenshot(path=str(ARTIFACTS / f"map-details-{width}x{height}.png"))  # what the window shows
    assert duplicate_ids(page) == []
    assert page.console_errors == []
    page.context.close()


def test_history_offers_the_milestones_and_keeps_ids_unique(mapped):
    page = open_page(mapped["chromium"], width=1024, height=768)
    sign_in(page, mapped["server"], mapped["owner"].username)
    page.goto(f"{mapped['server'].url}/sessions/{mapped['session'].pk}/history/")
    start = page.get_by_label("From")
    labels = start.locator("option").all_inner_texts()
    assert any(label.startswith("Correction by olga of") for label in labels)
    assert any(label.startswith("Report delivered by analyst") for label in labels)
    start.select_option(label=next(label for label in labels if label.startswith("Report delivered")))
    page.get_by_label("to").select_option(label=next(label for label in labels if label.startswith("Correction")))
    page.get_by_role("button", name="Compare").click()
    diff = page.get_by_test_id("history-diff")
    diff.get_by_text("Report section: Market").wait_for()
    assert "msg_" not in diff.inner_text() and "agent:" not in diff.inner_text()
    page.locator("#map-nodes .node").first.click()
    page.get_by_test_id("node-details").locator("h2").wait_for()
    assert duplicate_ids(page) == []
    screenshot(page, "history-milestones-1024x768")
    assert page.console_errors == []
    page.context.close()


# Wide capitals, a long word, a URL and a long number: a label wrapped by its count of characters ran
# out of its node's box with these.
WIDE_GOAL = (
    "WWWW MMMM WWWWWWWW MMMMMMMMMMMM compare the Supercalifragilisticexpialidocious suppliers "
    "https://example.com/reports/2024/battery-suppliers-and-their-market-shares.csv "
    "and 123456789012345678901234567890 WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW end"
)


def overflowing_labels(page) -> list[str]:
    """The label lines drawn past their node's box, less its padding (``LABEL_X`` on the left, where
    the lines start, and ``LABEL_RIGHT`` on the right)."""
    return page.evaluate(
        """([left, right]) => Array.from(document.querySelectorAll("#map-nodes .node")).flatMap((node) => {
          const width = node.querySelector(":scope > .box").getBBox().width;
          return Array.from(node.querySelectorAll(":scope > text tspan"))
            .filter((line) => {
              const start = line.getStartPositionOfChar(0).x;
              return start < left - 0.5 || start + line.getComputedTextLength() > width - right + 0.5;
            })
            .map((line) => `${node.id}: ${line.textContent} (${line.getComputedTextLength().toFixed(1)} of ${width - left - right})`);
        })""",
        [LABEL_X, LABEL_RIGHT],
    )


def test_every_label_line_stays_inside_its_node_whatever_the_goal(daphne_server, chromium):
    owner = make_user("wanda")

    def build_wide(owner):
        session = make_session(owner=owner, title="Wide words")
        me, planner = caller_for_user(owner), agent_in(session, "planner")
        post_message(session, me, envelopes.proposal, goal=WIDE_GOAL, message_id="t")
        post_message(session, planner, envelopes.declaration, message_id="d", in_reply_to="t")
        return session

    session = off_the_browser_thread(build_wide, owner=owner)
    page = open_page(chromium, width=1440, height=900)
    sign_in(page, daphne_server, owner.username)
    page.goto(f"{daphne_server.url}/sessions/{session.pk}/")
    page.locator("#map-svg").wait_for()
    page.get_by_role("button", name="Fit").click()
    assert not page.locator("#map-svg").evaluate("svg => svg.classList.contains('far')")  # labels drawn
    goal = page.locator("#map-nodes .node.shape-goal")
    screenshot(page, "map-wide-goal")
    goal.screenshot(path=str(ARTIFACTS / "map-wide-goal-node.png"))
    assert goal.locator("tspan").count() >= 2
    assert overflowing_labels(page) == []
    shown = goal.locator("title").text_content().split(" · ")[0].removesuffix("…").strip()
    assert len(shown) > 60 and WIDE_GOAL.startswith(shown)  # the goal's label, as the map names it, on hover

    # A font wider than the server guessed: the browser shortens the line to end in "…".
    goal.evaluate(
        """(node) => {
          node.querySelector("tspan").textContent = "W".repeat(40);
          delete node.dataset.fitted;
        }"""
    )
    page.get_by_role("button", name="Fit").click()  # draws the view again, measuring what is new
    first = goal.locator("tspan").first.text_content()
    assert first.startswith("WWWW") and first.endswith("…") and len(first) < 40
    goal.screenshot(path=str(ARTIFACTS / "map-wide-goal-node-shortened.png"))
    assert overflowing_labels(page) == []
    assert page.console_errors == []
    page.context.close()
