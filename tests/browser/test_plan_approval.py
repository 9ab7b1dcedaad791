"""The thread's Approve button in a real browser: the plan's steps are tasks as soon as the page says it
is approved (no worker runs here: the approval makes them), once; the same browser's second decision,
over REST or through the feedback panel, is refused with ALREADY_DECIDED."""

import pytest

from tests.chromium import off_the_browser_thread, open_page, screenshot, sign_in
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = [pytest.mark.browser, pytest.mark.processes]
WAIT = 60_000


def proposed(owner):
    session = make_session(owner=owner, title="Regional sales")
    planner = agent_in(session, "planner")
    post_message(session, planner, envelopes.declaration, steps=2, message_id="d1")
    return session


def plan_steps(session):
    from agents.models import Task
    from sessions.models import Message

    tasks = Task.objects.filter(session=session, source_message_id="d1").order_by("plan_step")
    events = Message.objects.filter(session=session, payload_type="task_event")
    created = sum(event.envelope["payload"]["action"] == "created" for event in events)
    return [(task.plan_step, task.title) for task in tasks], created


def test_the_approve_button_makes_the_steps_once_and_a_second_decision_is_refused(daphne_server, chromium):
    owner = make_user("olga")
    session = off_the_browser_thread(proposed, owner=owner)
    page = open_page(chromium)
    try:
        sign_in(page, daphne_server, "olga")
        page.goto(f"{daphne_server.url}/sessions/{session.pk}/")
        plan = page.locator("#thread article.kind-agent_capability_declaration")
        plan.get_by_role("button", name="Approve the plan").click()
        plan.get_by_test_id("decided").wait_for(timeout=WAIT)
        assert plan.get_by_test_id("decided").inner_text().startswith("Approved by olga")
        screenshot(page, "plan-approval-1-approved-by-the-button")
        assert off_the_browser_thread(plan_steps, session=session) == ([(1, "step 1"), (2, "step 2")], 2)

        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        headers = {"X-CSRFToken": token, "Referer": daphne_server.url + "/"}
        again = page.request.post(f"{daphne_server.url}/api/sessions/{session.pk}/plans/d1/accept/", headers=headers)
        assert again.status == 409 and again.json()["error"]["code"] == "ALREADY_DECIDED"
        panel = page.request.post(
            f"{daphne_server.url}/sessions/{session.pk}/feedback/",
            headers=headers,
            form={"target_message_id": "d1", "feedback_type": "approval"},
        )
        assert "olga approved this already" in panel.text()
        assert off_the_browser_thread(plan_steps, session=session) == ([(1, "step 1"), (2, "step 2")], 2)
        assert page.console_errors == []
    finally:
        page.context.close()
