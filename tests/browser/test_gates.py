"""Gates in a real browser: a plan whose third step needs approval runs to its gate; the gate shows in
two members' workspaces and on their scheduling cards; one approves it from the workspace and the
reviewer's response arrives live in both; a colleague in a group the session is shared with finds it
on the team page, reads its history, and cannot write."""

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from sessions.access import caller_for_user
from tests.chromium import off_the_browser_thread, open_page, screenshot, sign_in
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]
SALES = "region,amount\n" + "".join(f"{r},{n}\n" for n, r in enumerate(["north", "south", "east"] * 10))
WAIT = 60_000


def start_session(owner, editor):
    from agents.models import Agent
    from agents.operations.uploads import stage
    from agents.staffing import session_start
    from sessions.membership import member_add, session_share

    agents = Agent.objects.filter(name__in=["planner", "analyst", "scribe", "reviewer"])
    session = session_start(
        owner=owner,
        title="Regional sales",
        proposal={"goal": "Analyse the attached sales CSV: compare the regions", "constraints": {"audience": "sales"}},
        agents=list(agents),
        files=[("sales.csv", stage([SALES.encode()]))],
    )
    member_add(session=session, user=editor, role="editor")
    session_share(session_id=session.pk, caller=caller_for_user(owner), group="finance", role="viewer")
    return session


def test_a_gate_is_approved_live_and_a_shared_team_reads_the_history(chromium, transactional_db):
    from agents.behaviours.registry import builtin_agents_ensure
    from tests.live import DaphneServer

    builtin_agents_ensure()
    owner, editor, reader = make_user("olga"), make_user("ed"), make_user("fin")
    Group.objects.create(name="finance").user_set.add(reader)
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    contexts = []
    try:
        session = off_the_browser_thread(start_session, owner=owner, editor=editor)
        pages = {}
        for user in (owner, editor):
            workspace = open_page(chromium)
            contexts.append(workspace.context)
            sign_in(workspace, server, user.username)
            workspace.goto(f"{server.url}/sessions/{session.pk}/")
            board = workspace.context.new_page()
            board.console_errors = []
            board.goto(f"{server.url}/sessions/{session.pk}/schedule/")
            pages[user.username] = (workspace, board)
        (olga, olga_board), (ed, ed_board) = pages["olga"], pages["ed"]

        plan = olga.locator('#approvals [data-gate-key^="plan:"]')
        plan.wait_for(timeout=WAIT)
        ed.locator('#approvals [data-gate-key^="plan:"]').wait_for(timeout=WAIT)
        assert "step 3 will wait for approval again" in plan.inner_text()
        screenshot(olga, "gates-1-plan-waits-in-the-panel")
        plan.get_by_role("button", name="Approve").click()

        for page in (olga, ed):
            page.locator('#approvals [data-gate-key^="step:"]').wait_for(timeout=WAIT)
        for board in (olga_board, ed_board):
            card = board.locator('.task [data-gate-key^="step:"]')
            card.wait_for(timeout=WAIT)
            assert "waiting for approval" in card.inner_text() and "waitingapproval" not in board.content()
        # The steps before it run to the gate: the item stops saying it waits for them, live.
        ready = '#approvals [data-gate-key^="step:"]:not(:has-text("once #"))'
        for page in (olga, ed):
            page.locator(ready).wait_for(timeout=WAIT)
        gate = olga.locator('#approvals [data-gate-key^="step:"]')
        assert "Review the report against the data" in gate.inner_text()
        assert "reviewer runs" in gate.inner_text() and "with #" in gate.inner_text()
        screenshot(olga, "gates-2-step-at-its-gate-workspace")
        screenshot(ed_board, "gates-3-step-at-its-gate-scheduling-card")

        gate.get_by_role("button", name="Approve").click()
        reviewed = '#thread article.from-agent:has(header strong:text-is("reviewer"))'
        for page in (olga, ed):
            page.locator(reviewed).first.wait_for(timeout=WAIT)
            assert page.locator('#approvals [data-gate-key^="step:"]').count() == 0
        ed_board.locator('.task [data-gate-key^="step:"]').wait_for(state="detached", timeout=WAIT)
        screenshot(ed, "gates-4-reviewer-response-live-for-the-editor")
        screenshot(ed_board, "gates-5-scheduling-after-approval")

        fin = open_page(chromium)
        contexts.append(fin.context)
        sign_in(fin, server, "fin")
        fin.get_by_role("link", name="Review past sessions").click()
        row = fin.get_by_test_id("review-results").locator("tr", has_text="Regional sales")
        assert "shared with finance" in row.inner_text() and "Viewer" in row.inner_text()
        screenshot(fin, "gates-6-team-page-lists-the-shared-session")
        row.get_by_role("link", name="History").click()
        fin.wait_for_url("**/history/")
        assert fin.get_by_text("shared the session with finance as viewers").count() > 0
        screenshot(fin, "gates-7-shared-team-reads-the-history")
        fin.goto(f"{server.url}/sessions/{session.pk}/")
        assert fin.get_by_test_id("feedback-panel").count() == 0
        screenshot(fin, "gates-8-shared-team-reads-the-workspace")
        assert fin.locator("#approvals form, #thread form").count() == 0
        assert fin.get_by_test_id("approvals").get_by_role("button").count() == 0
        token = next(c["value"] for c in fin.context.cookies() if c["name"] == "csrftoken")
        refused = fin.request.post(
            f"{server.url}/api/sessions/{session.pk}/checkpoints/",
            data={"label": "mine"},
            headers={"X-CSRFToken": token, "Referer": server.url + "/"},
        )
        assert refused.status == 403 and refused.json()["error"]["code"] == "PERMISSION_DENIED"
        for page in (olga, ed, olga_board, ed_board, fin):
            assert page.console_errors == []
    finally:
        for context in contexts:
            context.close()
        server.stop()


