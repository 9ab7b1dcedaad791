"""Playwright driving Debian's Chromium, as DEVELOPERS.md prescribes."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def require_chromium() -> None:
    """Skip visibly without Chromium on a developer's machine; in CI a missing browser is a failure."""
    if shutil.which(CHROMIUM) or os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing in CI; .ci/run installs Debian's chromium")
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium to run browser tests")


def screenshot(page, name: str, *, whole: bool = True) -> None:
    """The page saved in test-artifacts/: all of it, or (``whole=False``) what the window shows."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=whole)


def open_page(browser, *, width: int = 1366, height: int = 900):
    """A page in a context of its own (its own cookies: one user), collecting console errors in
    ``page.console_errors``."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.console_errors = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    return page


def sign_in(page, server, username: str) -> None:
    from tests.factories import PASSWORD

    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/sessions/")


def off_the_browser_thread(function, /, **kwargs):
    """Call ``function`` in another thread: Playwright's event loop runs in this one, and a service's
    broadcast after commit needs a loop of its own."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, **kwargs).result()


def session_with_a_report(owner, **fields):
    """A session of ``owner`` with a task proposal and the analyst's report on it, posted off the
    browser's thread (``fields`` go to make_session: a title, members)."""
    from sessions.access import caller_for_user
    from tests.factories import agent_in, make_session, post_message
    from tests.sessions import envelopes

    session = make_session(owner=owner, **fields)
    analyst = off_the_browser_thread(agent_in, session=session)
    for factory, message_id, reply, caller in (
        (envelopes.proposal, "t", None, caller_for_user(owner)),
        (envelopes.response, "r1", "t", analyst),
    ):
        off_the_browser_thread(
            post_message, session=session, caller=caller, factory=factory, message_id=message_id, in_reply_to=reply
        )
    return session


def start_analysis(page, server_url: str, goal: str, csv_path) -> None:
    """A data-analysis session started from the New session page with ``csv_path`` (a path, or a list of
    them) attached; the page is the new session's when this returns."""
    page.goto(server_url + "/sessions/")
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Goal").fill(goal)
    page.get_by_label("Kind of task").select_option(label="Data analysis")
    paths = csv_path if isinstance(csv_path, list) else [csv_path]
    page.get_by_label("Files to attach").set_input_files([str(path) for path in paths])
    page.get_by_role("button", name="Start the session").click()
    page.wait_for_url("**/sessions/*-*/")


def approve_the_plan(page, timeout_ms: int = 30_000) -> None:
    """Approve the planner's plan from the thread of a session page just opened (it comes live)."""
    page.get_by_role("button", name="Approve the plan").click(timeout=timeout_ms)


def session_of_four_rounds(owner):
    """The demo session (agents.demo: the plan, the analysis, the written report and its review, then
    a correction on the analysis redone by all three) and a third round: a new direction on the
    analysis, answered. ``next_round`` adds the fourth. Built with the services a browser uses."""
    from agents.behaviours.registry import builtin_agents_ensure
    from agents.demo import demo_seed

    session = demo_seed(owner=owner, agents=builtin_agents_ensure())
    next_round(session, owner, "analyst", "new_direction", "What is the median petal width of each species?")
    return session


def next_round(session, owner, sender: str, feedback_type: str, text: str) -> None:
    """``owner``'s feedback on the latest report of ``sender``, and the agents' work on it until none is left."""
    from agents.behaviours.registry import builtin_agents_ensure
    from agents.worker import Worker
    from sessions.access import caller_for_user
    from sessions.log import message_post_at_head

    report = session.messages.filter(payload_type="collaborative_response", sender_id=sender).order_by("-seq").first()
    message_post_at_head(
        session_id=session.pk,
        caller=caller_for_user(owner),
        payload_type="human_feedback",
        payload={
            "target_message_id": report.message_id,
            "feedback_type": feedback_type,
            "specific_instructions": {"request": text},
        },
        in_reply_to=report.message_id,
    )
    worker = Worker("rounds", agent_ids=[agent.pk for agent in builtin_agents_ensure()])
    while worker.run_once():
        pass


def unfold(report) -> None:
    """Open a report of the thread as a person would: its one line if it is folded (a version replaced,
    an analysis written up), then the rest of the report below its lead. A write-up arriving live folds
    the report again, as it should: then it is opened again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(3):
        try:
            for show in ("> details.fold:not([open]) > summary .show", "details.more:not([open]) > summary .show"):
                line = report.locator(show)
                if line.count():
                    line.first.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the report folded again each time it was opened")


def shown_in(report, target) -> None:
    """Open ``report`` until ``target`` inside it shows: a write-up arriving live may fold it again between
    opening it and using what it holds, as it should; a person opens it again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(4):
        unfold(report)
        try:
            target.wait_for(state="visible", timeout=3_000)
            return
        except PlaywrightTimeout:  # folded again while it was opened: open it once more
            continue
    raise AssertionError("the report folded again each time it was opened")


def used_in(report, target, use) -> None:
    """``use(target)`` (a hover, a click) once ``target`` shows in ``report``, opened again as often as a
    write-up arriving live folds it in between (each try's ``use`` takes a timeout of 5 s)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(4):
        shown_in(report, target)
        try:
            use(target)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the report folded again each time it was used")


UNDRAWN_LABELS = """() => Array.from(document.querySelectorAll('#map-nodes .node tspan')).filter((t) => {
  const r = t.getBoundingClientRect();
  return !(r.width > 0 && r.height > 0);
}).length"""


def labels_undrawn(page) -> int:
    """How many of the map's label lines are not drawn (no box on screen)."""
    return page.evaluate(UNDRAWN_LABELS)


def reports_by(page, sender: str):
    """The reports of ``sender`` in the thread, oldest first."""
    return page.locator("#thread article.kind-collaborative_response").filter(
        has=page.locator("header strong", has_text=sender)
    )


def wait_for_count(page, sender: str, count: int, timeout_ms: int = 40_000) -> None:
    """Until the thread holds ``count`` reports (or more) of ``sender``, as they come live."""
    page.wait_for_function(
        """([who, n]) => [...document.querySelectorAll('#thread article.kind-collaborative_response')]
              .filter(a => a.querySelector('header strong').textContent.trim() === who).length >= n""",
        arg=[sender, count],
        timeout=timeout_ms,
    )


def give_feedback(page, report, kind: str, text: str, timeout_ms: int = 40_000) -> None:
    """Feedback of ``kind`` (the panel's label: Correct, New direction…) on ``report`` from its header, sent."""
    report.locator("header button", has_text="Give feedback").click()
    panel = page.get_by_test_id("feedback-panel")
    panel.get_by_label(kind).check()
    panel.get_by_label("What should change").fill(text)
    panel.get_by_role("button", name="Send feedback").click()
    panel.get_by_test_id("feedback-sent").wait_for(timeout=timeout_ms)
