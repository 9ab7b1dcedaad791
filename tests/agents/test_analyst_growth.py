"""The analyst's growth answers compare each group's per-period means: a region's first and last rows
are two different countries, and set against each other they answer another question."""

import pytest

from agents.operations.files import workspace_root
from tests.agents.teamwork import plan_and_run
from workspace.markdown import render_markdown

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

# North's first row (a, 2000: 100) and last row (b, 2010: 20) say it fell 80%; its yearly mean doubled.
ROWS = [("North", "a", 2000, 100), ("North", "b", 2000, 10), ("North", "a", 2010, 200), ("North", "b", 2010, 20),
        ("South", "c", 2000, 50), ("South", "d", 2000, 50), ("South", "c", 2010, 60), ("South", "d", 2010, 60)]  # fmt: skip


def test_which_region_grew_most_is_read_from_the_yearly_means(team):
    lines = ["region,country,year,gdp", *(",".join(map(str, row)) for row in ROWS)]
    (workspace_root(team["session"].pk) / "regions.csv").write_text("\n".join(lines) + "\n")
    report = plan_and_run(team, goal="Which region's gdp grew the most from 2000 to 2010?", attached="regions.csv")
    findings = report["payload"]["content"]["sections"][0]
    lead = findings["body"].split("\n", 1)[0].replace("**", "")
    assert lead.startswith("North grew most: gdp went from 55 in 2000 to 110 in 2010, +100%"), lead
    html = render_markdown(findings["body"], team["session"].pk)
    assert html.count('data-testid="chart"') == 1
