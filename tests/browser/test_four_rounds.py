"""Issue 39's walk: an analyst takes a session through four rounds in Chromium — the plan, the report
and its review, a correction on the written report, a new direction — and the page reads top-down
after each: the answer card says the current answer's lead; at 1440x900 the whole page, nothing
unfolded, is at most 3.5 screens; selecting a sentence leaves the page where it is; the map shows its
minimap and keeps its labels through a resize to 1024; the reassign confirmation lies in the window; a
commenter is offered Refine only; and once the session is marked done nothing says "waiting".
Screenshots of the session page, the map, the scheduling view and the history diff at 1440x900 and
1024x768 go to test-artifacts/."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from agents.behaviours.answers import answers_of
from sessions import selectors
from sessions.membership import member_add
from sessions.models import Message, WorkSession
from tests.chromium import (
    approve_the_plan,
    give_feedback,
    labels_undrawn,
    off_the_browser_thread,
    open_page,
    reports_by,
    screenshot,
    sign_in,
    start_analysis,
    unfold,
    wait_for_count,
)
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

LIVE = 60_000
SCREEN = 900
SIZES = ((1440, 900), (1024, 768))
GOAL = "Analyse the attached penguins CSV: which species has the highest mean flipper length?"
NEW_DIRECTION = "What is the median body mass of each species?"
SPECIES = {"Adelie": (190, 3700, 38.8), "Chinstrap": (196, 3730, 48.8), "Gentoo": (217, 5080, 47.5)}
READY = "Ready for your review"


def penguins_csv(tmp_path):
    """Palmer-penguins-like measurements: 20 birds of each species, spread evenly about its means."""
    rows = ["species,island,bill_length_mm,flipper_length_mm,body_mass_g"]
    islands = {"Adelie": "Torgersen", "Chinstrap": "Dream", "Gentoo": "Biscoe"}
    for name, (flipper, mass, bill) in SPECIES.items():
        for n in range(20):
            spread = (n * 7) % 13 - 6  # -6 … 6, each bird its own
            rows.append(f"{name},{islands[name]},{bill + spread * 0.3:.1f},{flipper + spread},{mass + spread * 45}")
    path = tmp_path / "penguins.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def current_leads(session_id) -> list[str]:
    """The current answer's leads as the log has them: each question's lead, kept by the analysis the
    written report was written from, without its Markdown."""
    session = WorkSession.objects.get(pk=session_id)
    written = selectors.final_report(session=session).envelope
    source = (written["payload"].get("provenance") or {}).get("from_message_id") or written["message_id"]
    analysis = Message.objects.get(session=session, message_id=source).envelope
    return [" ".join(answer["lead"].replace("**", "").split()) for answer in answers_of(analysis)]


def round_ends(page, session_id, counts: dict[str, int]) -> None:
    """Wait until the round's reports are in the thread and the session stands ready for review, then
    until the answer card (swapped in live, perhaps a moment later) says the current answer's leads."""
    for sender, count in counts.items():
        wait_for_count(page, sender, count, LIVE)
    page.get_by_test_id("state-label").filter(has_text=READY).wait_for(timeout=LIVE)
    expected = off_the_browser_thread(current_leads, session_id=session_id)
    assert expected, "the current answer keeps no lead"
    page.wait_for_function(
        """(expected) => {
          const shown = [...document.querySelectorAll('#answer-card [data-testid=answer-lead]')]
            .map((lead) => lead.innerText.split(/\\s+/).join(' ').trim());
          return JSON.stringify(shown) === JSON.stringify(expected);
        }""",
        arg=expected,
        timeout=LIVE,
    )


def screens_tall(page) -> float:
    return page.evaluate("() => document.documentElement.scrollHeight") / SCREEN


