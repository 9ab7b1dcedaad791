"""History review, deliverables and retrospectives in plain Python: no database."""

from sessions.chap.deliverable import deliverable_markdown, final_deliverable
from sessions.chap.history import difference, replay, statuses
from sessions.chap.retrospective import CHART_POINTS, line_chart, metrics_over_time, resources_used
from sessions.chap.schemas import validate_envelope
from sessions.chap.text import MATCH_END, MATCH_START, searchable_text, snippet_parts
from tests.sessions import envelopes


def story() -> list[tuple[int, dict]]:
    messages = [
        envelopes.proposal(message_id="t"),
        envelopes.declaration(message_id="d", in_reply_to="t"),
        envelopes.response(message_id="r1", step=1, in_reply_to="d"),
        envelopes.feedback("r1", feedback_type="approval", message_id="a1"),
        envelopes.response(message_id="r2", in_reply_to="t", sections=(("final", 0.85),)),
        envelopes.feedback("r1", part={"kind": "assumption", "index": 0}, message_id="c1"),
    ]
    return [(seq, validate_envelope(m)) for seq, m in enumerate(messages, start=1)]


def test_replay_stops_at_a_message_and_an_earlier_point_holds_less():
    context, marked = replay("s", story(), until=4), statuses(replay("s", story(), until=2))
    assert context.seq == 4 and "r2" not in context.graph
    assert set(marked) < set(context.graph) and "r1" not in marked
    assert context.graph.nodes["r1"]["status"] == "done"  # approved at message 4


def test_difference_names_what_was_added_decided_and_overturned():
    after, before = replay("s", story(), until=6), statuses(replay("s", story(), until=2))
    diff = difference(before, after)
    added = {n["node"] for n in diff["added"]}
    assert {"r1", "a1", "r2", "c1"} <= added and "t" not in added
    assert [(d["node"], d["type"]) for d in diff["decisions"]] == [("a1", "approval"), ("c1", "correction")]
    assert "d#step:1" in {n["node"] for n in diff["settled"]}  # the approval completed the step r1 fulfils
    assert [n["node"] for n in diff["overturned"]] == ["r1#assumption:0"]
    assert diff["overturned"][0]["cause"] == "c1"
    assert "r1" in {n["node"] for n in diff["needs_review"]}


def test_no_difference_between_a_point_and_itself():
    context = replay("s", story(), until=5)
    before = statuses(replay("s", story(), until=5))
    assert before == statuses(context)
    assert difference(before, context) == {
        k: [] for k in ("added", "machinery", "decisions", "settled", "overturned", "needs_review")
    }


def test_searchable_text_holds_the_words_not_the_ids():
    text = searchable_text(story()[2][1])
    assert "analyst" in text and "Recent means since 2021" in text and "Smith 2023" in text
    assert "step_1" not in text and "markdown" not in text


def test_snippet_parts_mark_the_matches_and_keep_the_rest():
    marked = f"the {MATCH_START}battery{MATCH_END} market and {MATCH_START}cells{MATCH_END}"
    assert snippet_parts(marked) == [("the ", False), ("battery", True), (" market and ", False), ("cells", True)]
    assert snippet_parts("<b>no match</b>") == [("<b>no match</b>", False)]


def written_and_reviewed() -> list[tuple[int, dict]]:
    """The story, then a written report from r2, a review of it, and a later analysis nobody wrote up."""
    written = envelopes.response(message_id="w1", in_reply_to="r2", sender=("agent", "scribe"))
    written["payload"]["provenance"] = {"deliverable": True}
    review = envelopes.response(message_id="v1", in_reply_to="w1", sender=("agent", "reviewer"))
    review["payload"]["provenance"] = {"review_of": "w1"}
    later = envelopes.response(message_id="r3", in_reply_to="t")
    extra = [validate_envelope(m) for m in (written, review, later)]
    return story() + list(enumerate(extra, start=len(story()) + 1))


def test_the_final_deliverable_is_the_written_report_that_stands_with_its_review():
    messages = written_and_reviewed()
    context = replay("s", messages, until=9)
    delivered = final_deliverable(context, messages)
    assert delivered.envelope["message_id"] == "w1"  # the later analysis r3 is not the deliverable
    assert delivered.review["message_id"] == "v1" and delivered.title == "the written report by scribe"
    assert context.graph.nodes["r2"]["superseded_by"] == "r3" and "superseded_by" not in context.graph.nodes["w1"]


def test_without_a_written_report_the_latest_standing_report_is_delivered():
    messages = story()
    context = replay("s", messages, until=6)
    assert final_deliverable(context, messages).envelope["message_id"] == "r2"  # r2 replaced r1
    context = replay("s", messages, until=4)
    delivered = final_deliverable(context, messages[:4])
    assert delivered.envelope["message_id"] == "r1" and delivered.standing == "approved, not reviewed yet"
    context = replay("s", messages, until=2)
    assert final_deliverable(context, messages[:2]) is None


def test_deliverable_markdown_carries_its_review_sources_confidence_and_provenance():
    messages = written_and_reviewed()
    text = deliverable_markdown(
        final_deliverable(replay("s", messages, until=8), messages[:8]), title="Battery | market"
    )
    assert text.startswith("<!-- Battery | market: message w1 by agent:scribe")
    assert "**Status:** not yet approved, reviewed by reviewer" in text
    assert "## Review by reviewer\n\n- Intro: intro text\n- Market: market text" in text
    assert "AI-generated by the agent scribe" in text
    text = deliverable_markdown(final_deliverable(replay("s", story(), until=5), story()[:5]), title="Battery | market")
    assert text.startswith("<!-- Battery | market: message r2 by agent:analyst")
    assert "## Intro\nText." in text and "| Final | 0.85 |" in text
    assert "## Sources\n\n1. [1] Smith 2023 (confidence: high)" in text
    assert (
        "- Recent means since 2021" in text and "hardware error rates: few data (to reduce it: check reports)" in text
    )
    assert "AI-generated by the agent analyst" in text and "not yet approved" in text


def test_resources_count_operations_and_each_tasks_last_token_count():
    def status(task, tokens):
        return envelopes.envelope(
            "agent_status",
            {"activity": "x", "state": "working", "task_id": task, "resources_used": {"llm_tokens": tokens}},
            sender=("agent", "writer"),
        )

    record = envelopes.envelope("operation_record", {"operation": "file.list"}, sender=("system", "workbench"))
    messages = list(enumerate([status("1", 10), status("1", 70), status("2", 5), record, record], start=1))
    assert resources_used(messages) == {"sap_operations": 2, "llm_tokens": 75}


def test_metrics_over_time_run_up_and_are_thinned_for_a_chart():
    points = metrics_over_time(story())
    assert [p["responses"] for p in points] == [0, 0, 1, 1, 2, 2]
    assert points[-1] == {"seq": 6, "responses": 2, "questions": 2, "corrections": 1, "approvals": 1}
    long = [(seq, story()[2][1]) for seq in range(1, 1001)]
    thinned = metrics_over_time(long)
    assert len(thinned) <= CHART_POINTS + 1 and thinned[-1]["responses"] == 1000
    chart = line_chart(thinned)
    assert chart["max"] == 1000 and len(chart["lines"]) == 4
    assert chart["lines"][0]["points"].split()[-1] == f"{chart['width'] - 28:.1f},28.0"  # the top right corner
    assert line_chart([])["lines"] == []