def start_failing_session(owner):
    from agents.models import Agent
    from agents.staffing import session_start

    Agent.objects.create(name="crasher", kind="builtin", roles=["analysis"], behaviour="broken")
    agents = Agent.objects.filter(name__in=["planner", "crasher", "scribe", "reviewer"])
    return session_start(
        owner=owner, title="Numbers", proposal={"goal": "Make our numbers better"}, agents=list(agents)
    )


def test_decided_gates_close_a_failed_step_shows_everywhere_and_reassigning_asks(chromium, transactional_db):
    from agents.behaviours.registry import builtin_agents_ensure
    from tests.live import DaphneServer

    builtin_agents_ensure()
    owner = make_user("olga")
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1", CHAP_BEHAVIOURS="broken=tests.agents.behaviours.broken").start()
    page = open_page(chromium)
    try:
        session = off_the_browser_thread(start_failing_session, owner=owner)
        sign_in(page, server, "olga")
        page.goto(f"{server.url}/sessions/{session.pk}/")
        asked = page.locator("#thread article.kind-clarification")
        asked.locator("button.option").first.wait_for(timeout=WAIT)
        asked.locator("button.option", has_text="data analysis").click()
        asked.get_by_test_id("decided").wait_for(timeout=WAIT)
        assert asked.get_by_test_id("decided").inner_text().startswith("Answered by olga")
        assert asked.locator("form, button.option, input").count() == 0
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        headers = {"X-CSRFToken": token, "Referer": server.url + "/"}
        message_id = asked.get_attribute("data-message-id")
        again = page.request.post(f"{server.url}/api/sessions/{session.pk}/waiting/decide/", headers=headers,
                                  data={"key": f"question:{message_id}", "decision": "answer", "reason": "no"})  # fmt: skip
        assert again.status == 409 and again.json()["error"]["message"].startswith("olga answered this already")

        plan = page.locator("#thread article.kind-agent_capability_declaration")
        plan.get_by_role("button", name="Approve the plan").click()
        plan.get_by_test_id("decided").wait_for(timeout=WAIT)
        assert plan.get_by_test_id("decided").inner_text().startswith("Approved by olga")
        assert plan.get_by_role("button", name="Approve the plan").count() == 0
        asked.scroll_into_view_if_needed()
        screenshot(page, "gates-9-answered-question-and-approved-plan-closed")

        page.get_by_test_id("agent-failed").wait_for(timeout=WAIT)
        assert page.get_by_test_id("agent-failed").inner_text().startswith("failed: “Import the data")
        # the state card is its own live fragment: it may land a moment after the agent's status
        expect(page.get_by_test_id("state-label")).to_have_text("A step failed", timeout=WAIT)
        report = page.get_by_test_id("problem-report")
        assert "crasher could not finish step 1 of the plan" in report.inner_text()
        assert "KeyError" not in report.inner_text() and "Traceback" not in page.content()
        page.evaluate("() => document.getElementById('session-state').scrollIntoView()")  # redrawn live: no handle
        screenshot(page, "gates-10-failed-step-on-status-bar-state-card-and-thread")

        page.goto(f"{server.url}/sessions/{session.pk}/schedule/")
        failed = page.locator(".lane[data-lane=crasher] .task.state-failed")
        assert failed.get_by_test_id("task-failure").inner_text().startswith("Failed: it stopped on an unexpected")
        failed.get_by_role("button", name="Retry").click()
        page.locator("#schedule-board .error").wait_for(timeout=WAIT)
        assert "would fail the same way" in page.locator("#schedule-board .error").inner_text()
        screenshot(page, "gates-11-failed-card-and-a-refused-retry")

        page.set_viewport_size({"width": 1366, "height": 1800})  # both lanes in view: a drag does not scroll
        review = page.locator(".lane[data-lane=reviewer] .task", has_text="Review the report")
        review.locator("p strong").first.drag_to(page.locator(".lane[data-lane=scribe] h3").first)
        confirm = page.get_by_test_id("confirm-reassign")
        confirm.wait_for(timeout=WAIT)
        assert "scribe does not do review" in confirm.inner_text()
        assert page.locator(".lane[data-lane=reviewer] .task", has_text="Review the report").count() == 1
        screenshot(page, "gates-12-reassigning-a-review-to-the-writer-asks-first")
        confirm.get_by_role("button", name="Give it to scribe anyway").click()
        page.locator(".lane[data-lane=scribe] .task", has_text="Review the report").wait_for(timeout=WAIT)

        page.goto(f"{server.url}/sessions/")
        assert "A step failed" in page.locator("tr", has_text="Numbers").inner_text()
        screenshot(page, "gates-13-sessions-list-says-a-step-failed")
        assert page.console_errors == []
    finally:
        page.context.close()
        server.stop()
