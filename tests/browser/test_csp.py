"""Every page sends a Content-Security-Policy, and Chromium reports no violation of it while a member
works: the workspace (map, thread, live socket, feedback), history, schedule and a new session."""

import pytest
from playwright.sync_api import expect

from tests.chromium import open_page, screenshot, session_with_a_report, sign_in
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]

# Each violation the browser reports, as a console error the test can read.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
});
document.addEventListener("htmx:wsOpen", () => { document.body.dataset.socketOpen = "yes"; });
"""


def violations(page):
    return [text for text in page.console_errors if "CSP violation" in text or "Content Security Policy" in text]


@pytest.fixture
def member(daphne_server, chromium):
    owner = make_user("olga")
    session = session_with_a_report(owner, title="Battery suppliers")
    page = open_page(chromium)
    page.add_init_script(REPORT_VIOLATIONS)
    sign_in(page, daphne_server, owner.username)
    yield {"page": page, "url": f"{daphne_server.url}/sessions/{session.pk}"}
    page.context.close()


def visit(page, url):
    response = page.goto(url)
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_pages_send_a_policy_and_break_none_of_it(member):
    page, url = member["page"], member["url"]

    visit(page, url + "/")
    page.locator("body[data-socket-open=yes]").wait_for()
    page.locator("#map-node-0").click()
    heading = page.get_by_test_id("node-details").locator("h2").first
    heading.wait_for()
    goal = heading.inner_text()  # read before Enter: a fast swap would otherwise be read as the old heading
    page.locator("#map-node-1").focus()
    page.keyboard.press("Enter")  # opens the node without an htmx trigger filter (those need eval)
    expect(heading).not_to_have_text(goal, timeout=30_000)
    report = page.locator("#thread article").last
    report.locator("header button", has_text="Give feedback").click()
    panel = page.get_by_test_id("feedback-panel")
    panel.get_by_label("Correct").check()
    panel.get_by_label("What should change").fill("Name the suppliers' countries")
    panel.get_by_role("button", name="Send feedback").click()
    panel.get_by_test_id("feedback-sent").wait_for()
    page.locator("#thread article", has_text="Name the suppliers' countries").wait_for()
    screenshot(page, "csp-1-workspace")

    visit(page, url + "/history/")
    page.locator("#history-seq").fill("1")
    expect(page.locator("#history-seq-value")).to_have_text("#1")
    screenshot(page, "csp-2-history")

    visit(page, url + "/schedule/")
    page.locator("body[data-socket-open=yes]").wait_for()
    screenshot(page, "csp-3-schedule")

    visit(page, url.rsplit("/", 1)[0] + "/new/")
    screenshot(page, "csp-4-new-session")

    assert violations(page) == [], violations(page)


def test_the_sign_in_page_a_missing_page_and_the_api_docs_keep_the_policy_too(member):
    page, url = member["page"], member["url"]
    site = url.rsplit("/", 2)[0]
    visit(page, site + "/accounts/login/")
    page.get_by_label("Username").wait_for()
    visit(page, site + "/sessions/not-a-uuid/")
    page.get_by_test_id("error-page").wait_for()
    visit(page, site + "/api/docs/")  # Swagger UI: its init script from a URL, its page without inline style
    page.locator(".swagger-ui .opblock").first.wait_for()
    assert violations(page) == [], violations(page)


def test_a_drawn_chart_a_hostile_chart_and_an_aligned_table_break_none_of_it(daphne_server, chromium):
    """The chart's image comes from its own URL (img-src 'self'), the hostile one is the plain "too
    large" figure, and the table's alignment is a class: no style attribute for the CSP to refuse."""
    import uuid

    from tests.charts import HOSTILE, NORMAL, TOO_LARGE, charts_text
    from tests.chromium import off_the_browser_thread
    from tests.factories import agent_in, make_session, post_message
    from tests.sessions import envelopes

    owner = make_user("olga")
    session = make_session(owner=owner, title="Charts")
    payload = envelopes.response(sections=())["payload"]
    normal = NORMAL | {"title": f"Cases by region {uuid.uuid4()}"}  # drawn now, whatever an earlier run kept
    payload["content"]["body"] = charts_text(normal, HOSTILE["impute, a string stop"])
    analyst = off_the_browser_thread(agent_in, session=session)
    off_the_browser_thread(post_message, session=session, caller=analyst, factory=envelopes.envelope,
                           message_id="r1", payload_type="collaborative_response", payload=payload)  # fmt: skip
    page = open_page(chromium)
    page.add_init_script(REPORT_VIOLATIONS)
    sign_in(page, daphne_server, owner.username)
    visit(page, f"{daphne_server.url}/sessions/{session.pk}/")
    report = page.locator("#thread article.kind-collaborative_response").last
    image = report.get_by_test_id("chart").locator("img")
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=image.element_handle())  # drawn
    expect(image).to_have_attribute("alt", "Bar chart of cases by region")
    expect(report.get_by_test_id("chart-too-large")).to_contain_text(TOO_LARGE)
    assert report.locator("td.align-right").first.evaluate("cell => getComputedStyle(cell).textAlign") == "right"
    report.get_by_test_id("chart").scroll_into_view_if_needed()
    screenshot(page, "csp-5-charts", whole=False)
    assert violations(page) == [], violations(page)
    page.context.close()
