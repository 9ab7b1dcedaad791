"""A question with two likely readings, asked in the browser: the analyst offers both as options, one
click answers the one picked, and the Findings say how the question was read.

The table (orders.csv: shop, channel, basket_value) names two groupings and the question names
neither; online sells the bigger baskets (38 against 20 in store), the east shop the bigger ones of
the two shops (35 against 23).
"""

import pytest

from tests.chromium import approve_the_plan, screenshot, start_analysis, unfold

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

ROWS = [("east", "online", 40), ("east", "store", 30), ("west", "online", 36), ("west", "store", 10)] * 3
CHANNEL = "Which channel has the highest mean basket value?"
SHOP = "Which shop has the highest mean basket value?"


def start_session(page, tmp_path, question: str) -> None:
    """A session started on the New session page with orders.csv attached, and its plan approved."""
    csv_path = tmp_path / "orders.csv"
    csv_path.write_text("shop,channel,basket_value\n" + "".join(f"{s},{c},{v}\n" for s, c, v in ROWS))
    start_analysis(page, page.server.url, f"Analyse the attached orders CSV: {question}", csv_path)
    approve_the_plan(page)


def findings_of_the_analysis(page):
    """The analyst's Findings, once the writer's report (which follows it) is on the page, unfolded."""
    written = page.locator("#thread article.kind-collaborative_response.current header strong", has_text="scribe")
    written.wait_for(timeout=30_000)
    by_the_analyst = page.locator("header strong", has_text="analyst")
    analysis = page.locator("#thread article.kind-collaborative_response").filter(has=by_the_analyst).first
    unfold(analysis)  # written up: one line that opens
    return analysis.locator("section[data-section-id=findings]")


def test_the_readings_are_offered_and_one_click_answers_the_one_picked(nina, tmp_path):
    page = nina
    start_session(page, tmp_path, "Which has the highest mean basket value?")

    asked = page.locator("#thread article.kind-clarification").first
    asked.wait_for(timeout=30_000)
    assert "I can read “Which has the highest mean basket value?” in more than one way" in asked.inner_text()
    options = asked.locator("form.answer button.option")
    assert sorted(" ".join(o.split()) for o in options.all_inner_texts()) == [CHANNEL, SHOP]
    asked.scroll_into_view_if_needed()
    screenshot(page, "clarification-readings-1440", whole=False)

    asked.get_by_role("button", name=CHANNEL).click()
    findings = findings_of_the_analysis(page)
    findings.wait_for(timeout=30_000)
    findings.scroll_into_view_if_needed()
    screenshot(page, "clarification-answered-1440", whole=False)
    lead = " ".join(findings.locator(".body > p").first.inner_text().split())
    assert lead.startswith("online has the highest mean basket value: 38"), lead
    assert findings.locator("p.reading").all_inner_texts() == [
        "I read this as: the mean basket value compared across channel."
    ]
    answered = page.locator("#thread article.kind-clarification").first
    assert answered.get_by_test_id("decided").inner_text().endswith(f": {CHANNEL}")
    assert answered.locator(".chosen").inner_text().startswith(CHANNEL)
    assert answered.locator("button.option").count() == 0  # asked once: no second click on an old question
    answered.scroll_into_view_if_needed()
    screenshot(page, "clarification-answered-question-1440", whole=False)
    answer = page.get_by_test_id("answer-card")  # the current answer, at the top of the page
    assert "online has the highest mean basket value: 38" in answer.get_by_test_id("answer-lead").first.inner_text()
    page.evaluate("a => a.scrollIntoView()", answer.element_handle())
    screenshot(page, "clarification-deliverable-1440", whole=False)
    assert page.console_errors == []


def test_a_stated_reading_and_its_doubt_are_muted_lines_under_the_lead(nina, tmp_path):
    page = nina
    start_session(page, tmp_path, "Which shop has the highest mean basket value on weekends?")
    findings = findings_of_the_analysis(page)
    findings.wait_for(timeout=30_000)
    findings.scroll_into_view_if_needed()
    screenshot(page, "reading-stated-1440", whole=False)
    assert page.locator("#thread article.kind-clarification").count() == 0  # one reading: answered, not asked
    lead = findings.locator(".body > p").first
    assert " ".join(lead.inner_text().split()).startswith("east has the highest mean basket value: 35")
    assert findings.locator("p.reading").all_inner_texts() == [
        "I read this as: the mean basket value compared across shop.",
        "Not sure of this reading: I read past “weekends”. If that changes the question, say so and I will redo it.",
    ]
    muted = "p => [getComputedStyle(p).color, parseFloat(getComputedStyle(p).fontSize)]"
    lead_colour, lead_size = lead.evaluate(muted)
    colour, size = findings.locator("p.reading").first.evaluate(muted)
    assert colour != lead_colour and size < lead_size  # a note on the answer, not a second answer
    assert "**" not in findings.inner_text()
    assert page.console_errors == []
