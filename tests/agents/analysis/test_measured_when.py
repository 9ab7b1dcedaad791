"""Which number column a question means: a measure taken at several moments, one column a moment, chosen by the
moments said; a yes/no column named where a number is needed, standing for the measure beside it."""

import pytest

from agents.analysis.question import read_question
from agents.analysis.reading import read_back
from agents.analysis.schema import Schema

TRIAL = Schema("trial", [
    {"name": "patient", "type": "number", "distinct": 142, "role": "identifier"},
    {"name": "surgery", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    *({"name": f"roland_{when}", "type": "number", "distinct": 24, "min": 0, "max": 24} for when in ("0", "3m", "1y", "2y")),
    *({"name": f"pain_{when}", "type": "number", "distinct": 90, "min": 0, "max": 100} for when in ("0", "1y")),
], 142)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("how many patients have no Roland score at the two-year visit",
         {"kind": "missing", "measures": ["roland_2y"]}),
        ("Did disability on the Roland scale really improve from entry to the one-year visit? Same patients - test it.",
         {"kind": "significance", "measures": ["roland_0"], "second": "roland_1y"}),
        ("What was the mean pain score a year later?", {"measures": ["pain_1y"]}),
        ("What was the mean Roland score?", {"measures": ["roland_0"]}),  # no moment said: the first column
    ],
)  # fmt: skip
def test_the_moment_said_chooses_the_column_of_that_moment(text, expected):
    request = read_question(text, TRIAL)
    assert {key: getattr(request, key) for key in expected} == expected
    if "two-year" in text:
        assert read_back(text, TRIAL, request).said() == []  # "the two-year visit" is no word read past


def test_a_yes_no_column_named_where_a_number_is_needed_stands_for_the_measure_beside_it():
    recovery = Schema("recovery", [
        {"name": "patient", "type": "number", "distinct": 137, "role": "identifier"},
        {"name": "platelets_recovered", "type": "string", "distinct": 2, "values": ["no", "yes"], "role": "yes/no"},
        {"name": "days_to_platelets", "type": "number", "distinct": 60, "min": 1, "max": 1300},
        {"name": "age", "type": "number", "distinct": 50, "min": 7, "max": 52},
    ], 137)  # fmt: skip
    request = read_question("Flag the most anomalous time to platelet recovery - which patient?", recovery)
    assert (request.kind, request.measures, request.label) == ("outliers", ["days_to_platelets"], "patient")
