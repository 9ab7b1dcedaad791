"""stats.significance over SAP on a session's own table: the test chosen for the data, its verdict at
the 5% level, the difference with its interval, the pairs that differ, and shares for a yes/no measure."""

import numpy as np
import pytest

from tests.agents.sap_calls import stats_on

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def ask():
    rng = np.random.default_rng(11)
    lines = ["diet,site,weight,gain,smoker"]
    for i in range(240):
        diet = "abc"[i % 3]
        site = "north" if i % 2 else "south"
        weight = rng.normal({"a": 60, "b": 60.5, "c": 70}[diet], 5)
        gain = rng.normal(10, 3)  # the same at every site
        smoker = "yes" if rng.random() < (0.6 if site == "north" else 0.2) else "no"
        lines.append(f"{diet},{site},{weight:.3f},{gain:.3f},{smoker}")
    on = stats_on("diets", "\n".join(lines) + "\n")
    return lambda body: on("stats.significance", body)


def test_two_groups_that_differ_only_by_chance_are_not_significant(ask):
    answer = ask({"measure": "gain", "group_by": "site"})
    assert answer["test"]["name"] == "Welch's t-test" and answer["check"]["name"] == "Mann-Whitney U test"
    assert answer["significant"] is False and answer["test"]["p_value"] > 0.05
    low, high = answer["difference"]["ci95"]
    assert low < 0 < high  # the interval spans no difference at all
    assert "equal variances" in answer["why"]


def test_two_groups_far_apart_are_significant_with_the_higher_named(ask):
    answer = ask(
        {"measure": "weight", "group_by": "diet", "filters": {"column": "diet", "op": "in", "value": ["a", "c"]}}
    )
    assert answer["significant"] is True and answer["rows"] == 160
    assert answer["difference"]["higher"] == "c" and 7 < answer["difference"]["value"] < 13
    assert answer["effect"]["name"] == "cohens_d" and answer["effect"]["size"] > 1


def test_several_groups_name_the_pairs_that_differ(ask):
    answer = ask({"measure": "weight", "group_by": "diet"})
    assert answer["test"]["name"] == "one-way ANOVA" and answer["significant"] is True
    pairs = {(p["higher"], p["lower"]) for p in answer["pairs"]}
    assert pairs == {("c", "a"), ("c", "b")}  # a and b lie half a kilo apart: no pair
    assert answer["groups"][0]["group"] == "c"


def test_a_yes_no_measure_is_tested_as_shares(ask):
    answer = ask({"measure": "smoker", "group_by": "site"})
    assert answer["test"]["name"] == "chi-square test" and answer["significant"] is True
    assert answer["share_of"] == "yes"
    assert [g["group"] for g in answer["groups"]] == ["north", "south"]
    assert answer["difference"]["higher"] == "north" and answer["chart"]["mark"]["type"] == "bar"


def test_one_group_gets_no_test_and_says_why(ask):
    answer = ask({"measure": "weight", "group_by": "diet", "filters": {"column": "diet", "op": "=", "value": "a"}})
    assert answer["test"] is None and answer["significant"] is None and "fewer than two groups" in answer["why"]
