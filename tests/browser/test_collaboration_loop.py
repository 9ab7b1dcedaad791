"""The collaboration loop in a real browser, with two members: a plan step nobody can take is reported
and fixed by inviting an agent; a member is added from the session page; a correction of the SD kind
and an answer to the outlier question each change the figures they should (checked against the
statistics module), "What changed" is in the thread, and answered questions stay closed; the page
passes axe-core with no serious or critical violation and has no horizontal scrollbar at 1024 px."""

import statistics

import pytest
from axe_playwright_python.sync_playwright import Axe

from sessions.models import WorkSession
from tests.chromium import open_page, screenshot, sign_in, unfold
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]

# Forty ordinary prices and two far away: both lie more than 3 SDs from the mean of all 42.
PRICES = [10 + (i % 7) for i in range(40)] + [400.0, 450.0]
REGIONS = ["north" if i % 2 else "south" for i in range(len(PRICES))]
KEPT = [p for p in PRICES if p < 400]
LIVE = 30_000


def two(value: float) -> str:
    return str(round(value, 2))


def analyst_reports(page):
    reports = page.locator("#thread article.kind-collaborative_response")
    return reports.filter(has=page.locator("header strong", has_text="analyst"))


def price_row(report) -> list[str]:
    """The price row of a report's statistics table: column, n, mean, SD, min, max, sum, outliers."""
    table = report.locator('section[data-section-id$="-statistics"] table')
    row = table.locator("tr", has=report.page.locator("td", has_text="price")).first
    return [cell.strip() for cell in row.locator("td").all_text_contents()]  # shown or folded


def wait_for_reports(page, count: int):
    page.wait_for_function(
        """n => [...document.querySelectorAll('#thread article.kind-collaborative_response')]
              .filter(a => a.querySelector('header strong').textContent.trim() === 'analyst').length >= n""",
        arg=count,
        timeout=LIVE,
    )
    return analyst_reports(page).nth(count - 1)


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def wider_than_the_window(page) -> list[str]:
    """The elements that reach past the window's right edge (none: no horizontal scrollbar)."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth <= width) return [];
          return [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > width + 1)
            .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
        }"""
    )


def no_horizontal_scrollbar(page) -> bool:
    return not wider_than_the_window(page)


