"""Months said without a year keep those months of every year the table spans: "in the summer months,
June through August", "during winter", "in December"; two seasons said are a comparison, not a filter
(plain Python)."""

import pytest

from agents.analysis.condition_words import condition_words
from agents.analysis.question import read_question
from agents.analysis.schema import Schema

HARVESTS = Schema("harvests", [
    {"name": "picked_on", "type": "date", "distinct": 400, "min": "2019-03-04", "max": "2022-11-28"},
    {"name": "orchard", "type": "string", "distinct": 3, "values": ["east", "hill", "river"]},
    {"name": "crates", "type": "number", "distinct": 300, "min": 2, "max": 480},
], 400)  # fmt: skip


def kept_months(text):
    request = read_question(text, HARVESTS)
    return [condition_words(f) for f in request.filters if "orchard" not in str(f)]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "How many crates did the hill orchard pick on average in the summer months, June through August?",
            "picked_on in June to August of each year",
        ),
        ("Mean crates during the winter (Dec-Feb)?", "picked_on in December to February of each year"),
        ("What was the median crates picked in October?", "picked_on in October of each year"),
        ("Average crates outside the summer months?", "picked_on outside June to August of each year"),
    ],
)
def test_months_without_a_year_keep_those_months_of_every_year(text, said):
    assert kept_months(text) == [said]


def test_a_season_wrapping_past_december_runs_into_the_next_year():
    request = read_question("Mean crates in winter?", HARVESTS)
    spans = [[bound["value"] for bound in part["and"]] for part in request.filters[0]["or"]]
    assert spans[0] == ["2018-12-01", "2019-02-28"] and spans[-1] == ["2022-12-01", "2023-02-28"]
    assert len(spans) == 5


@pytest.mark.parametrize(
    "text",
    [
        "Are crates higher in summer than in winter?",  # two seasons: compared, not kept
        "What were the mean crates in October 2021?",  # a month of one year, read as that month
        "Crates may rise: what is the mean?",  # "may" is no month
    ],
)
def test_two_seasons_a_month_of_one_year_or_a_verb_keep_no_months_of_every_year(text):
    assert not any("of each year" in said for said in kept_months(text))


def test_over_the_season_describes_the_period_covered_and_keeps_every_row():
    assert kept_months("Which orchard's crates climbed fastest over the autumn, per day?") == []
