"""The written report opens with the answer, keeps every question the session asked with its current
answer, says how each headline moved, and is never surer than the analysis it is written from."""

import pytest
from django.urls import reverse

from agents.behaviours.templated_prose import KINDS, Handoff, Prose
from sessions.models import WorkSession
from sessions.selectors import final_report
from tests.agents.teamwork import attach_baskets, feedback_on, last, plan_and_run, work_until_idle
from tests.pages import visible_text

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
# One big basket at west: west has the highest mean basket value, east the highest median.
BIG_WEST_BASKET = [("west", 200.0, 4)]
FIRST = "Analyse the baskets CSV data: which shop has the highest mean basket value?"
SECOND = "Which shop has the most items?"
CANNOT_TELL = "I could not answer this from baskets: I cannot tell which number column you mean."


def sections_of(envelope):
    return {s["title"]: s for s in envelope["payload"]["content"]["sections"]}


def delivered(team):
    return final_report(session=WorkSession.objects.get(pk=team["session"].pk)).envelope


def test_a_follow_up_question_adds_its_answer_to_the_deliverable_and_a_redo_replaces_only_its_own(team, client):
    attach_baskets(team["session"], extra=BIG_WEST_BASKET)
    plan_and_run(team, FIRST)
    first = delivered(team)
    assert first["sender"]["id"] == "scribe"
    feedback_on(team, first["message_id"], SECOND, kind="new_direction")
    work_until_idle()

    second = delivered(team)
    assert second["message_id"] != first["message_id"] and second["sender"]["id"] == "scribe"
    body = second["payload"]["content"]["body"]
    # The report opens with the answers, oldest question first, each with its figure and effect size.
    assert body.split("\n## ")[1].startswith(
        f"Answer\n\nAsked “{FIRST}”, the analysis finds: west has the highest mean basket value: 47.86 (n = 7)"
    )
    answer = sections_of(second)["Answer"]["body"]
    assert f"Asked “{SECOND}”, the analysis finds: west has the highest mean items: 4 (n = 7)" in answer
    assert answer.count("eta squared = ") == 2
    assert body.index("## Answer") < body.index("## Evidence") < body.index("## Data and method")
    changed = sections_of(second)["What changed"]["body"]
    assert f"after the new direction “{SECOND}”" in changed
    assert f"- A new question: “{SECOND}”. Its answer: west has the highest mean items: 4." in changed
    evidence = sections_of(second)["Evidence"]["body"]
    assert f"### {FIRST}\n\n**west** has the highest mean basket value" in evidence
    assert f"### {SECOND}\n\n**west** has the highest mean items" in evidence
    analysis = last(team["session"], "collaborative_response", sender="analyst")
    assert [a["asked"] for a in analysis["payload"]["provenance"]["answers"]] == [FIRST, SECOND]
    assert [s["id"] for s in analysis["payload"]["content"]["sections"][:3]] == [
        "findings",
        "what-changed",
        "earlier-answers",
    ]

    # A refinement that redoes the latest answer replaces it, and only it.
    feedback_on(team, second["message_id"], "Use the median instead of the mean", kind="refinement")
    work_until_idle()
    third = delivered(team)
    answer = sections_of(third)["Answer"]["body"]
    assert answer.count("Asked “") == 2
    assert f"Asked “{FIRST}”, the analysis finds: west has the highest mean basket value: 47.86" in answer
    assert f"Asked “{SECOND}”, the analysis finds: west has the highest median items: 4 (n = 7)" in answer
    assert "highest mean items" not in answer
    assert (
        f"- The answer to “{SECOND}” is now: west has the highest median items: 4; "
        "it was: west has the highest mean items: 4." in sections_of(third)["What changed"]["body"]
    )

    # The deliverable page reads the same way: the answers before the evidence and the method.
    client.force_login(team["owner"])
    page = client.get(reverse("workspace:deliverable", args=[team["session"].pk])).content.decode()
    text = visible_text(page)
    assert text.index("Answer") < text.index("west has the highest mean basket value: 47.86")
    assert text.index("west has the highest median items: 4") < text.index("Data and method")


def test_what_changed_names_the_headline_before_and_after_when_the_answer_flips(team):
    attach_baskets(team["session"], extra=BIG_WEST_BASKET)
    first = plan_and_run(team, FIRST)
    feedback_on(team, first["message_id"], "Use the median instead of the mean", kind="refinement")
    work_until_idle()
    flipped = (
        f"- The answer to “{FIRST}” is now: east has the highest median basket value: 33.50; "
        "it was: west has the highest mean basket value: 47.86."
    )
    redone = last(team["session"], "collaborative_response", sender="analyst")
    changed = sections_of(redone)["What changed"]["body"]
    assert flipped in changed and "No figure changed" not in changed
    written = sections_of(delivered(team))
    assert flipped in written["What changed"]["body"]
    assert written["Answer"]["body"].startswith(
        f"Asked “{FIRST}”, the analysis finds: east has the highest median basket value: 33.50"
    )


