"""Which follow-ups add a question to the deliverable, and the headline "What changed" compares."""

import pytest

from agents.behaviours.answers import answers_now, asks_another_question, headline, headline_lines

SETTINGS = {"rows": {}, "tables": ["air"], "reading": {}, "roles": {}}


@pytest.mark.parametrize(
    ("lead", "said"),
    [
        ("**May** has the lowest median ozone: **60** (n = 31), 2 less than June (62).", "May has the lowest median ozone: 60"),
        ("The median price is **12.50** over the 40 rows where region is north (n = 40).", "The median price is 12.50"),
        ("**petal length** is the variable most associated with species: Pearson r = **0.8718**, strongly …",
         "petal length is the variable most associated with species: Pearson r = 0.8718"),
        ("I could not answer this from air: I cannot tell which number column you mean.",
         "I could not answer this from air: I cannot tell which number column you mean"),
    ],
)  # fmt: skip
def test_the_headline_is_the_lead_up_to_its_figure_in_plain_words(lead, said):
    assert headline(lead) == said


@pytest.mark.parametrize(
    ("kind", "text", "another"),
    [
        ("new_direction", "Look at the items now", True),
        ("refinement", "And which shop has the most items?", True),
        ("refinement", "what about the lowest month", True),
        ("refinement", "Use the median instead of the mean", False),
        ("refinement", "and only the west shop", False),
        ("correction", "Which is wrong: use the sample SD?", False),
    ],
)
def test_a_follow_up_adds_a_question_when_it_asks_one(kind, text, another):
    assert asks_another_question(kind, text) is another


def test_a_new_question_is_added_and_a_redo_replaces_only_the_latest_answer():
    worst = {"body": "**June** has the highest mean ozone: **59.96** (n = 30).", "confidence": 0.75}
    first = answers_now([], "Which month is worst?", worst, "r1", another=False, settings=SETTINGS)
    best = {"body": "**May** has the lowest mean ozone: **41** (n = 31).", "confidence": 0.75}
    both = answers_now(first, "Which month is best?", best, "r2", another=True, settings=SETTINGS)
    assert [a["asked"] for a in both] == ["Which month is worst?", "Which month is best?"]
    assert headline_lines(first, both) == [
        "A new question: “Which month is best?”. Its answer: May has the lowest mean ozone: 41."
    ]
    median = {"body": "**April** has the lowest median ozone: **38** (n = 30).", "confidence": 0.7}
    redone = answers_now(both, "Use the median", median, "r3", another=False, settings=SETTINGS)
    assert [(a["asked"], a["report"]) for a in redone] == [
        ("Which month is worst?", "r1"),
        ("Which month is best?", "r3"),
    ]
    assert headline_lines(both, redone) == [
        "The answer to “Which month is best?” is now: April has the lowest median ozone: 38; "
        "it was: May has the lowest mean ozone: 41."
    ]
    assert headline_lines(redone, redone) == []


def test_the_answer_section_carries_the_stated_reading_its_doubts_and_the_effect_size():
    from agents.behaviours.templated_prose import Handoff, Prose

    body = "\n".join(
        [
            "**May** has the highest median ozone: **60** (n = 31), 2 more than June (58).",
            "",
            "I read this as: the median ozone, compared across months.",
            "Not sure of this reading: “worst”. If that changes the question, say so and I will redo it.",
            "- Kruskal-Wallis on the groups: H = 12.1, p = 0.002; eta squared = 0.1500, a large share of the variance.",
            "- May: 60 (n = 31)",
            "",
            "```vega-lite",
            "{}",
            "```",
        ]
    )
    analysis = {
        "message_id": "m1",
        "sender": {"type": "agent", "id": "analyst"},
        "payload": {
            "content": {"sections": [{"id": "findings", "title": "Findings", "body": body, "confidence": 0.6}]},
            "confidence_score": 0.7,
        },
    }
    summary, confidence = Prose(Handoff(analysis), "Which month is worst for ozone?")("summary", {})
    assert summary.splitlines() == [
        "Asked “Which month is worst for ozone?”, the analysis finds: May has the highest median ozone: 60 (n = 31), "
        "2 more than June (58).",
        "- I read this as: the median ozone, compared across months.",
        "- Not sure of this reading: “worst”. If that changes the question, say so and I will redo it.",
        "- Kruskal-Wallis on the groups: H = 12.1, p = 0.002; eta squared = 0.1500, a large share of the variance.",
    ]
    assert confidence == 0.6


def test_an_analysis_that_was_asked_nothing_is_written_up_with_its_offer_to_answer_one():
    from agents.behaviours.templated_prose import Handoff, Prose

    unasked = "No question was asked, so the sections below profile and describe air as a whole.\n- Ask one."
    analysis = {
        "message_id": "m1",
        "sender": {"type": "agent", "id": "analyst"},
        "payload": {
            "content": {"sections": [{"id": "findings", "title": "Findings", "body": unasked, "confidence": 0.5}]},
            "confidence_score": 0.7,
            "provenance": {"answers": []},
        },
    }
    prose = Prose(Handoff(analysis, []), "")
    assert prose("summary", {})[0] == unasked.splitlines()[0]
    assert prose("findings", {})[0] == unasked
