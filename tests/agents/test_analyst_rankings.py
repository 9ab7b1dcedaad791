"""A ranking over every measure never ranks an identifier, and a yes/no column named by its value as the
thing another goes with is that column, not a filter that holds it at one value."""

import pytest

from agents.operations.files import workspace_root
from tests.agents.teamwork import plan_and_run

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def attach_transplants(session):
    """40 patients numbered in the order they fell ill: the later ones had GVHD (so the number goes with it
    perfectly), the days to engraftment go with it loosely, and who died is independent of it."""
    lines = ["patient,age,days_to_engraft,gvhd,died"]
    for patient in range(1, 41):
        gvhd = "yes" if patient > 20 else "no"
        days = 10 + (patient % 7) + (6 if gvhd == "yes" else 0)
        died = "yes" if patient % 2 else "no"
        lines.append(f"{patient},{30 + (patient * 7) % 23},{days},{gvhd},{died}")
    (workspace_root(session.pk) / "transplants.csv").write_text("\n".join(lines) + "\n")


def findings(report):
    return next(s for s in report["payload"]["content"]["sections"] if s["id"] == "findings")


def test_which_number_goes_most_with_an_outcome_never_ranks_the_patient_number(team):
    attach_transplants(team["session"])
    report = plan_and_run(team, "Which number goes most with gvhd?", "transplants.csv")
    lead = findings(report)["body"].split("\n", 1)[0].replace("**", "")
    assert lead.startswith("days to engraft is the variable most associated with gvhd"), lead


def test_an_outcome_named_by_its_value_is_cross_tabbed_not_held_at_that_value(team):
    attach_transplants(team["session"])
    report = plan_and_run(team, "Is GVHD related to death? chi-square and Cramér's V", "transplants.csv")
    body = findings(report)["body"]
    assert body.split("\n", 1)[0].replace("**", "").startswith("Gvhd and died look independent"), body
    assert "where gvhd is" not in body and "you said “chi”" not in body
