"""What the browser tests that ask the analyst share: one server and one page per module."""

from pathlib import Path

import pytest

from tests.chromium import ARTIFACTS, open_page, sign_in
from tests.factories import make_user


@pytest.fixture(scope="module")
def browser_and_server(request, chromium, django_db_setup):
    """One server and one page for every case of a module (its PAGE_HEIGHT, 900 px unless it says);
    the server runs the agents unless the module's AGENTS_IN_PROCESS says "0" (its test runs them)."""
    from tests.live import DaphneServer

    server = DaphneServer(CHAP_AGENTS_IN_PROCESS=getattr(request.module, "AGENTS_IN_PROCESS", "1")).start()
    page = open_page(chromium, width=1440, height=getattr(request.module, "PAGE_HEIGHT", 900))
    try:
        yield page, server
    finally:
        page.context.close()
        server.stop()


@pytest.fixture
def nina(browser_and_server):
    """The analyst, signed in again: each case's database is flushed after it, her with it."""
    from agents.behaviours.registry import builtin_agents_ensure

    page, server = browser_and_server
    builtin_agents_ensure()
    make_user("nina")
    sign_in(page, server, "nina")
    page.server = server
    page.console_errors.clear()
    return page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed case shows its server's log and the page's console errors: what the page missed is
    often said there (a fragment that failed to render, a swap without a target)."""
    report = yield
    shared = item.funcargs.get("browser_and_server") if hasattr(item, "funcargs") else None
    if report.failed and call.when == "call" and shared is not None:
        page, server = shared
        report.sections.append(("server log", server.log_text()))
        if server.log is not None:  # the whole log, beside the screenshots
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"{item.name}-server.log").write_text(Path(server.log.name).read_text())
        page.screenshot(path=str(ARTIFACTS / f"{item.name}-failed.png"), full_page=True)
        (ARTIFACTS / f"{item.name}-failed.html").write_text(page.content())
        from sessions.models import Message

        log = Message.objects.order_by("session_id", "seq").values_list(
            "session_id", "seq", "payload_type", "sender_id"
        )
        (ARTIFACTS / f"{item.name}-messages.txt").write_text("\n".join(map(str, log)))
        report.sections.append(("console errors", "\n".join(map(str, getattr(page, "console_errors", [])))))
    return report
