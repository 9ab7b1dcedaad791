"""Two CSVs attached in the browser, a question that needs both: the Findings say which key joined them
and how many rows matched, and lead with the answer computed here with pandas (merge, then groupby)."""

import io

import pandas as pd
import pytest

from tests.agents.joined_tables import COUNTRIES, POPULATIONS
from tests.chromium import approve_the_plan, screenshot, start_analysis, unfold

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]


def test_a_question_on_two_attached_tables_is_answered_on_their_join(nina, tmp_path):
    paths = []
    for name, content in (("countries.csv", COUNTRIES), ("populations.csv", POPULATIONS)):
        paths.append(tmp_path / name)
        paths[-1].write_text(content)
    merged = pd.read_csv(io.StringIO(COUNTRIES)).merge(pd.read_csv(io.StringIO(POPULATIONS)), on="iso3")
    means = merged.groupby("region")["population"].mean().sort_values(ascending=False)

    page = nina
    question = "Which region has the highest average population?"
    start_analysis(page, page.server.url, f"Analyse the attached countries and populations: {question}", paths)
    approve_the_plan(page)

    written = page.locator("#thread article.kind-collaborative_response.current header strong", has_text="scribe")
    written.wait_for(timeout=30_000)
    analysis = page.locator("#thread article.kind-collaborative_response").first
    unfold(analysis)
    findings = analysis.locator("section[data-section-id=findings]")
    lead = " ".join(findings.locator(".body > p").first.inner_text().split())
    assert lead.startswith(f"{means.index[0]} has the highest mean population: {means.iloc[0]:.1f}"), lead
    joined = findings.locator(".body p", has_text="I joined countries and populations on")
    said = " ".join(joined.inner_text().split())
    assert "iso3: 10 of 11 rows of countries matched" in said, said
    assert "1 row of countries had no match in populations (such as XKX)" in said, said
    screenshot(page, "question-two-tables")
    findings.scroll_into_view_if_needed()
    screenshot(page, "question-two-tables-findings", whole=False)
    assert page.console_errors == []
