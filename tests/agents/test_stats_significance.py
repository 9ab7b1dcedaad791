"""stats.significance over SAP on a session's own table: the test chosen for the data, its verdict at
the 5% level, the difference with its interval, the pairs that differ, and shares for a yes/no measure."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from agents.operations.stats.significance import significance
from tests.agents.sap_calls import stats_on

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


@pytest.fixture
def diets():
    rng = np.random.default_rng(11)
    lines = ["diet,site,weight,gain,smoker,smokes"]
    for i in range(240):
        diet = "abc"[i % 3]
        site = "north" if i % 2 else "south"
        weight = rng.normal({"a": 60, "b": 60.5, "c": 70}[diet], 5)
        gain = rng.normal(10, 3)  # the same at every site
        smoker = "yes" if rng.random() < (0.6 if site == "north" else 0.2) else "no"
        lines.append(f"{diet},{site},{weight:.3f},{gain:.3f},{smoker},{int(smoker == 'yes')}")
    return stats_on("diets", "\n".join(lines) + "\n")


@pytest.fixture
def ask(diets):
    return lambda body: diets("stats.significance", body)


@pytest.fixture
def crosstab(diets):
    return lambda body: diets("stats.crosstab", body)


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


def test_a_yes_no_coded_1_0_is_tested_as_the_share_of_1(ask):
    coded, said = ask({"measure": "smokes", "group_by": "site"}), ask({"measure": "smoker", "group_by": "site"})
    assert coded["test"]["name"] == "chi-square test" and coded["share_of"] == 1
    assert [g["percent"] for g in coded["groups"]] == [g["percent"] for g in said["groups"]]
    assert coded["test"]["p_value"] == pytest.approx(said["test"]["p_value"])


def test_a_share_of_one_value_of_a_grouping_is_tested_against_its_other_values(ask):
    answer = ask({"measure": "diet", "group_by": "site", "share_of": "C"})
    counts = [[40, 80], [40, 80]]  # each site: 40 rows of diet c against 80 of a or b
    assert answer["share_of"] == "c" and [g["percent"] for g in answer["groups"]] == pytest.approx([100 / 3] * 2)
    assert answer["test"]["p_value"] == pytest.approx(stats.chi2_contingency(counts, correction=False).pvalue)
    assert answer["significant"] is False
    assert ask({"measure": "diet", "group_by": "site", "share_of": "z"})["why"] == "no row has diet z"


def test_one_group_gets_no_test_and_says_why(ask):
    answer = ask({"measure": "weight", "group_by": "diet", "filters": {"column": "diet", "op": "=", "value": "a"}})
    assert answer["test"] is None and answer["significant"] is None and "fewer than two groups" in answer["why"]


@pytest.fixture
def paired_rows():
    """Twelve patients measured before and after: a small, steady drop hidden by large differences
    between patients, which only a paired test sees."""
    rng = np.random.default_rng(5)
    base = rng.normal(140, 15, 12)
    return base + rng.normal(0, 1, 12), base - 4 + rng.normal(0, 1, 12)


@pytest.fixture
def ask_visits(paired_rows):
    """The patients in long form: a row per patient and visit."""
    lines = ["patient,visit,pressure"]
    for patient, (b, a) in enumerate(zip(*paired_rows, strict=True), start=1):
        lines += [f"{patient},before,{b:.2f}", f"{patient},after,{a:.2f}"]
    on = stats_on("visits", "\n".join(lines) + "\n")
    return lambda body: on("stats.significance", body)


@pytest.fixture
def ask_patients(paired_rows):
    """The patients in wide form: a row per patient, a column per visit."""
    lines = ["patient,before,after,clinic"]
    for patient, (b, a) in enumerate(zip(*paired_rows, strict=True), start=1):
        lines.append(f"{patient},{b:.2f},{a:.2f},{'ab'[patient % 2]}")
    on = stats_on("patients", "\n".join(lines) + "\n")
    return lambda body: on("stats.significance", body)


def test_the_same_subjects_in_both_groups_are_tested_as_pairs(ask_visits, paired_rows):
    paired = ask_visits({"measure": "pressure", "group_by": "visit", "pair_by": "patient"})
    independent = ask_visits({"measure": "pressure", "group_by": "visit"})
    expected = stats.ttest_rel(*(np.round(side, 2) for side in paired_rows))
    assert paired["test"]["name"] == "paired t-test" and paired["check"]["name"] == "Wilcoxon signed-rank test"
    assert paired["test"]["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert paired["significant"] is True and paired["pairs_tested"] == 12 and "paired data" in paired["why"]
    assert independent["test"]["name"] == "Welch's t-test" and independent["significant"] is False
    assert paired["difference"]["higher"] == "before" and 3 < paired["difference"]["value"] < 5
    assert paired["effect"]["name"] == "cohens_dz" and paired["effect"]["size"] > 2


def test_two_measures_of_the_same_rows_are_tested_as_pairs(ask_patients, paired_rows):
    answer = ask_patients({"measure": "after", "versus": "before"})
    expected = stats.ttest_rel(*(np.round(side, 2) for side in paired_rows))
    assert answer["test"]["name"] == "paired t-test" and answer["significant"] is True
    assert answer["test"]["p_value"] == pytest.approx(expected.pvalue, rel=1e-6)
    assert answer["measure"] == "after" and answer["versus"] == "before" and answer["rows"] == 12
    assert answer["difference"]["higher"] == "before" and answer["chart"]["layer"]


def test_a_subject_column_that_does_not_pair_the_groups_leaves_the_independent_test(ask):
    """Each diet holds many rows per site: nothing pairs, so Welch's t as before."""
    answer = ask({"measure": "gain", "group_by": "site", "pair_by": "diet"})
    assert answer["test"]["name"] == "Welch's t-test"


