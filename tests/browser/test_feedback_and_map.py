"""Feedback without jumps, and the map's missing pieces, at the window sizes people use: selecting a
sentence deep in a long thread keeps the page where it is and brings the panel beside it, naming its
target in words; the quote stays marked with a link to the feedback; a commenter is offered Refine
only; the map's first view holds the goal, the plan and the current answer with its minimap showing,
badges are not clipped, labels survive a window resize and node details have a short heading."""

import re

import pytest

from sessions.access import caller_for_user
from tests.chromium import ARTIFACTS, labels_undrawn, off_the_browser_thread, open_page, screenshot, sign_in, unfold
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = [pytest.mark.browser, pytest.mark.processes]

SENTENCE = "Three suppliers hold most of the regional market in 2023"
LONG = "Use the 2022 regional survey for the market figures and say which suppliers it leaves out"
ROUNDS = 4  # as many as the walk: a map taller than its frame


def long_report(round_, **kwargs):
    """A report whose sections are long enough to make the thread a long page; the market section of
    every round has the sentence a reader selects."""
    report = envelopes.response(sections=(("intro", 0.9), ("market", 0.4), ("risks", 0.7)), **kwargs)
    filler = " ".join(f"Paragraph text of round {round_}, line {n}, for a long page." for n in range(12))
    for section in report["payload"]["content"]["sections"]:
        body = f"{filler}\n\n{filler}"
        if section["id"] == "market":
            body = f"{filler}\n\n{SENTENCE} (round {round_}). {filler}"
        section["body"] = body
    return report


def correction(target, text, **kwargs):
    feedback = envelopes.feedback(target, part={"kind": "section", "id": "market"}, **kwargs)
    feedback["payload"]["specific_instructions"] = {"request": text}
    return feedback


def build(owner, commenter, rounds):
    """Goal, an approved plan, ``rounds`` reports by the analyst each corrected (the last by a long
    correction) and redone, and the writer's summary of the last: a thread many screens long."""
    session = make_session(owner=owner, title="Battery suppliers", members={commenter: "commenter"})
    me, planner = caller_for_user(owner), agent_in(session, "planner")
    analyst, scribe = agent_in(session, "analyst"), agent_in(session, "scribe")
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, planner, envelopes.declaration, message_id="d", in_reply_to="t")
    post_message(session, me, envelopes.feedback, "d", feedback_type="approval")
    reply = "d"
    for n in range(1, rounds + 1):
        post_message(
            session, analyst, long_report, n, step=1 if n == 1 else None, message_id=f"r{n}", in_reply_to=reply
        )
        text = LONG if n == rounds else f"Say which year, round {n}"
        post_message(session, me, correction, f"r{n}", text, message_id=f"c{n}")
        reply = f"c{n}"
    writer = ("agent", "scribe")
    post_message(session, scribe, long_report, rounds + 1, message_id="w", in_reply_to=f"r{rounds}", sender=writer)
    return session


def served(server, chromium, rounds=ROUNDS):
    owner, commenter = make_user("olga"), make_user("cora")
    session = off_the_browser_thread(build, owner=owner, commenter=commenter, rounds=rounds)
    return {"session": session, "server": server, "chromium": chromium}


@pytest.fixture
def thread_and_map(daphne_server, chromium):
    return served(daphne_server, chromium)


def session_page(ctx, who, width, height):
    page = open_page(ctx["chromium"], width=width, height=height)
    sign_in(page, ctx["server"], who)
    page.goto(f"{ctx['server'].url}/sessions/{ctx['session'].pk}/")
    page.locator("#map-svg").wait_for()
    return page


def select_words(page, article, words):
    """Select ``words`` in ``article``'s market section as a person's drag does, ending with a mouseup."""
    page.evaluate(
        """([selector, words]) => {
          const body = document.querySelector(selector + ' section[data-section-id="market"] .body');
          const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.data.indexOf(words);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + words.length);
            window.getSelection().removeAllRanges();
            window.getSelection().addRange(range);
            const box = range.getBoundingClientRect();
            node.parentElement.dispatchEvent(new MouseEvent("mouseup", { bubbles: true, clientX: box.right, clientY: box.bottom }));
            return;
          }
          throw new Error("not found: " + words);
        }""",
        [article, words],
    )


