"""The workspace in a real browser: the decision map, node details, the heatmap, and live updates
arriving in a second member's browser."""

import json
import urllib.request

import pytest

from agents.tokens import token_issue
from sessions.membership import agent_join
from sessions.models import WorkSession
from tests.chromium import (
    off_the_browser_thread,
    open_page,
    screenshot,
    session_with_a_report,
    sign_in,
    unfold,
    used_in,
)
from tests.factories import make_agent, make_session, make_user
from tests.sessions import envelopes

pytestmark = [pytest.mark.browser, pytest.mark.processes]


@pytest.fixture
def shared(daphne_server, chromium):
    owner, editor = make_user("olga"), make_user("ed")
    session = session_with_a_report(owner, title="Battery suppliers", members={editor: "editor"})
    pages = []
    for user in (owner, editor):
        page = open_page(chromium)
        sign_in(page, daphne_server, user.username)
        page.goto(f"{daphne_server.url}/sessions/{session.pk}/")
        pages.append(page)
    yield {"session": session, "server": daphne_server, "pages": pages}
    for page in pages:
        page.context.close()


def test_map_details_heatmap_and_a_correction_arriving_live_in_both_browsers(shared):
    olga, ed = shared["pages"]
    ed.locator("#map-svg").wait_for()
    assert olga.locator("#map-nodes .node").count() == ed.locator("#map-nodes .node").count() > 5
    screenshot(olga, "workspace-1-opened")

    olga.locator("#map-node-0").click()
    details = olga.get_by_test_id("node-details")
    details.get_by_text("Write a short report on battery suppliers").first.wait_for()
    screenshot(olga, "workspace-2-node-details")
    ed.locator("#map-node-1").focus()  # the map is keyboard reachable: a focused node opens with Enter
    ed.keyboard.press("Enter")
    ed.get_by_test_id("node-details").locator("h2").first.wait_for()
    assert ed.get_by_test_id("node-details").locator("h2").first.inner_text() != ""

    unfold(olga.locator('#thread article[data-message-id="r1"]'))  # its second section is below its lead
    market = olga.locator('section.heat[data-section-id="market"]')
    market.hover()
    assert market.get_attribute("title") == "confidence 0.4" and "heat-1" in market.get_attribute("class")
    screenshot(olga, "workspace-3-heatmap")

    olga.locator('section[data-section-id="market"] .body p').first.click(click_count=3)  # selects the sentence
    olga.get_by_test_id("feedback-offer").click()
    panel = olga.get_by_test_id("feedback-panel")
    assert "market text" in panel.locator("[data-role=target-label]").inner_text()
    panel.get_by_label("Correct").check()
    panel.get_by_text("Template, links, files, priority").click()  # folded under the instruction
    panel.get_by_label("Start from").select_option("What data supports this conclusion?")
    panel.get_by_label("Links (one a line)").fill("https://example.com/market-study")
    screenshot(olga, "workspace-4-correction-in-the-panel")
    panel.get_by_role("button", name="Send feedback").click()
    olga.get_by_test_id("feedback-sent").wait_for()
    for page in (olga, ed):
        page.locator("#thread article.kind-human_feedback").wait_for(timeout=30_000)
        page.locator("#map-nodes g.node.status-needs_review").first.wait_for(timeout=30_000)
    screenshot(ed, "workspace-5-second-member-sees-the-correction")
    ed.set_viewport_size({"width": 820, "height": 1180})  # a tablet: one column, nothing wider than the screen
    assert ed.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(ed, "workspace-6-tablet")
    assert olga.console_errors == [] and ed.console_errors == []


# Keeps the page's socket at hand (the extension hands it to listeners of htmx:wsOpen) and the
# address of each connection it opens.
CATCH_THE_SOCKET = """
document.addEventListener("htmx:wsOpen", (event) => {
  window.liveSocket = event.detail.socketWrapper;
  window.socketUrls = (window.socketUrls || []).concat([event.detail.event.target.url]);
});
"""


