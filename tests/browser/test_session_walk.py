"""A whole session as a team that reviews its analyses works, in Chromium: the plan is approved, a
figure is corrected on the *written* report, the analyst redoes it, the report is written again and
the review re-run, the thread and the map mark the current answer, the exports and the
retrospective name the written report; a new direction gets its answer and the deliverable keeps both
answers, answer first; a step that fails says so everywhere; and no id or raw time shows outside
technical details. Screenshots at 1440x900 and 1024x768 go to test-artifacts/."""

import re
import statistics

import pytest

from sessions.models import WorkSession
from tests.chromium import (
    give_feedback,
    off_the_browser_thread,
    open_page,
    reports_by,
    screenshot,
    sign_in,
    unfold,
    wait_for_count,
)
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]

LIVE = 40_000
FERTILISERS = ["none", "compost", "nitrate"]
# Plants grown with three fertilisers: the nitrate group is tallest, the unfertilised shortest.
HEIGHTS = {
    "none": [20.1, 21.4, 19.8, 22.0, 20.7, 21.1, 19.5, 20.9, 21.8, 20.2],
    "compost": [24.3, 25.1, 23.8, 26.0, 24.9, 25.4, 23.5, 24.7, 25.8, 24.1],
    "nitrate": [29.2, 30.5, 28.7, 31.1, 29.9, 30.2, 28.4, 29.6, 30.8, 29.0],
}
ALL = [h for group in FERTILISERS for h in HEIGHTS[group]]
SHOWN_IDS = re.compile(r"\btask\d+-report\b|\bmsg_[0-9a-f]{4,}|\bagent:[a-z]|\b\d{4}-\d\d-\d\dT\d\d:\d\d")


def text_outside_technical_details(page) -> str:
    """What a person reads on the page: its text without technical details, scripts and hidden parts."""
    return page.evaluate(
        """() => {
          const copy = document.body.cloneNode(true);
          copy.querySelectorAll('details.technical, script, style, template, [hidden]').forEach(e => e.remove());
          return copy.innerText;
        }"""
    )


def _failing_step(session_id):
    """A step given to an agent whose behaviour this workbench does not have: it can only fail."""
    from agents.models import Agent, AgentKind
    from agents.scheduling.acts import task_create
    from sessions.access import SYSTEM
    from sessions.membership import agent_join

    ghost = Agent.objects.create(name="ghost", kind=AgentKind.BUILTIN, behaviour="nowhere", roles=["charts"])
    session = WorkSession.objects.get(pk=session_id)
    agent_join(session=session, agent=ghost)
    return task_create(session_id=session_id, caller=SYSTEM, title="Draw the growth chart", agent="ghost")