def the_reassign_confirmation_shows_in_the_window(page, session_id) -> None:
    """On the scheduling view, giving the review waiting at its gate to the writer asks first, inside
    the window at both sizes; the review stays with the reviewer."""
    board = page.context.new_page()
    board.console_errors = []
    board.on("console", lambda msg: board.console_errors.append(msg.text) if msg.type == "error" else None)
    for width, height in SIZES:
        board.set_viewport_size({"width": width, "height": height})
        board.goto(f"{page.server.url}/sessions/{session_id}/schedule/")
        card = board.locator(".lane[data-lane=reviewer] .task", has_text="Review")
        card.locator('[data-gate-key^="step:"]').wait_for(timeout=LIVE)
        screenshot(board, f"four-rounds-schedule-{width}x{height}")
        confirm = board.get_by_test_id("confirm-reassign")
        for _ in range(3):  # a live redraw of the board between the pick and the click drops the pick: again
            card.evaluate("card => card.scrollIntoView({ block: 'center' })")
            card.get_by_label("Agent").select_option("scribe")
            card.get_by_role("button", name="Reassign").click()
            try:
                confirm.wait_for(timeout=5_000)
                break
            except PlaywrightTimeout:
                continue
        confirm.wait_for(timeout=1_000)
        board.wait_for_function(
            """() => { const r = document.querySelector('[data-testid=confirm-reassign]').getBoundingClientRect();
              return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }""",
            timeout=5_000,
        )  # inside the window once the board has settled
        assert "scribe does not do review" in confirm.inner_text()
        screenshot(board, f"four-rounds-schedule-confirm-{width}x{height}", whole=False)
        confirm.get_by_role("button", name="Keep it where it is").click()
        confirm.wait_for(state="detached")
        assert board.locator(".lane[data-lane=reviewer] .task", has_text="Review").count() == 1
    assert board.console_errors == []
    board.close()


def selecting_a_sentence_keeps_the_page(page) -> None:
    """A triple-click on a sentence of the written report, well down the page, and the offer it brings
    move nothing; the panel comes beside the selection and names it."""
    written = reports_by(page, "scribe").last
    sentence = written.locator('section[data-section-id="what-changed"] .body p').first
    sentence.evaluate("p => p.scrollIntoView({ block: 'center' })")
    before = page.evaluate("window.scrollY")
    assert before > SCREEN  # down the page, below the answer card and the map
    sentence.click(click_count=3)
    page.get_by_test_id("feedback-offer").click()
    assert page.evaluate("window.scrollY") == before
    target = page.get_by_test_id("feedback-target").inner_text()
    assert "the report from scribe" in target and "(the current answer)" in target
    screenshot(page, "four-rounds-feedback-beside-the-selection-1440x900", whole=False)
    page.get_by_test_id("feedback-panel").get_by_role("button", name="Close").click()
    assert page.evaluate("window.scrollY") == before


def the_map_shows_its_minimap_and_keeps_its_labels(page) -> None:
    page.locator("#decision-map").scroll_into_view_if_needed()
    page.get_by_role("button", name="Fit").click()
    assert labels_undrawn(page) == 0
    screenshot(page, "four-rounds-map-1440x900", whole=False)
    page.get_by_role("button", name="Zoom in").click()
    assert page.locator(".minimap").is_visible()  # where the zoomed view lies in the whole map
    page.get_by_role("button", name="Fit").click()
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_function("() => document.querySelectorAll('#map-nodes .node tspan').length > 0")
    page.wait_for_timeout(300)  # the resize's fit runs on the next frames
    assert labels_undrawn(page) == 0, "labels vanished after the resize"
    page.locator("#decision-map").scroll_into_view_if_needed()
    screenshot(page, "four-rounds-map-1024x768", whole=False)
    page.set_viewport_size({"width": 1440, "height": 900})


def a_commenter_is_offered_refine_only(page, session_id) -> None:
    cora = open_page(page.context.browser, width=1440, height=900)
    try:
        sign_in(cora, page.server, "cora")
        cora.goto(f"{page.server.url}/sessions/{session_id}/")
        panel = cora.get_by_test_id("feedback-panel")
        kinds = panel.locator("input[name=feedback_type]")
        assert kinds.count() == 1 and panel.get_by_label("Refine").is_checked()
        assert "waiting for you" not in cora.locator("main").inner_text().lower()
        screenshot(cora, "four-rounds-commenter-1440x900", whole=False)
        assert cora.console_errors == []
    finally:
        cora.context.close()


