"""A sentence that asks two questions: the first is answered, the second said to need its own; a second
that only asks for the first's figure, or two groupings asked together, is one question."""

import pytest

from agents.analysis.question_parts import two_questions


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("Is systolic blood pressure higher for men or women, and does it rise with age?",
         "Is systolic blood pressure higher for men or women?", "does it rise with age?"),
        ("How did sales change over time, and which region grew most? Use the median.",
         "How did sales change over time? Use the median.", "which region grew most?"),
        ("Which country has the largest slice of the electricity, and what percentage is that?",
         "Which country has the largest slice of the electricity, and what percentage is that?", None),
        ("Which region and which year had the most sales?", "Which region and which year had the most sales?", None),
        ("Is the gap between men and women significant? How big is it?",
         "Is the gap between men and women significant? How big is it?", None),
    ],
)  # fmt: skip
def test_the_first_of_two_questions_in_one_sentence_is_answered_and_the_second_kept_apart(text, first, second):
    assert two_questions(text) == (first, second)