def test_the_collaboration_loop_with_two_members(chromium, transactional_db, tmp_path):
    from agents.behaviours.registry import builtin_agents_ensure
    from tests.live import DaphneServer

    builtin_agents_ensure()
    make_user("nina")
    make_user("ed")
    csv_path = tmp_path / "sales.csv"
    csv_path.write_text("region,price\n" + "".join(f"{r},{p}\n" for r, p in zip(REGIONS, PRICES, strict=True)))
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    contexts = []
    try:
        nina, ed = open_page(chromium, width=1024, height=800), open_page(chromium, width=1024, height=800)
        contexts += [nina.context, ed.context]
        sign_in(nina, server, "nina")
        nina.get_by_role("link", name="New session").click()
        nina.get_by_label("Goal").fill("Analyse the attached sales CSV: compare the prices of the regions")
        nina.get_by_label("Kind of task").select_option(label="Data analysis")
        assert nina.get_by_label("analyst").is_checked() and nina.get_by_label("scribe").is_checked()
        nina.get_by_label("scribe").uncheck()  # she leaves the writer out: the writing step has nobody
        nina.get_by_label("Files to attach").set_input_files(str(csv_path))
        screenshot(nina, "loop-1-new-session")
        nina.get_by_role("button", name="Start the session").click()
        nina.wait_for_url("**/sessions/*-*/")
        session = WorkSession.objects.get(title__startswith="Analyse the attached sales CSV")

        # The plan says which step nobody can take, and the state card says the session waits.
        plan = nina.locator("#thread article.kind-agent_capability_declaration")
        plan.wait_for(timeout=LIVE)
        stall = plan.locator('[data-testid=uncovered-role][data-role="writing"]')
        assert "Nobody here does writing" in stall.inner_text()
        assert nina.get_by_test_id("state-label").inner_text() == "Waiting for you"
        assert "similarity" not in plan.inner_text() and "capability declaration" not in nina.content()

        # The owner adds a member from the session page; the member opens it.
        people = nina.get_by_test_id("members")
        people.locator("summary").click()  # the people fold to a line beside the thread
        people.get_by_label("Username").fill("ed")
        people.get_by_label("Role").select_option("editor")
        people.get_by_role("button", name="Add to the session").click()
        nina.get_by_test_id("member-added").wait_for()
        assert "ed" in nina.get_by_test_id("members").inner_text()
        sign_in(ed, server, "ed")
        ed.goto(f"{server.url}/sessions/{session.pk}/")
        ed.locator("#thread article.kind-agent_capability_declaration").wait_for()
        screenshot(nina, "loop-2-plan-with-a-stalled-step")

        nina.get_by_role("button", name="Approve the plan").click()
        first = wait_for_reports(ed, 1)
        row = price_row(first)
        assert row[2:4] == [two(statistics.fmean(PRICES)), two(statistics.pstdev(PRICES))]
        assert row[7] == "2 kept: 400.0 and 450.0"
        assert "SD (population)" in first.text_content()

        # The writing step waits for an agent; inviting one from the plan gives it the step.
        for page in (nina, ed):
            page.get_by_test_id("waiting-list").get_by_text("needs an agent that does writing").wait_for(timeout=LIVE)
        stall.get_by_label("Invite").select_option("scribe")
        stall.get_by_role("button", name="Invite the agent").click()
        nina.get_by_test_id("agent-invited").wait_for(timeout=2 * LIVE)  # the invite runs the agent's step
        ed.locator('#thread [data-testid=uncovered-role][data-role="writing"]').wait_for(state="detached", timeout=LIVE)
        brief = ed.locator("#thread article.kind-collaborative_response").filter(
            has=ed.locator("header strong", has_text="scribe")
        )
        brief.first.wait_for(timeout=LIVE)
        screenshot(ed, "loop-3-the-invited-writer-took-the-step")

        # A correction of the SD kind: the SD becomes the sample SD, and the thread says what changed.
        mine = wait_for_reports(nina, 1)
        unfold(mine)  # written up by now: one line, and its statistics below its lead
        mine.locator('section[data-section-id$="-statistics"] h4 button', has_text="Give feedback").click()
        panel = nina.get_by_test_id("feedback-panel")
        panel.get_by_label("Correct").check()
        panel.get_by_label("What should change").fill("Use the sample standard deviation")
        panel.get_by_role("button", name="Send feedback").click()
        assert "is in the thread as #" in panel.get_by_test_id("feedback-sent").inner_text()
        second = wait_for_reports(ed, 2)
        row = price_row(second)
        assert row[3] == two(statistics.stdev(PRICES)) and row[2] == two(statistics.fmean(PRICES))
        changed = second.locator('section[data-section-id="what-changed"]').text_content()
        assert "What changed" in changed
        assert two(statistics.pstdev(PRICES)) in changed and two(statistics.stdev(PRICES)) in changed
        screenshot(ed, "loop-4-what-changed-after-the-sd-correction")

        # The answer to the outlier question leaves the two values out; the question stays closed.
        wait_for_reports(nina, 2)
        unfold(analyst_reports(nina).first)  # the question is asked in the first report, replaced by now
        question = nina.locator("#thread li.question:not(.answered)", has_text="450.0").first
        question.get_by_label("Your answer").fill("Yes, leave them out")
        question.get_by_role("button", name="Answer").click()
        # The question closes live, with its answer, on the page that answered it.
        nina.locator("#thread li.question.answered", has_text="450.0").first.wait_for(timeout=LIVE)
        third = wait_for_reports(ed, 3)
        row = price_row(third)
        assert row[1:4] == [str(len(KEPT)), two(statistics.fmean(KEPT)), two(statistics.stdev(KEPT))]
        assert row[7] == "2 left out: 400.0 and 450.0"
        assert "What changed" in third.locator('section[data-section-id="what-changed"]').text_content()
        assert third.locator("li.question", has_text="450.0").count() == 0  # never asked again
        assert nina.locator("#thread li.question:not(.answered)", has_text="450.0").count() == 0
        ed.reload()
        wait_for_reports(ed, 3)
        answered = ed.locator("#thread li.question", has_text="450.0").first
        assert "answered" in answered.get_attribute("class") and "Yes, leave them out" in answered.text_content()
        assert answered.locator("form").count() == 0
        screenshot(ed, "loop-5-the-answered-question-stays-closed")

        # The page reads well for everyone: axe-core finds nothing serious, nothing wider than 1024 px.
        nina.reload()
        nina.locator("#thread").wait_for()
        assert serious_violations(nina) == []
        assert wider_than_the_window(nina) == [] and wider_than_the_window(ed) == []
        screenshot(nina, "loop-6-workspace-at-1024")

        # Marking the session done asks first while questions are open, and every member sees it.
        asked = []
        nina.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        still_open = nina.locator("#session-state form").get_attribute("hx-confirm")
        nina.get_by_role("button", name="Mark the session done").click()
        ed.get_by_test_id("state-label").get_by_text("Done").wait_for(timeout=LIVE)
        assert asked == ([still_open] if still_open else [])
        screenshot(ed, "loop-7-done-for-every-member")
        assert nina.console_errors == [] and ed.console_errors == []
    finally:
        for context in contexts:
            context.close()
        server.stop()


def _two_agents_with_a_task_each():
    from agents.scheduling.acts import task_create
    from sessions.access import caller_for_user
    from sessions.membership import agent_join
    from tests.factories import make_agent, make_session

    olga, ed = make_user("olga"), make_user("ed")
    session = make_session(owner=olga, title="Priorities", members={ed: "editor"})
    for name in ("finder", "author"):
        agent_join(session=session, agent=make_agent(name, kind="external", roles=["research"]))
    owner = caller_for_user(olga)
    task = task_create(session_id=session.pk, caller=owner, title="Collect sources", agent="finder")
    task_create(session_id=session.pk, caller=owner, title="Draft", agent="author")
    return session, owner, task


def test_a_live_board_refresh_keeps_a_priority_being_typed_and_pausing_an_agent_shows(daphne_server, chromium):
    from tests.chromium import off_the_browser_thread

    session, _, task = off_the_browser_thread(_two_agents_with_a_task_each)
    olga, ed = open_page(chromium, width=1024, height=800), open_page(chromium, width=1024, height=800)
    try:
        for page, name in ((olga, "olga"), (ed, "ed")):
            sign_in(page, daphne_server, name)
            page.goto(f"{daphne_server.url}/sessions/{session.pk}/schedule/")
        priority = ed.locator(f"#task-{task.pk} input[name=priority]")
        priority.fill("7")  # typed, not saved: focus stays in the field
        olga.get_by_role("button", name="Pause author here").click()
        for page in (olga, ed):
            page.locator('section[data-lane="author"] [data-testid=lane-paused]').wait_for(timeout=LIVE)
        assert priority.input_value() == "7"
        assert ed.evaluate("document.activeElement.name") == "priority"
        assert olga.get_by_role("button", name="Resume author here").is_visible()
        screenshot(ed, "loop-8-board-refreshed-around-a-typed-priority")
        assert no_horizontal_scrollbar(ed) and ed.console_errors == [] and olga.console_errors == []
    finally:
        olga.context.close()
        ed.context.close()