def test_group_by_and_versus_are_one_or_the_other(ask_patients):
    for body in ({"measure": "after"}, {"measure": "after", "versus": "before", "group_by": "clinic"}):
        answer = ask_patients(body)
        assert answer["code"] == "VALIDATION_FAILED" and "either group_by" in answer["message"]


def test_a_yes_no_column_held_at_1_is_its_share_of_yes():
    frame = pd.DataFrame({"maker": ["a"] * 10 + ["b"] * 10, "curve": ["yes"] * 10 + ["yes"] * 3 + ["no"] * 7})
    answer = significance(frame, "curve", "maker", numeric=False, share_of="1")
    assert answer["test"] is not None and [g["percent"] for g in answer["groups"]] == [100, 30]


def test_a_number_read_as_yes_no_by_a_threshold_is_cross_tabbed(crosstab):
    answer = crosstab({"group_by": "site", "and_by": "weight", "and_above": 65})
    assert answer["and_by"] == "weight above 65"
    counts = {cell["row"]: cell["counts"] for cell in answer["cells"]}
    assert set(counts["north"]) == {"yes", "no"} and sum(counts["north"].values()) == 120


@pytest.mark.parametrize(
    ("body", "invalid"),
    [
        ({"group_by": "site", "and_by": "diet", "and_above": 1}, "and_by"),  # a text column has no threshold
        ({"group_by": "site", "and_by": "weight", "and_above": 1e16}, "and_above"),  # past any bound
    ],
)
def test_a_threshold_on_a_text_column_or_past_bounds_is_a_clear_error(crosstab, body, invalid):
    error = crosstab(body)
    assert error["code"] == "VALIDATION_FAILED" and invalid in str(error["details"])


def test_a_number_split_by_a_threshold_groups_a_test_with_each_side_named(ask):
    answer = ask({"measure": "gain", "group_by": "weight", "group_above": 65})
    assert {g["group"] for g in answer["groups"]} == {"weight above 65", "weight at most 65"}
    assert answer["test"]["name"] == "Welch's t-test"
