"""A session of four rounds reads top-down at 1440x900: each report a later version replaced folds to
one line ("replaced by the redo after nina's correction — show") that opens on a click, without
script; the column profiles repeated by every redo and by the written report show once, and after
that as a line that links the first; before anything is unfolded the thread ends within 3.5
screens. A report replaced while the page is open folds there too. Screenshots in test-artifacts/."""

import pytest
from django.contrib.auth.models import User

from tests.chromium import next_round, off_the_browser_thread, screenshot, session_of_four_rounds, unfold

pytestmark = [
    pytest.mark.browser,
    pytest.mark.processes,
    pytest.mark.django_db(transaction=True, databases=["default", "datasets"]),
]

AGENTS_IN_PROCESS = "0"  # the test runs the agents' rounds itself, in order
LIVE = 40_000
SCREEN = 900
REPORTS = "#thread article.kind-collaborative_response"
PROFILE_TABLES = "//table[thead//th[normalize-space()='distinct']]"  # the column profiles of iris


def test_four_rounds_fold_to_a_line_each_and_the_thread_ends_within_three_and_a_half_screens(nina):
    owner = User.objects.get(username="nina")
    session = off_the_browser_thread(session_of_four_rounds, owner=owner)
    nina.goto(f"{nina.server.url}/sessions/{session.pk}/")
    nina.locator("#thread").wait_for()

    # The fourth round, while the page is open: the versions it replaces fold there, live.
    off_the_browser_thread(
        next_round,
        session=session,
        owner=owner,
        sender="scribe",
        feedback_type="correction",
        text="Use the population standard deviation",
    )
    reports = list(session.messages.filter(payload_type="collaborative_response").values_list("seq", "sender_id"))
    latest = {sender: seq for seq, sender in reports}
    replaced = [seq for seq, sender in reports if seq != latest[sender]]
    assert len(replaced) >= 6  # analyst, scribe and reviewer, each redone in more than one round
    nina.wait_for_function(
        "([selector, n]) => document.querySelectorAll(selector).length === n",
        arg=[f"{REPORTS} > details.fold > summary[data-testid=superseded]", len(replaced)],
        timeout=LIVE,
    )
    nina.locator(f"#msg-{latest['reviewer']}").wait_for(timeout=LIVE)
    for seq in replaced:
        line = nina.locator(f"#msg-{seq} > details.fold > summary")
        assert line.is_visible() and line.bounding_box()["height"] < 40  # one line
        assert "replaced by" in line.inner_text() and line.inner_text().endswith("show")
        assert not nina.locator(f"#msg-{seq} header").is_visible()
    scribe = nina.locator(f"#msg-{_last_replaced(reports, 'scribe')} > details.fold > summary")
    assert "replaced by the redo after nina's correction" in scribe.inner_text()
    # The analysis the written report repeats is one line too, which links the written report.
    analysis = nina.locator(f"#msg-{latest['analyst']} > details.fold > summary[data-testid=written-up]")
    analysis.wait_for(timeout=LIVE)
    assert "written up in the report below" in analysis.inner_text()

    # Read afresh, nothing unfolded: the thread ends within 3.5 screens; the profile table shows once.
    nina.goto(f"{nina.server.url}/sessions/{session.pk}/")
    nina.locator(f"#msg-{latest['reviewer']}").wait_for()
    screenshot(nina, "thread-folds-4-rounds-1440")
    end = nina.evaluate("() => document.getElementById('thread').getBoundingClientRect().bottom + window.scrollY")
    page = nina.evaluate("() => document.documentElement.scrollHeight")
    print(f"the thread ends at {end:.0f} px ({end / SCREEN:.2f} screens); the page is {page} px ({page / SCREEN:.2f})")
    assert end <= 3.5 * SCREEN, f"the thread ends at {end:.0f} px, {end / SCREEN:.1f} screens"
    assert page <= 3.5 * SCREEN, f"the page is {page} px: the side column beside the thread is taller"
    assert nina.locator(f"xpath={PROFILE_TABLES}").count() == 1
    same = nina.locator("#thread p", has_text="The same table as in")
    assert same.count() >= 3
    # A link to the first table opens what folds it (Chromium opens a <details> a link points into).
    unfold(nina.locator(f"#msg-{latest['scribe']}"))
    same.last.get_by_role("link").click()
    assert nina.locator(f"xpath={PROFILE_TABLES}").is_visible()
    screenshot(nina, "thread-folds-the-first-profile-table-1440", whole=False)
    nina.goto(f"{nina.server.url}/sessions/{session.pk}/")
    nina.locator(f"#msg-{latest['reviewer']}").wait_for()

    # The written report, the current answer, opens with what changed: its answer is the answer card's,
    # at the top of the page; one click shows the rest, the answer first.
    written = nina.locator(f"#msg-{latest['scribe']}")
    assert not written.locator('section[data-section-id="s1"]').is_visible()  # the Answer
    assert nina.get_by_test_id("answer-card").is_visible()
    more = written.get_by_test_id("report-more")
    assert "More: Answer · Evidence" in more.locator("> summary").inner_text()
    more.locator("> summary .show").click()
    assert more.locator('section[data-section-id="s1"]').is_visible()
    screenshot(nina, "thread-folds-written-report-opened-1440", whole=False)

    # One click opens a folded version; its report reads as before.
    first = nina.locator(f"#msg-{replaced[0]} > details.fold")
    first.locator("> summary .show").click()
    assert first.get_attribute("open") is not None
    assert first.locator("header").get_by_role("button", name="Give feedback").is_visible()
    first.scroll_into_view_if_needed()
    screenshot(nina, "thread-folds-opened-1440", whole=False)
    nina.set_viewport_size({"width": 1024, "height": 768})
    nina.goto(f"{nina.server.url}/sessions/{session.pk}/")
    nina.locator(f"#msg-{latest['reviewer']}").wait_for()
    screenshot(nina, "thread-folds-4-rounds-1024")
    assert nina.console_errors == []


def _last_replaced(reports, sender: str) -> int:
    return [seq for seq, who in reports if who == sender][-2]
