"""Suggested questions in the browser: once the analyst has read an attached CSV, the answer card offers
a few questions its columns can answer, none about the identifier; one click asks one, and the
analyst's answer to it comes into the page.

The table (plots.csv, a field trial as agronomy courses publish them) numbers its plots, gives each a
fertiliser, a year, a height and a yield; nitrate yields clearly more, so a test of the difference
finds it significant (computed here with SciPy's one-way ANOVA).
"""

import random

import pytest
from scipy import stats as scipy_stats

from tests.chromium import approve_the_plan, reports_by, screenshot, start_analysis, wait_for_count
from workspace.answer_card import CARD_SUGGESTIONS

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

YIELD = {"control": 4.0, "compost": 4.6, "nitrate": 5.8}  # mean yield (kg) of each fertiliser
SIGNIFICANCE = "Is the difference in yield kg by fertiliser statistically significant?"
LIVE = 40_000


def plot_rows() -> list[tuple]:
    rng = random.Random(37)
    rows = []
    for plot in range(1, 61):
        fertiliser = list(YIELD)[plot % 3]
        yield_kg = round(YIELD[fertiliser] + rng.gauss(0, 0.4), 2)
        rows.append((plot, fertiliser, 2019 + plot % 5, round(40 + 6 * yield_kg + rng.gauss(0, 3), 1), yield_kg))
    return rows


SCROLL_TO = "card => card.scrollIntoView({block: 'nearest'})"


def test_the_suggested_questions_are_offered_and_one_click_gets_the_answer(nina, tmp_path):
    rows = plot_rows()
    groups = [[r[4] for r in rows if r[1] == fertiliser] for fertiliser in YIELD]
    assert scipy_stats.f_oneway(*groups).pvalue < 0.001  # built so: the answer is "yes, significant"
    csv_path = tmp_path / "plots.csv"
    csv_path.write_text(
        "plot_id,fertiliser,year,height_cm,yield_kg\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)
    )

    page = nina
    start_analysis(
        page,
        page.server.url,
        "Analyse the attached plots CSV: which fertiliser has the highest average yield kg?",
        csv_path,
    )
    approve_the_plan(page)
    reports_by(page, "scribe").first.wait_for(timeout=LIVE)

    card = page.get_by_test_id("answer-card")
    offered = card.get_by_test_id("suggested-question")
    offered.first.wait_for(timeout=LIVE)
    questions = [" ".join(q.split()) for q in offered.all_inner_texts()]
    assert len(questions) == CARD_SUGGESTIONS and SIGNIFICANCE in questions  # one line: the report has them all
    assert "How did the average yield kg change over time?" in questions
    assert not any("plot" in q.lower() for q in questions)  # the identifier is never asked about
    assert not any("highest average yield" in q for q in questions)  # the question already answered
    card.evaluate(SCROLL_TO)  # in one step in the page: the card may be swapped live between two of ours
    screenshot(page, "suggested-questions-offered-1440", whole=False)

    card.get_by_role("button", name=SIGNIFICANCE).click()
    card.get_by_text("the analyst answers it next").wait_for(timeout=LIVE)  # the reply, then the card says it
    asked = card.get_by_test_id("suggestion-asked")
    asked.wait_for(timeout=LIVE)  # once the feedback is in, the card says so instead of offering it again
    assert " ".join(asked.inner_text().split()) == f"Asked: “{SIGNIFICANCE}”; the analyst answers it next."
    assert SIGNIFICANCE not in [" ".join(q.split()) for q in offered.all_inner_texts()]
    screenshot(page, "suggested-question-asked-1440", whole=False)
    wait_for_count(page, "analyst", 2, LIVE)
    findings = reports_by(page, "analyst").nth(1).locator("section[data-section-id=findings]")
    said = " ".join(findings.text_content().split())  # folded once the scribe writes it up: read, not seen
    assert said.startswith("Findings"), said
    assert "Yes, the differences between the groups are statistically significant at the 5% level" in said
    assert "one-way ANOVA, p < 0.001" in said and f"You asked: “{SIGNIFICANCE}”" in said

    # Written up again, the answer card holds both questions' answers, and no longer offers the one asked.
    wait_for_count(page, "scribe", 2, LIVE)
    page.wait_for_function(
        "q => [...document.querySelectorAll('#answer-card .asked')].some(p => p.textContent.includes(q))",
        arg=SIGNIFICANCE,
        timeout=LIVE,
    )
    assert SIGNIFICANCE not in [" ".join(q.split()) for q in offered.all_inner_texts()]
    card.evaluate(SCROLL_TO)  # in one step in the page: the card may be swapped live between two of ours
    screenshot(page, "suggested-question-answered-1440", whole=False)
    assert page.console_errors == []
