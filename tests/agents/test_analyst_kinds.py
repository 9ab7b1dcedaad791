"""The analyst answers the kinds of question analysts ask next, end to end from the goal to the report's
lead: whether a difference is more than chance (the verdict, its figures and the test chosen)."""

import csv

import numpy as np
import pytest
from scipy import stats

from agents.operations.files import workspace_root
from tests.agents.teamwork import plan_and_run

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def attach_trial(session):
    """Two treatments far apart in recovery days, the same in blood pressure; more relapses on one."""
    rng = np.random.default_rng(5)
    with (workspace_root(session.pk) / "trial.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["patient", "treatment", "recovery_days", "blood_pressure", "relapsed"])
        for i in range(120):
            treatment = "drug" if i % 2 else "placebo"
            days = rng.normal(9 if treatment == "drug" else 14, 3)
            relapsed = "yes" if rng.random() < (0.1 if treatment == "drug" else 0.45) else "no"
            writer.writerow([1000 + i, treatment, round(days, 1), round(rng.normal(120, 10), 1), relapsed])


def findings(team, goal):
    attach_trial(team["session"])
    report = plan_and_run(team, goal=goal, attached="trial.csv")
    found = report["payload"]["content"]["sections"][0]
    assert found["id"] == "findings"
    return found["body"].split("\n", 1)[0].replace("**", ""), found


def test_a_real_difference_is_called_significant_with_its_gap_and_test(team):
    lead, found = findings(
        team, "Is the difference in recovery days between drug and placebo statistically significant?"
    )
    assert lead.startswith("Yes, the difference is statistically significant at the 5% level: the mean recovery days")
    assert "for placebo and" in lead and "Welch's t-test, p < 0.001" in lead
    assert "- Why this test: two groups: Welch's t-test" in found["body"] and "Mann-Whitney U" in found["body"]
    assert "@@query:stats.significance#q" in found["body"] and found["confidence"] >= 0.75


def test_no_difference_is_said_to_be_possibly_chance(team):
    lead, _ = findings(team, "could the gap in blood pressure between the treatments just be chance?")
    assert lead.startswith("No, the difference is not statistically significant at the 5% level")
    assert lead.endswith("so it could well be chance.")


def test_a_yes_no_outcome_is_tested_as_shares(team):
    lead, _ = findings(team, "Do relapses happen significantly more often on placebo than on the drug?")
    assert lead.startswith("Yes, the difference is statistically significant")
    assert "% of placebo against" in lead and "have relapsed yes" in lead and "chi-square test" in lead


def attach_visits(session, name):
    """Twenty patients before and after a treatment: a drop of about 4 hidden by the spread between patients,
    in long form (visits.csv: a row per patient and visit) or wide form (wide.csv: a row per patient)."""
    rng = np.random.default_rng(21)
    base = rng.normal(140, 15, 20)
    before, after = base + rng.normal(0, 1.5, 20), base - 4 + rng.normal(0, 1.5, 20)
    with (workspace_root(session.pk) / name).open("w", newline="") as out:
        rows = csv.writer(out)
        rows.writerow(
            ["patient", "visit", "pressure"]
            if name == "visits.csv"
            else ["patient", "pressure_before", "pressure_after"]
        )
        for patient, (b, a) in enumerate(zip(before, after, strict=True), start=1):
            if name == "visits.csv":
                rows.writerows([[patient, "before", round(b, 2)], [patient, "after", round(a, 2)]])
            else:
                rows.writerow([patient, round(b, 2), round(a, 2)])
    return np.round(before, 2), np.round(after, 2)


@pytest.mark.parametrize(
    ("attached", "goal"),
    [
        ("visits.csv", "Did blood pressure drop significantly between the before and after visits?"),
        ("wide.csv", "Is the change from pressure before to pressure after statistically significant?"),
    ],
)
def test_the_same_patients_measured_twice_get_a_paired_test(team, attached, goal):
    before, after = attach_visits(team["session"], attached)
    report = plan_and_run(team, goal=goal, attached=attached)
    found = report["payload"]["content"]["sections"][0]
    lead = found["body"].split("\n", 1)[0].replace("**", "")
    expected = stats.ttest_rel(before, after)
    assert expected.pvalue < 0.001 and stats.ttest_ind(before, after).pvalue > 0.05  # only pairing sees it
    assert lead.startswith("Yes, the difference is statistically significant"), lead
    assert "paired t-test, p < 0.001" in lead and "over the 20 pairs" in lead
    assert f"before is {np.mean(before - after):.4g} higher" in lead
    assert "- Why this test: paired data" in found["body"] and "Wilcoxon signed-rank" in found["body"]


def test_a_value_late_in_a_long_list_of_names_is_still_a_filter(team):
    """180 towns: the question names the last of them, past the first page of a column's values."""
    towns = [f"Town {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(180)]
    with (workspace_root(team["session"].pk) / "rain.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["town", "year", "rainfall_mm"])
        for i, town in enumerate(towns):
            writer.writerows([[town, year, 500 + i + 40 * (year == 2003)] for year in range(2000, 2006)])
    report = plan_and_run(team, goal=f"In what year did {towns[-1]} get the most rainfall?", attached="rain.csv")
    lead = report["payload"]["content"]["sections"][0]["body"].split("\n", 1)[0].replace("**", "")
    assert lead.startswith("2003") and "719" in lead, lead