def post_through_the_server(server, session, token) -> int:
    """An agent's summary, posted over the server's REST API (its broadcast leaves from there)."""
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    envelope = envelopes.envelope(
        "summary", {"text": "So far"}, sender=("agent", "clerk"), session_id=session.pk, context_checksum=head
    )
    request = urllib.request.Request(
        f"{server.url}/api/sessions/{session.pk}/messages/",
        data=json.dumps(envelope).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["seq"]


def test_a_reconnecting_workspace_goes_on_after_the_last_message_it_shows(daphne_server, chromium):
    owner = make_user("olga")
    session = make_session(owner=owner, title="Battery suppliers")
    clerk = make_agent("clerk", kind="external")
    off_the_browser_thread(agent_join, session=session, agent=clerk)
    token = token_issue(agent=clerk)
    page = open_page(chromium)
    try:
        sign_in(page, daphne_server, owner.username)
        page.add_init_script(CATCH_THE_SOCKET)
        page.goto(f"{daphne_server.url}/sessions/{session.pk}/")
        page.wait_for_function("() => window.socketUrls && window.socketUrls.length === 1")
        first = post_through_the_server(daphne_server, session, token)
        page.locator(f"#thread #msg-{first}").wait_for()
        page.evaluate("window.liveSocket.reconnect()")  # as after a server restart
        page.wait_for_function("() => window.socketUrls.length === 2")
        second = post_through_the_server(daphne_server, session, token)
        page.locator(f"#thread #msg-{second}").wait_for()
        urls = page.evaluate("window.socketUrls")
        assert [url.rsplit("?", 1)[1] for url in urls] == [f"since={first - 1}", f"since={first}"]
        assert page.locator("#thread article").count() == 2  # the first one was not sent again
        assert page.console_errors == []
    finally:
        page.context.close()


def test_a_new_user_starts_a_session_with_a_csv_and_works_with_the_agents_live(chromium, transactional_db, tmp_path):
    from agents.behaviours.registry import builtin_agents_ensure
    from sessions.membership import member_add
    from tests.live import DaphneServer

    builtin_agents_ensure()
    make_user("nina")
    ed = make_user("ed")
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    contexts = []
    try:
        nina_page, ed_page = open_page(chromium), open_page(chromium)
        contexts += [nina_page.context, ed_page.context]
        sign_in(nina_page, server, "nina")
        nina_page.get_by_role("link", name="New session").click()
        nina_page.get_by_label("Goal").fill("Analyse the attached sales CSV: compare the regions")
        nina_page.get_by_label("Audience").fill("management")
        nina_page.get_by_label("planner").check()
        nina_page.get_by_label("analyst").check()
        csv_path = tmp_path / "sales.csv"
        csv_path.write_text("region,amount\n" + "".join(f"{r},{n}\n" for n, r in enumerate(["north", "south"] * 10)))
        nina_page.get_by_label("Files to attach").set_input_files(str(csv_path))
        screenshot(nina_page, "flow-1-new-session")
        nina_page.get_by_role("button", name="Start the session").click()
        nina_page.wait_for_url("**/sessions/*-*/")
        session = WorkSession.objects.get(title__startswith="Analyse the attached sales CSV")
        member_add(session=session, user=ed, role="editor")
        sign_in(ed_page, server, "ed")
        ed_page.goto(f"{server.url}/sessions/{session.pk}/")

        for page in (nina_page, ed_page):
            page.locator("#thread article.kind-agent_capability_declaration").wait_for(timeout=30_000)
        screenshot(nina_page, "flow-2-plan-arrived")
        nina_page.get_by_role("button", name="Approve the plan").click()
        for page in (nina_page, ed_page):
            page.locator("#thread article.kind-collaborative_response section.heat").first.wait_for(
                state="attached", timeout=30_000
            )
        # The agents' turns end (a write-up arriving later folds the analyst's report again, live).
        nina_page.wait_for_function("() => !document.querySelector('.state-card.state-working')", timeout=60_000)
        report = nina_page.locator("#thread article.kind-collaborative_response").first
        section = report.locator("section.heat").nth(1)
        used_in(
            report, section, lambda shown: shown.hover(timeout=5_000)
        )  # one line if written up, then below its lead
        assert section.get_attribute("title").startswith("confidence ")
        screenshot(nina_page, "flow-3-report-heatmap")

        nina_page.locator('#map-nodes g[aria-label^="Goal"]').click()
        nina_page.get_by_test_id("node-details").get_by_text("Analyse the attached sales CSV").first.wait_for()
        screenshot(nina_page, "flow-4-node-details")

        used_in(report, section.locator(".body p").first, lambda shown: shown.click(click_count=3, timeout=5_000))
        nina_page.get_by_test_id("feedback-offer").click()
        panel = nina_page.get_by_test_id("feedback-panel")
        panel.get_by_label("Correct").check()
        panel.get_by_label("What should change").fill("The amounts are in thousands: say so in every table")
        panel.get_by_role("button", name="Send feedback").click()
        panel.get_by_test_id("feedback-sent").wait_for()
        for page in (nina_page, ed_page):
            page.locator("#map-nodes g.node.status-needs_review").first.wait_for(timeout=15_000)
        screenshot(nina_page, "flow-5-correction-flags-the-map")
        screenshot(ed_page, "flow-6-second-member-live")
        assert nina_page.console_errors == [] and ed_page.console_errors == []
    finally:
        for context in contexts:
            context.close()
        server.stop()