def inside_the_window(page, locator, *, settle_ms: int = 5_000) -> bool:
    """Whether ``locator`` is within the window once the page settles: a message arriving live (the
    feedback just sent, redrawn in the thread) moves the page for a moment."""
    size = page.viewport_size
    for _ in range(settle_ms // 250):
        box = locator.bounding_box()
        if (
            box is not None
            and box["y"] >= 0
            and box["y"] + 40 <= size["height"]
            and box["x"] + box["width"] <= size["width"]
        ):
            return True
        page.wait_for_timeout(250)
    return False


@pytest.mark.parametrize("width,height", [(1440, 900), (1024, 768)])
def test_selecting_a_sentence_keeps_the_page_and_the_quote_stays_marked(thread_and_map, width, height):
    page = session_page(thread_and_map, "olga", width, height)
    # The map of four rounds is taller than its frame: the first view holds the current answer, the
    # goal and the plan drawn with it or named at the top of the frame, and the minimap shows where the
    # rest lies.
    assert page.locator(".minimap").is_visible() and in_the_frame(page, "#map-nodes .node.current")
    pinned = page.get_by_test_id("map-pinned")
    for shape, word in (("goal", "Goal"), ("plan", "Plan")):
        assert (
            in_the_frame(page, f"#map-nodes .node.shape-{shape}")
            or pinned.get_by_role("button", name=re.compile(f"^{word}\\b")).is_visible()
        ), f"the first view neither shows nor names the {shape}"
    page.locator("#decision-map").scroll_into_view_if_needed()
    screenshot(page, f"map-first-view-four-rounds-{width}x{height}", whole=False)
    goal = pinned.get_by_role("button", name=re.compile(r"^Goal\b"))
    if goal.is_visible():
        goal.click()  # the goal is shown and its details open
        page.wait_for_function("() => !document.querySelector('.map-pinned button')?.textContent.startsWith('Goal')")
        assert in_the_frame(page, "#map-nodes .node.shape-goal")
        page.get_by_test_id("node-details").locator("h2").first.wait_for()
        page.get_by_role("button", name="Fit").click()
    article = page.locator("#thread article.kind-collaborative_response").nth(1)  # the analyst's 2nd report
    selector = f"#{article.get_attribute('id')}"
    unfold(article)  # a replaced version, folded to one line
    sentence = f"{SENTENCE} (round 2)"
    page.locator(f'{selector} section[data-section-id="market"] .body p').nth(1).evaluate(
        "p => p.scrollIntoView({ block: 'center' })"
    )
    before = page.evaluate("window.scrollY")
    assert before > height  # down the page, away from the side panels

    select_words(page, selector, sentence)
    offer = page.get_by_test_id("feedback-offer")
    offer.wait_for()
    assert page.evaluate("window.scrollY") == before
    offer.click()
    panel = page.get_by_test_id("feedback-panel")
    assert page.evaluate("window.scrollY") == before, "opening the panel moved the page"
    assert inside_the_window(page, panel.get_by_label("What should change")), "the panel is not beside the selection"
    target = panel.get_by_test_id("feedback-target").inner_text()
    assert "the report from analyst, version 2 (superseded by a newer version)" in target
    assert "section “Market”" in target and f"“{sentence}”" in target
    assert page.locator(f"{selector} mark.quoting").inner_text() == sentence  # the words stay shown
    screenshot(page, f"feedback-beside-the-selection-{width}x{height}", whole=False)

    panel.get_by_label("Refine").check()
    panel.get_by_label("What should change").fill("Name the three suppliers")
    panel.get_by_role("button", name="Send feedback").click()
    sent = panel.get_by_test_id("feedback-sent")
    sent.wait_for()
    assert page.evaluate("window.scrollY") == before
    seq = sent.get_attribute("data-seq")
    page.locator(f"#thread #msg-{seq}").wait_for(timeout=30_000)  # the feedback, live, and the report redrawn
    link = page.locator(f'{selector} a.quoted-link[href="#msg-{seq}"]')
    link.wait_for(state="attached")
    unfold(article)
    link.wait_for()
    assert page.locator(f"{selector} mark.quoted").inner_text() == sentence
    screenshot(page, f"feedback-quote-marked-{width}x{height}", whole=False)

    page.reload()
    unfold(page.locator(selector))  # folded again, as a replaced version is on a page opened afresh
    page.locator(f'{selector} a.quoted-link[href="#msg-{seq}"]').wait_for()  # the mark stays on the page
    assert page.locator(f"{selector} mark.quoted").inner_text() == sentence
    assert page.console_errors == []
    page.context.close()


def test_a_commenter_is_offered_refine_only(thread_and_map):
    page = session_page(thread_and_map, "cora", 1440, 900)
    panel = page.get_by_test_id("feedback-panel")
    kinds = panel.locator("input[name=feedback_type]")
    assert kinds.count() == 1 and panel.get_by_label("Refine").is_checked()
    assert panel.get_by_label("Correct").count() == 0 and panel.get_by_label("Approve").count() == 0
    assert page.get_by_role("button", name="Correct this").count() == 0  # an assumption: "Suggest a refinement"
    last = page.locator("#thread article.kind-collaborative_response").last
    unfold(last)  # its risks are below its lead
    last.locator('section[data-section-id="risks"] h4 button', has_text="Give feedback").click()
    panel.get_by_label("What should change").fill("Add the supply risks of 2024")
    panel.get_by_role("button", name="Send feedback").click()
    assert "is in the thread as #" in panel.get_by_test_id("feedback-sent").inner_text()
    assert inside_the_window(page, panel.get_by_role("button", name="Send feedback"))  # the panel fits the window
    screenshot(page, "feedback-commenter-refine-only-1440x900", whole=False)
    assert page.console_errors == []
    page.context.close()


CLIPPED_BADGES = """() => Array.from(document.querySelectorAll('#map-nodes .current-mark, #map-nodes .count')).filter((b) => {
  const t = b.querySelector('text').getBoundingClientRect(), r = b.querySelector('rect').getBoundingClientRect();
  return t.left < r.left - 0.5 || t.right > r.right + 0.5;
}).length"""


def in_the_frame(page, selector) -> bool:
    return page.evaluate(
        """(selector) => {
          const frame = document.getElementById("map-svg").getBoundingClientRect();
          const nodes = Array.from(document.querySelectorAll(selector));
          return nodes.length > 0 && nodes.every((el) => {
            const r = el.querySelector(".box").getBoundingClientRect();
            return r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
          });
        }""",
        selector,
    )


@pytest.mark.parametrize("width,height", [(1440, 900), (1024, 768)])
def test_the_map_shows_goal_plan_and_answer_with_its_minimap_and_keeps_labels(daphne_server, chromium, width, height):
    page = session_page(served(daphne_server, chromium, rounds=3), "olga", width, height)
    page.locator("#decision-map").scroll_into_view_if_needed()
    for what in (".shape-goal", ".shape-plan", ".current"):
        assert in_the_frame(page, f"#map-nodes .node{what}"), f"the first view leaves out {what}"
    assert not page.locator("#map-svg").evaluate("svg => svg.classList.contains('far')")
    assert labels_undrawn(page) == 0
    assert page.evaluate(CLIPPED_BADGES) == 0
    current = page.locator("#map-nodes .node.current .current-mark")
    assert current.locator("text").text_content() == "★ current answer"
    screenshot(page, f"map-first-view-{width}x{height}", whole=False)
    page.get_by_role("button", name="Zoom in").click()
    assert page.locator(".minimap").is_visible()  # where the zoomed view lies in the whole map
    page.get_by_role("button", name="Fit").click()

    if width == 1440:  # a narrower window: the labels are drawn still, no Fit needed
        page.set_viewport_size({"width": 1024, "height": 768})
        page.wait_for_timeout(300)
        assert labels_undrawn(page) == 0, "labels vanished after the resize"
        assert page.evaluate(CLIPPED_BADGES) == 0
        assert in_the_frame(page, "#map-nodes .node.current")
        screenshot(page, "map-after-resize-1440-to-1024", whole=False)

    page.locator("#map-nodes .node.shape-decision", has_text="Correction by olga").last.click()
    details = page.get_by_test_id("node-details")
    heading = details.locator("h2").first
    heading.wait_for()
    assert len(heading.inner_text()) <= 80 and LONG not in heading.inner_text()
    assert LONG in details.inner_text()  # the whole correction below the heading
    size = page.viewport_size
    page.screenshot(path=str(ARTIFACTS / f"map-node-details-{size['width']}x{size['height']}.png"))
    assert page.console_errors == []
    page.context.close()
