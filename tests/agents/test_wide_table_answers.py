"""A file with one column per stock, asked which stock grew the most: the analyst stacks the columns as
rows (dataset.unpivot), says so, answers, and the code under the answer stacks the file the same way."""

import re
import subprocess
import sys

import pytest

from agents.operations.files import workspace_root
from tests.agents.teamwork import plan_and_run

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def attach_prices(session):
    lines = ["month_end;index_level;AAA;BBB;CCC"]
    for month in range(24):
        year, number = 2020 + month // 12, month % 12 + 1
        prices = (100 + 5 * month, 50 + month, 20 * (1 + month / 23), 80 - month)
        lines.append(f"{year}-{number:02d}-28;" + ";".join(f"{p:.2f}".replace(".", ",") for p in prices))
    (workspace_root(session.pk) / "prices.csv").write_text("\n".join(lines) + "\n")


def test_which_stock_grew_most_is_answered_on_the_columns_stacked_with_code_that_stacks_them(team):
    attach_prices(team["session"])
    goal = "Analyse the attached prices CSV: which of these stocks grew the most, first month to last, in percent?"
    findings = plan_and_run(team, goal=goal, attached="prices.csv")["payload"]["content"]["sections"][0]
    lead, said = findings["body"].split("\n")[0], findings["body"].split("\n")[2]
    assert lead.replace("**", "").startswith("BBB grew most") and "+100%" in lead
    assert said.startswith("The file has one column per stock (AAA, BBB, CCC): I stacked them as rows")
    assert findings["confidence"] <= 0.6
    code = re.search(r"```python\n(.+?)```", findings["body"], re.S).group(1)
    assert "df.melt(id_vars=['month_end'], value_vars=['AAA', 'BBB', 'CCC'], var_name='stock'" in code
    ran = subprocess.run([sys.executable, "-c", code], cwd=workspace_root(team["session"].pk), capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert ran.returncode == 0 and re.search(r"\bBBB\b.*\b100(\.0+)?\b", ran.stdout), ran.stdout + ran.stderr
