"""The analyst answers the kinds of question analysts ask next, end to end from the goal to the report's
lead: whether a difference is more than chance (the verdict, its figures and the test chosen)."""

import csv

import numpy as np
import pytest

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
    assert "% of placebo against" in lead and "are yes for relapsed" in lead and "chi-square test" in lead
