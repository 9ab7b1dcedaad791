"""An analyst's walk in a real browser on a dataset the test builds: proposal → plan approved →
analysis → report, then the map of that analysis read at Fit and with the keyboard."""

import re

import pytest

from sessions.models import WorkSession
from tests.chromium import approve_the_plan, open_page, screenshot, shown_in, sign_in, start_analysis
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.processes]


def test_one_analysis_reads_as_a_dozen_legible_nodes(chromium, transactional_db, tmp_path):
    from agents.behaviours.registry import builtin_agents_ensure
    from tests.live import DaphneServer

    builtin_agents_ensure()
    make_user("nina")
    server = DaphneServer(CHAP_AGENTS_IN_PROCESS="1").start()
    page = open_page(chromium)
    try:
        page.set_viewport_size({"width": 1440, "height": 900})
        sign_in(page, server, "nina")
        rows = "".join(f"{plot},{yield_},{rain}\n" for plot, yield_, rain in [("a", 4, 10), ("b", 7, 12)] * 12)
        csv_path = tmp_path / "plots.csv"
        csv_path.write_text("plot,yield,rain\n" + rows)
        goal = "Analyse the attached plots CSV: which plot has the highest mean yield, and how do the plots differ in rain?"
        start_analysis(page, server.url, goal, csv_path)
        approve_the_plan(page)
        page.locator("#thread article.kind-collaborative_response section.heat").first.wait_for(
            state="attached", timeout=30_000
        )
        page.locator("#map-nodes g.node.shape-result").first.wait_for(timeout=30_000)
        assert WorkSession.objects.filter(title__startswith="Analyse the attached plots").exists()

        page.get_by_role("button", name="Fit").click()
        nodes = page.locator("#map-nodes g.node")
        assert 5 <= nodes.count() <= 25
        smallest = page.evaluate(
            "Math.min(...Array.from(document.querySelectorAll('#map-nodes .node text tspan'))"
            ".map(t => t.getBoundingClientRect().height))"
        )
        assert smallest >= 9  # labels readable at Fit
        screenshot(page, "walk-1-map")
        assert page.locator("#thread .markdown table").count() > 0  # Markdown tables are tables
        report = page.locator("#thread article.kind-collaborative_response").first
        section = report.locator("section", has_text="Findings").first
        shown_in(report, section)  # written up by the scribe: one line that opens
        findings = " ".join(section.inner_text().split())
        assert "b has the highest mean yield: 7 (n = 12), 3 more than a (4)." in findings  # b 7 and a 4
        assert "b has the highest mean rain: 12 (n = 12), 2 more than a (10)" in findings
        chart = section.get_by_test_id("chart")
        assert chart.count() == 1 and chart.is_visible()
        image = chart.locator("img")
        assert image.get_attribute("alt").strip()
        page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=image.element_handle())  # drawn
        reports = " ".join(page.locator("#thread article.kind-collaborative_response").all_inner_texts())
        assert not re.search(r"\bs_[0-9a-f]{6,}__|msg_[0-9a-f]{6,}|%s|base64", reports)  # no internals
        screenshot(page, "walk-2-report")

        page.get_by_role("link", name="Skip to map").focus()
        page.keyboard.press("Enter")
        first = page.evaluate("document.activeElement.id")
        assert first.startswith("map-node-")
        page.keyboard.press("ArrowRight")
        second = page.evaluate("document.activeElement.id")
        assert second.startswith("map-node-") and second != first
        page.keyboard.press("Enter")
        page.get_by_test_id("node-details").locator("h2").first.wait_for()
        assert page.locator('#map-nodes g.node[tabindex="0"]').count() == 1  # one tab stop
        screenshot(page, "walk-3-keyboard")
        assert page.console_errors == []
    finally:
        page.context.close()
        server.stop()