def test_the_writer_is_never_surer_than_the_analyst_of_what_it_writes_up(team):
    attach_baskets(team["session"], extra=BIG_WEST_BASKET)
    analysis = plan_and_run(team, FIRST)
    written = delivered(team)["payload"]
    overall = analysis["payload"]["confidence_score"]
    own = {s["id"]: s["confidence"] for s in analysis["payload"]["content"]["sections"]}
    same_content = {"Answer": own["findings"], "Evidence": own["findings"],
                    "Column profiles": own["baskets-profile"], "Descriptive statistics": own["baskets-statistics"]}  # fmt: skip
    assert written["confidence_score"] <= overall
    rated = [s for s in written["content"]["sections"] if "confidence" in s]
    assert len(rated) == 6
    for section in rated:
        assert section["confidence"] <= same_content.get(section["title"], overall), section["title"]


def test_a_refusal_stays_as_unsure_in_every_section_the_writer_writes_from_it():
    refusal = {
        "message_id": "m1",
        "sender": {"type": "agent", "id": "analyst"},
        "payload": {
            "content": {
                "sections": [
                    {"id": "findings", "title": "Findings", "body": CANNOT_TELL, "confidence": 0.2},
                    {"id": "baskets-profile", "title": "Column profiles", "body": "| shop |", "confidence": 0.9},
                    {"id": "baskets-statistics", "title": "Statistics", "body": "| items |", "confidence": 0.75},
                ]
            },
            "confidence_score": 0.51,
            "supporting_materials": [{"citation": "baskets.csv (table baskets), a query"}],
            "provenance": {"settings": {"sd": "population"}, "tables": ["baskets"], "question": "Which is best?"},
        },
    }
    prose = Prose(Handoff(refusal), "Which is best?")
    written = {kind: prose(kind, {"title": kind}) for kind, _ in KINDS}
    # The answer is as unsure as the analyst's Findings; its tables as sure as the analyst rated them;
    # the rest, drawn from the analysis as a whole, no surer than the analyst's overall 0.51.
    assert written["summary"][1] == written["findings"][1] == 0.2
    assert written["profiles"][1] == 0.9 and written["statistics"][1] == 0.75
    rest = {
        kind: c for kind, (_, c) in written.items() if kind not in ("summary", "findings", "profiles", "statistics")
    }
    assert rest and all(confidence <= 0.51 for confidence in rest.values()), rest
    assert written["summary"][0].startswith("Asked “Which is best?”, the analysis finds: I could not answer this")


def test_an_earlier_answer_given_before_a_correction_to_the_rows_says_so(team):
    attach_baskets(team["session"], extra=BIG_WEST_BASKET)
    plan_and_run(team, FIRST)
    feedback_on(team, delivered(team)["message_id"], SECOND, kind="new_direction")
    work_until_idle()
    feedback_on(team, delivered(team)["message_id"], "only the west shop", kind="refinement")
    work_until_idle()
    answer = sections_of(delivered(team))["Answer"]["body"]
    first, second = answer.split("\n\n")
    assert first.startswith(f"Asked “{FIRST}”") and first.endswith(
        "\n- Answered before a later correction to the rows, tables or columns; ask it again to redo it with that."
    )
    assert second.startswith(f"Asked “{SECOND}”") and "correction" not in second
    analysis = last(team["session"], "collaborative_response", sender="analyst")
    assert "ask it again to redo it with that" in sections_of(analysis)["Earlier questions"]["body"]


def test_a_template_without_an_answer_section_still_gets_the_answer_first(team):
    from agents.models import TaskTemplate

    titles = ["Data and method", "Column profiles", "Descriptive statistics", "Group comparisons", "Limitations"]
    TaskTemplate.objects.filter(slug="data-analysis").update(
        deliverable_sections=[{"title": t, "description": "", "required": True} for t in titles]
    )
    attach_baskets(team["session"], extra=BIG_WEST_BASKET)
    plan_and_run(team, FIRST)
    written = delivered(team)["payload"]["content"]["sections"]
    assert [s["title"] for s in written] == [
        "Answer",
        "Group comparisons",
        "Descriptive statistics",
        "Column profiles",
        "Data and method",
        "Limitations",
    ]
    assert written[0]["body"].startswith(f"Asked “{FIRST}”, the analysis finds: west has the highest mean basket")