def test_a_team_walks_a_session_from_plan_to_a_current_reviewed_answer(chromium, transactional_db, tmp_path):
    from agents.behaviours.registry import builtin_agents_ensure
    from tests.live import DaphneServer

    builtin_agents_ensure()
    make_user("nina")
    csv_path = tmp_path / "plants.csv"
    csv_path.write_text(
        "fertiliser,height_cm\n" + "".join(f"{g},{h}\n" for g in FERTILISERS for h in HEIGHTS[g]), encoding="utf-8"
    )
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    nina = open_page(chromium, width=1440, height=900)
    try:
        sign_in(nina, server, "nina")
        nina.get_by_role("link", name="New session").click()
        nina.get_by_label("Goal").fill("Which fertiliser grows the tallest plants? Compare the heights of the groups")
        nina.get_by_label("Kind of task").select_option(label="Data analysis")
        for agent in ("analyst", "scribe", "reviewer"):
            nina.get_by_label(agent).check()
        nina.get_by_label("Files to attach").set_input_files(str(csv_path))
        nina.get_by_role("button", name="Start the session").click()
        nina.wait_for_url("**/sessions/*-*/")
        session = WorkSession.objects.get(title__startswith="Which fertiliser")

        # The planner plans without asking which template, and the plan's gate closes once approved.
        plan = nina.locator("#thread article.kind-agent_capability_declaration")
        plan.wait_for(timeout=LIVE)
        assert nina.locator("#thread article.kind-clarification").count() == 0
        plan.get_by_role("button", name="Approve the plan").click()
        step = nina.locator('#approvals [data-gate-key^="step:"]:not(:has-text("once #"))')
        step.wait_for(timeout=LIVE)
        step.get_by_role("button", name="Approve").click()
        wait_for_count(nina, "reviewer", 1)
        written = reports_by(nina, "scribe").first
        assert "nitrate" in nina.get_by_test_id("answer-card").inner_text()  # the current answer, on top
        unfold(written)
        assert "nitrate" in written.inner_text()
        screenshot(nina, "walk-1-plan-analysis-report-review-1440")

        # A figure correction on the written report: the analyst redoes it, the report is written
        # again from the new figures and the review re-runs on the new version.
        give_feedback(nina, written, "Correct", "Use the sample standard deviation")
        for sender in ("analyst", "scribe", "reviewer"):
            wait_for_count(nina, sender, 2)
        rewritten = reports_by(nina, "scribe").nth(1)
        changed = rewritten.locator('section[data-section-id="what-changed"]').inner_text()
        assert "Written again from the analysis analyst redid" in changed
        assert "Use the sample standard deviation" in changed
        # the statistics, shown once per session: in the redone analysis, which the written report links
        assert "SD (sample)" in reports_by(nina, "analyst").nth(1).text_content()
        findings = reports_by(nina, "analyst").nth(1).locator('section[data-section-id="findings"]')
        assert "nitrate has the highest mean height" in " ".join(findings.text_content().split())  # written up, folded
        review = reports_by(nina, "reviewer").nth(1)
        # The review checked the answer against the question and says what it checked.
        assert "What was checked" in review.inner_text() and "No problems found. Checked:" in review.inner_text()
        review.scroll_into_view_if_needed()
        screenshot(nina, "walk-2-review-what-was-checked-1440", whole=False)
        # The thread marks the current answer and dims the versions it replaced.
        assert rewritten.get_by_test_id("current-answer").count() == 1
        assert written.get_by_test_id("superseded").count() == 1
        assert reports_by(nina, "analyst").first.get_by_test_id("superseded").count() == 1
        # So does the map: one current answer, the replaced results dimmed.
        current = nina.locator("#map-nodes .node.current")
        assert current.count() == 1 and "the current answer" in current.get_attribute("aria-label")
        assert nina.locator("#map-nodes .node.superseded").count() >= 2
        rewritten.scroll_into_view_if_needed()
        screenshot(nina, "walk-2-rewritten-and-reviewed-again-1440", whole=False)

        # A new direction gets its answer, in reply.
        analysis = reports_by(nina, "analyst").nth(1)
        unfold(analysis)  # written up: one line that opens
        give_feedback(nina, analysis, "New direction", "What is the median height of the plants given compost?")
        wait_for_count(nina, "analyst", 3)
        answer = reports_by(nina, "analyst").nth(2).locator('section[data-section-id="findings"]')
        assert f"{statistics.median(HEIGHTS['compost']):g}" in answer.text_content()
        assert "median" in answer.text_content().lower()

        # A step that cannot succeed fails, and says so.
        off_the_browser_thread(_failing_step, session_id=session.pk)
        problem = nina.locator("#thread article.kind-error").last
        problem.wait_for(timeout=LIVE)
        assert "Draw the growth chart" in problem.inner_text() or "ghost" in problem.inner_text()
        problem.scroll_into_view_if_needed()
        screenshot(nina, "walk-3-new-direction-and-a-failed-step-1440", whole=False)

        # The deliverable is the written report as it stands now, with its review; written again from
        # the new direction's answer, it opens with both questions' answers, then the evidence and method.
        wait_for_count(nina, "scribe", 3)
        nina.goto(f"{server.url}/sessions/{session.pk}/deliverable/")
        shown = nina.get_by_test_id("deliverable")
        deliverable = shown.inner_text()
        assert "Written again from the analysis" in deliverable and "reviewed by reviewer" in deliverable
        assert shown.locator("h2").first.inner_text() == "Answer"
        words = " ".join(deliverable.split())
        first, second = "nitrate has the highest mean height", "What is the median height of the plants given compost?"
        assert words.index(first) < words.index(f"Asked “{second}”") < words.index("Data and method")
        assert f"A new question: “{second}”" in words
        screenshot(nina, "walk-deliverable-answer-first-1440", whole=False)
        markdown = nina.request.get(f"{server.url}/api/sessions/{session.pk}/deliverable/").text()
        assert "by agent:scribe" in markdown and "## Review by reviewer" in markdown

        # At 1024x768 the page still reads in words: no ids or raw times outside technical details.
        nina.set_viewport_size({"width": 1024, "height": 768})
        nina.goto(f"{server.url}/sessions/{session.pk}/")
        nina.locator("#thread").wait_for()
        assert SHOWN_IDS.findall(text_outside_technical_details(nina)) == []
        nina.get_by_role("button", name="Fit").click()
        screenshot(nina, "walk-4-workspace-map-1024", whole=False)

        # Done: the retrospective names the written report and its review.
        nina.on("dialog", lambda dialog: dialog.accept())
        nina.get_by_role("button", name="Mark the session done").click()
        nina.get_by_test_id("state-label").get_by_text("Done").wait_for(timeout=LIVE)
        nina.goto(f"{server.url}/sessions/{session.pk}/retrospective/")
        delivered = nina.locator("section", has=nina.get_by_role("heading", name="Delivered")).inner_text()
        assert "The written report by scribe" in delivered and "reviewed by reviewer" in delivered
        screenshot(nina, "walk-5-retrospective-1024")
        assert nina.console_errors == []
    finally:
        nina.context.close()
        server.stop()
