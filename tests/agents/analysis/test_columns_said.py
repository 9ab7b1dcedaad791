"""Which columns a question names: a column said in brackets after a column's words says what they meant."""

from agents.analysis.columns_said import columns_named
from agents.analysis.schema import Schema

HEART = Schema("heart", [
    {"name": "sex", "type": "string", "distinct": 2, "values": ["female", "male"]},
    {"name": "smoker", "type": "string", "distinct": 2, "values": ["no", "yes"]},
    {"name": "cigs_per_day", "type": "number", "distinct": 40, "min": 0, "max": 70},
    {"name": "bmi", "type": "number", "distinct": 300, "min": 15, "max": 57},
], 4434)  # fmt: skip


def test_a_column_said_in_brackets_after_another_stands_for_both():
    text = "After accounting for sex, do heavier smokers (more cigarettes a day) tend to have a higher or lower BMI?"
    assert [m.column for m in columns_named(text, HEART)] == ["sex", "cigs_per_day", "bmi"]


def test_words_in_brackets_that_name_no_other_column_leave_the_column_before_them():
    text = "Is BMI (kg per square metre) higher for smokers?"
    assert [m.column for m in columns_named(text, HEART)] == ["bmi", "smoker"]