def the_history_diff_says_how_the_answer_moved(page, session_id) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{page.server.url}/sessions/{session_id}/history/")
        start = page.get_by_label("From")
        labels = start.locator("option").all_inner_texts()
        start.select_option(label=next(label for label in labels if label.startswith("Report delivered")))
        page.get_by_role("button", name="Compare", exact=True).click()
        answer = page.get_by_test_id("diff-answer")
        answer.wait_for(timeout=LIVE)
        assert NEW_DIRECTION in answer.inner_text()
        answer.scroll_into_view_if_needed()
        screenshot(page, f"four-rounds-history-diff-{width}x{height}", whole=False)
    page.set_viewport_size({"width": 1440, "height": 900})


def test_four_rounds_read_top_down_and_nothing_waits_once_done(nina, tmp_path):
    page = nina
    page.set_viewport_size({"width": 1440, "height": 900})
    cora = make_user("cora")
    start_analysis(page, page.server.url, GOAL, penguins_csv(tmp_path))
    session = WorkSession.objects.get(title__startswith="Analyse the attached penguins")
    off_the_browser_thread(member_add, session=session, user=cora, role="commenter")

    # Round 1, the plan: approved, its steps run to the review's gate, which asks before another role takes it.
    approve_the_plan(page, LIVE)
    page.get_by_test_id("answer-waits").filter(has_text="For you: Start step 3 of the plan").wait_for(timeout=LIVE)
    page.get_by_test_id("state-label").filter(has_text="Waiting for you").wait_for(timeout=LIVE)  # the rest done
    the_reassign_confirmation_shows_in_the_window(page, session.pk)
    page.locator("#approvals").get_by_role("button", name="Approve").click()

    # Round 2, the report and its review: the card says the current answer.
    round_ends(page, session.pk, {"analyst": 1, "scribe": 1, "reviewer": 1})
    a_commenter_is_offered_refine_only(page, session.pk)

    # Round 3, a correction on the written report: redone by all three.
    give_feedback(page, reports_by(page, "scribe").last, "Correct", "Use the sample standard deviation", LIVE)
    round_ends(page, session.pk, {"analyst": 2, "scribe": 2, "reviewer": 2})

    # Round 4, a new direction on the analysis: a second question, answered on the card too.
    analysis = reports_by(page, "analyst").last
    unfold(analysis)  # written up in the report: one line that opens
    give_feedback(page, analysis, "New direction", NEW_DIRECTION, LIVE)
    round_ends(page, session.pk, {"analyst": 3, "scribe": 3})
    assert page.get_by_test_id("answer-lead").count() == 2

    # Read afresh, nothing unfolded: the whole page within 3.5 screens at 1440x900.
    page.goto(f"{page.server.url}/sessions/{session.pk}/")
    page.locator("#thread").wait_for()
    page.get_by_test_id("state-label").filter(has_text=READY).wait_for(timeout=LIVE)
    tall = screens_tall(page)
    print(f"the session page after four rounds is {tall:.2f} screens at 1440x900")
    screenshot(page, "four-rounds-session-1440x900")
    assert tall <= 3.5, f"the page is {tall:.2f} screens tall"
    page.set_viewport_size({"width": 1024, "height": 768})
    screenshot(page, "four-rounds-session-1024x768")
    page.set_viewport_size({"width": 1440, "height": 900})

    selecting_a_sentence_keeps_the_page(page)
    the_map_shows_its_minimap_and_keeps_its_labels(page)
    the_history_diff_says_how_the_answer_moved(page, session.pk)

    # Done: nothing on the page says "waiting", for the owner as for what the card tells her.
    page.goto(f"{page.server.url}/sessions/{session.pk}/")
    page.on("dialog", lambda dialog: dialog.accept())  # open questions ask to confirm
    page.get_by_role("button", name="Mark the session done").click()
    page.get_by_test_id("state-label").filter(has_text="Done").wait_for(timeout=LIVE)
    page.get_by_test_id("answer-waits").filter(has_text="Nothing for you to decide.").wait_for(timeout=LIVE)
    assert "waiting" not in page.locator("main").inner_text().lower()
    page.reload()
    page.locator("#thread").wait_for()
    assert "waiting" not in page.locator("main").inner_text().lower()
    assert page.locator("#approvals [data-gate-key]").count() == 0
    screenshot(page, "four-rounds-done-1440x900", whole=False)
    assert page.console_errors == []
