"""A long session opens at its newest messages; "Show earlier messages" brings back the ones before,
in order above them, as many times as there are earlier pages, and then goes away. Screenshots in
test-artifacts/."""

import pytest
from django.contrib.auth.models import User

from tests.chromium import off_the_browser_thread, screenshot
from tests.factories import make_session
from tests.sessions.rounds import notes
from workspace.selectors import THREAD_PAGE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.processes,
    pytest.mark.django_db(transaction=True, databases=["default", "datasets"]),
]

AGENTS_IN_PROCESS = "0"  # nothing to answer: the notes are the thread
SHOWN = "#thread article[id^=msg-]"


def _shown_seqs(page) -> list[int]:
    return page.eval_on_selector_all(SHOWN, "articles => articles.map(a => Number(a.id.slice(4)))")


def test_the_earlier_messages_of_a_long_thread_load_above_the_newest(nina):
    session = make_session(owner=User.objects.get(username="nina"), title="A long week of findings")
    off_the_browser_thread(notes, session=session, count=THREAD_PAGE + 15)
    logged = list(session.messages.order_by("seq").values_list("seq", flat=True))
    nina.goto(f"{nina.server.url}/sessions/{session.pk}/")
    nina.locator("#thread").wait_for()
    assert _shown_seqs(nina) == logged[-THREAD_PAGE:]
    assert "finding number" in nina.locator(SHOWN).last.inner_text()

    while nina.locator("[data-testid=earlier]").count():
        before = len(_shown_seqs(nina))
        nina.locator("[data-testid=earlier]").click()
        nina.wait_for_function("([selector, n]) => document.querySelectorAll(selector).length > n", arg=[SHOWN, before])
    screenshot(nina, "long-thread-all-shown")
    assert _shown_seqs(nina) == logged  # every message once, oldest first
    assert nina.console_errors == []
