"""The answer card in a real browser: after the plan is approved it says, at the top of the page and
live, the lead sentence of the session's current answer with its chart and who reviewed it, links to
the report in the thread and to its node on the map, and after the session is marked done nothing on the page says "waiting"."""

import pytest

from agents.behaviours.answers import lead_of
from sessions import selectors
from sessions.models import Message, WorkSession
from tests.chromium import approve_the_plan, screenshot, start_analysis

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

LIVE = 60_000
GOAL = "Analyse the attached plots CSV: which plot has the highest mean yield?"


def start_a_session(page, tmp_path) -> WorkSession:
    page.set_viewport_size({"width": 1440, "height": 900})
    rows = "".join(f"{plot},{yield_}\n" for plot, yield_ in [("a", 4), ("b", 7)] * 12)
    csv_path = tmp_path / "plots.csv"
    csv_path.write_text("plot,yield\n" + rows)
    start_analysis(page, page.server.url, GOAL, csv_path)
    return WorkSession.objects.get(title__startswith="Analyse the attached plots")


def current_lead(session: WorkSession) -> str:
    """The lead of the current answer as the log has it: the first line of the Findings of the
    analysis the written report was written from, without its Markdown."""
    session.refresh_from_db()  # the graph as the log stands now
    written = selectors.final_report(session=session).envelope
    analysis = Message.objects.get(session=session, message_id=written["payload"]["provenance"]["from_message_id"])
    [findings] = [s for s in analysis.envelope["payload"]["content"]["sections"] if s["id"] == "findings"]
    return lead_of(findings).replace("**", "")


def test_the_answer_card_says_the_current_answer_and_after_done_nothing_waits(nina, tmp_path):
    page = nina
    session = start_a_session(page, tmp_path)
    card = page.get_by_test_id("answer-card")
    assert "No answer yet" in card.inner_text() and GOAL in card.inner_text()

    approve_the_plan(page)
    waits = card.get_by_test_id("answer-waits")
    waits.filter(has_text="For you: Start step 3 of the plan").wait_for(timeout=LIVE)  # the review, at its gate
    assert "not reviewed yet" in card.get_by_test_id("answer-meta").inner_text()
    page.locator("#approvals").get_by_role("button", name="Approve").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=answer-meta]')?.textContent.includes('reviewed by reviewer')",
        timeout=LIVE,
    )
    page.get_by_test_id("state-label").filter(has_text="Ready for your review").wait_for(timeout=LIVE)  # all quiet
    lead = card.get_by_test_id("answer-lead")
    assert lead.count() == 1
    assert " ".join(lead.inner_text().split()) == current_lead(session)
    assert card.get_by_test_id("chart").is_visible()
    page.evaluate("() => window.scrollTo(0, 0)")  # approving scrolled to the approvals
    top = page.evaluate("() => document.getElementById('answer-card').getBoundingClientRect().top")
    assert top < 400  # the first thing under the title, not 8,000 px down (live swaps replace the card: read at once)
    screenshot(page, "answer-card-1440", whole=False)
    page.set_viewport_size({"width": 1024, "height": 768})
    screenshot(page, "answer-card-1024", whole=False)

    card.get_by_role("link", name="Read the full report").click()
    report = page.locator("article.message.current")
    assert page.evaluate("() => location.hash") == f"#{report.get_attribute('id')}"
    assert page.evaluate("() => document.querySelector('article.message.current').getBoundingClientRect().top") < 768

    card.get_by_role("link", name="Show it on the map").click()
    page.get_by_test_id("node-current").wait_for(timeout=LIVE)  # its node's details: "The current answer"
    assert page.evaluate("() => location.hash").startswith("#map-node-")

    page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_role("button", name="Mark the session done").click()
    page.get_by_test_id("state-label").filter(has_text="Done").wait_for(timeout=LIVE)
    assert "waiting" not in page.locator("main").inner_text().lower()
    assert "Nothing for you to decide." in card.inner_text()
    screenshot(page, "answer-card-done-1024", whole=False)
    assert page.console_errors == []
