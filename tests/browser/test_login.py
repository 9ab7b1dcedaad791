import pytest

from tests.chromium import screenshot
from tests.factories import PASSWORD, make_session, make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]


def test_a_user_signs_in_and_sees_the_sessions_page(daphne_server, page):
    user = make_user("analyst")
    make_session(owner=user, title="Competitor landscape")
    page.goto(daphne_server.url + "/")
    page.get_by_label("Username").fill("analyst")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/sessions/")
    assert page.get_by_role("heading", name="Your sessions").is_visible()
    assert page.get_by_role("link", name="Competitor landscape").is_visible()
    assert page.get_by_test_id("current-user").inner_text() == "analyst"
    screenshot(page, "login-sessions-page")
    assert page.console_errors == []
