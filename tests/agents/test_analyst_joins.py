"""Two tables: a question that needs a measure from one CSV and the groups from another is answered on
the two joined through dataset.join, saying which key joined them and how many rows matched; tables
that share no key are said to, and not answered from one of them."""

import io
import re
import subprocess
import sys

import pandas as pd
import pytest

from agents.operations.files import workspace_root
from tests.agents.joined_tables import COUNTRIES, POPULATIONS
from tests.agents.teamwork import feedback_on, plan_and_run, reports, work_until_idle

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def attach(session, files):
    for name, content in files.items():
        (workspace_root(session.pk) / name).write_text(content)


def findings_of(report):
    first = report["payload"]["content"]["sections"][0]
    assert first["id"] == "findings"
    return first


def test_a_measure_of_one_table_by_the_groups_of_another_is_answered_on_the_join(team):
    attach(team["session"], {"countries.csv": COUNTRIES, "populations.csv": POPULATIONS})
    report = plan_and_run(
        team, "Analyse the attached data: which region has the highest average population?", "countries.csv"
    )
    found = findings_of(report)
    merged = pd.read_csv(io.StringIO(COUNTRIES)).merge(pd.read_csv(io.StringIO(POPULATIONS)), on="iso3")
    means = merged.groupby("region")["population"].mean().sort_values(ascending=False)
    lead = found["body"].split("\n", 1)[0].replace("**", "")
    said = re.match(r"(\w+) has the highest mean population: ([\d.]+) \(n = (\d+)\)", lead)
    assert said, lead
    assert said[1] == means.index[0] and float(said[2]) == pytest.approx(means.iloc[0], abs=0.05)
    assert int(said[3]) == (merged["region"] == means.index[0]).sum()
    assert f"the lowest is {means.index[-1]} at {means.iloc[-1]:.2f}" in lead  # Kosovo, unmatched, left out
    assert (
        "I joined countries and populations on `iso3`: 10 of 11 rows of countries matched; "
        "1 row of countries had no match in populations (such as XKX); "
        "1 row of populations had no match in countries (such as TWN). "
        "The answer is computed on the 10 joined rows."
    ) in found["body"]
    code = re.search(r"```python\n(.+?)```", found["body"], re.S)
    assert code and "left.merge(right, on=['iso3'], how='inner')" in code.group(1), found["body"][-1500:]
    ran = subprocess.run(
        [sys.executable, "-c", code.group(1)], cwd=workspace_root(team["session"].pk), capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert f"{means.iloc[0]:.1f}" in ran.stdout and "@@action:dataset.join#j" in found["body"]
    payload = report["payload"]
    assert payload["provenance"]["findings"]["joined"]["on"] == ["iso3"]
    assert payload["provenance"]["tables"] == ["countries", "populations"]  # the join is no table of the data's
    assert any("the operation dataset.join" in m["citation"] for m in payload["supporting_materials"])


def test_a_join_where_many_rows_find_no_match_is_less_sure(team):
    few = "\n".join(POPULATIONS.splitlines()[:4]) + "\n"  # 3 of the 11 countries have a population
    attach(team["session"], {"countries.csv": COUNTRIES, "populations.csv": few})
    found = findings_of(
        plan_and_run(
            team, "Analyse the attached data: which region has the highest average population?", "countries.csv"
        )
    )
    assert "3 of 11 rows of countries matched; 8 rows of countries had no match in populations" in found["body"]
    assert found["confidence"] <= 0.4


def test_tables_that_share_no_key_are_said_to_and_not_answered_from_one(team):
    renamed = POPULATIONS.replace("iso3,", "code,", 1)
    attach(team["session"], {"countries.csv": COUNTRIES, "populations.csv": renamed})
    found = findings_of(
        plan_and_run(
            team, "Analyse the attached data: which region has the highest average population?", "countries.csv"
        )
    )
    assert found["body"].startswith(
        "I could not answer this: it needs region from countries; population from populations, and countries "
        "and populations share no key to join them on"
    ), found["body"]
    assert found["confidence"] <= 0.2


def test_a_value_of_one_table_and_a_measure_of_the_other_are_answered_on_the_join(team):
    attach(team["session"], {"countries.csv": COUNTRIES, "populations.csv": POPULATIONS})
    found = findings_of(
        plan_and_run(team, "Analyse the attached data: what is the average population in Asia?", "countries.csv")
    )
    merged = pd.read_csv(io.StringIO(COUNTRIES)).merge(pd.read_csv(io.StringIO(POPULATIONS)), on="iso3")
    asia = merged.loc[merged["region"] == "Asia", "population"]
    assert found["body"].startswith(
        f"The mean population is **{asia.mean():.1f}** over the {len(asia)} rows where region is Asia"
    )
    assert "I joined countries and populations on `iso3`" in found["body"]


def test_a_new_direction_joins_again_and_the_join_stays_out_of_the_data(team):
    attach(team["session"], {"countries.csv": COUNTRIES, "populations.csv": POPULATIONS})
    first = plan_and_run(
        team, "Analyse the attached data: which region has the highest average population?", "countries.csv"
    )
    feedback_on(team, first["message_id"], "Which region has the lowest average population?", "new_direction")
    work_until_idle()
    reply = reports(team["session"])[-1]
    found = findings_of(reply)
    assert found["body"].startswith("**Europe** has the lowest mean population"), found["body"][:300]
    assert "I joined countries and populations on `iso3`: 10 of 11 rows of countries matched" in found["body"]
    assert reply["payload"]["provenance"]["tables"] == ["countries", "populations"]
    titles = [s["title"] for s in reply["payload"]["content"]["sections"]]
    assert not any("countries_and_populations" in title for title in titles)
