import json

import networkx as nx
import pytest

from sessions.chap.schemas import validate_envelope
from sessions.chap.summary import layered_summary
from tests.sessions.envelopes import build, declaration, envelope, feedback, proposal, response


def status(graph, node) -> str:
    return graph.graph.nodes[node]["status"]


def statuses(graph, *nodes) -> dict:
    return {node: status(graph, node) for node in nodes}


def standard_session():
    """proposal → declaration (3 steps) → response to step 1 → response to step 2 replying to the first."""
    return (
        proposal(message_id="t"),
        declaration(message_id="d", in_reply_to="t"),
        response(message_id="r1", step=1, in_reply_to="d"),
        response(message_id="r2", step=2, in_reply_to="r1", assumptions=()),
    )


def test_messages_and_their_units_become_typed_nodes_and_edges():
    graph = build(*standard_session())
    g = graph.graph
    assert g.nodes["t#goal:0"]["kind"] == "goal"
    assert g.nodes["t#constraint:deadline"]["label"] == "deadline: 2024-01-20"
    assert g.edges["d#step:2", "t#goal:0"]["type"] == "decomposes"
    assert g.edges["r1", "d#step:1"]["type"] == "fulfils"
    assert g.edges["r1", "r1#assumption:0"]["type"] == "assumes"
    assert g.edges["r1", "r1#source:0"]["type"] == "cites"
    assert g.edges["r1#section:market", "r1"]["type"] == "part_of"
    assert g.edges["r2", "r1"]["type"] == "responds_to"
    assert g.nodes["r1#section:market"]["confidence"] == 0.4
    assert statuses(graph, "r1#question:0", "d#step:1", "d#step:3") == {
        "r1#question:0": "open",
        "d#step:1": "in_progress",
        "d#step:3": "proposed",
    }


def test_correcting_an_assumption_overturns_it_and_flags_what_derives_from_it():
    graph = build(*standard_session(), feedback("r1", part={"kind": "assumption", "index": 0}, message_id="c1"))
    assert status(graph, "r1#assumption:0") == "overturned"
    flagged = {"r1", "r1#section:intro", "r1#section:market", "r1#uncertainty:0", "r2"}
    for node in flagged:
        assert status(graph, node) == "needs_review", node
    assert status(graph, "r1#question:0") == "open"  # what it asks still waits for an answer
    assert status(graph, "t#goal:0") == "in_progress"
    assert status(graph, "d#step:1") == "in_progress"
    r2_units = {n for n in graph.graph if n.startswith("r2#") and "#source:" not in n and "#question:" not in n}
    assert graph.affected_by("c1") == flagged | {"r1#assumption:0"} | r2_units
    assert status(graph, "r2#source:0") == "done"  # a source r2 cites does not derive from r2


def test_diamond_is_flagged_once_and_completely():
    # a ← b, a ← c, b ← d, c ← d : correcting a flags b, c and d.
    messages = [
        envelope("summary", {"text": "a"}, message_id="a"),
        envelope("summary", {"text": "b"}, message_id="b", in_reply_to="a"),
        envelope("summary", {"text": "c"}, message_id="c", in_reply_to="a"),
        envelope("summary", {"text": "d"}, message_id="d", in_reply_to="b"),
    ]
    graph = build(*messages)
    graph.graph.add_edge("d", "c", type="depends_on")
    graph.apply(5, validate_envelope(feedback("a", message_id="fix")))
    assert statuses(graph, "a", "b", "c", "d") == {
        "a": "overturned",
        "b": "needs_review",
        "c": "needs_review",
        "d": "needs_review",
    }
    assert [event for event in graph.graph.nodes["d"]["events"]] == [("fix", "needs_review")]


def test_correction_of_a_correction_restores_what_the_first_one_changed():
    graph = build(
        *standard_session(),
        feedback("r1", feedback_type="approval", message_id="ok"),
        feedback("r1", part={"kind": "assumption", "index": 0}, message_id="c1"),
        response(message_id="r3", in_reply_to="c1", assumptions=("Recent means since 2022",)),
        feedback("c1", message_id="c2"),
    )
    assert status(graph, "r1#assumption:0") == "proposed"
    assert status(graph, "r1") == "done"
    assert status(graph, "c1") == "overturned"
    assert status(graph, "r3") == "needs_review"
    assert status(graph, "r2") == "proposed"
    assert "r3" in graph.affected_by("c2")


def test_approval_marks_done_and_completes_the_step_it_fulfils():
    graph = build(*standard_session(), feedback("r1", feedback_type="approval", message_id="ok"))
    assert statuses(graph, "r1", "d#step:1") == {"r1": "done", "d#step:1": "done"}


@pytest.mark.parametrize("feedback_type", ["approval", "correction", "refinement"])
def test_an_agents_feedback_is_a_suggestion_that_changes_no_status(feedback_type):
    graph = build(
        *standard_session(),
        feedback("r1", feedback_type=feedback_type, message_id="fb", sender=("agent", "reviewer")),
    )
    before = build(*standard_session())
    nodes = [node for node in before.graph if node != "fb"]
    assert statuses(graph, *nodes) == statuses(before, *nodes)
    assert graph.graph.nodes["fb"]["suggestion"] is True and ("fb", "r1") in graph.graph.edges


def test_refinement_asks_for_review_of_its_target_only():
    graph = build(
        *standard_session(), feedback("r1", feedback_type="refinement", part={"kind": "section", "id": "market"})
    )
    assert status(graph, "r1#section:market") == "needs_review"
    assert status(graph, "r2") == "proposed"


def test_new_direction_on_the_goal_flags_the_plan_and_the_work():
    graph = build(*standard_session(), feedback("t", feedback_type="new_direction", part=None, message_id="nd"))
    assert status(graph, "t") == "overturned"
    for node in ("t#goal:0", "d", "d#step:1", "d#step:3", "r1", "r2"):
        assert status(graph, node) == "needs_review", node


def test_quoted_span_targets_its_section():
    part = {"kind": "quote", "id": "market", "quote": "More.", "start": 0, "end": 5}
    graph = build(*standard_session(), feedback("r1", part=part, message_id="q"))
    assert status(graph, "r1#section:market") == "overturned"
    assert json.loads(graph.graph.edges["q", "r1#section:market"]["part"])["quote"] == "More."


def test_feedback_on_an_unknown_target_adds_only_the_message():
    graph = build(*standard_session(), feedback("nope", message_id="f"))
    assert list(graph.graph.successors("f")) == []


def test_clarification_answer_closes_the_question():
    graph = build(
        envelope("clarification", {"question": "Which?", "options": [{"id": "a", "label": "A"}]}, message_id="q"),
        envelope("clarification_answer", {"clarification_message_id": "q", "option_id": "a"}, message_id="ans"),
    )
    assert status(graph, "q") == "done" and graph.graph.edges["ans", "q"]["type"] == "answers"


def test_unseen_redirects_only_when_they_touch_what_the_reply_builds_on():
    graph = build(*standard_session(), feedback("r1", part={"kind": "assumption", "index": 0}, message_id="c1"))
    assert graph.unseen_redirects(since_seq=4, in_reply_to="r2") == ["c1"]
    assert graph.unseen_redirects(since_seq=4, in_reply_to="r1") == ["c1"]
    assert graph.unseen_redirects(since_seq=4, in_reply_to="t") == []
    assert graph.unseen_redirects(since_seq=5, in_reply_to="r2") == []
    assert graph.unseen_redirects(since_seq=4, in_reply_to=None) == []


def test_apply_refuses_gaps():
    graph = build(proposal())
    with pytest.raises(ValueError, match="gap"):
        graph.apply(3, validate_envelope(proposal()))


def test_exports_round_trip_through_networkx():
    graph = build(*standard_session(), feedback("r1", message_id="c1"))
    data = graph.node_link()
    assert {node["id"] for node in data["nodes"]} == set(graph.graph)
    again = nx.node_link_graph(data, edges="edges")
    assert again.number_of_edges() == graph.graph.number_of_edges()
    parsed = nx.parse_graphml(graph.graphml())
    assert parsed.nodes["r1"]["status"] == "overturned"
    assert parsed.edges["r2", "r1"]["type"] == "responds_to"


def test_summary_is_read_off_the_graph():
    graph = build(
        *standard_session(),
        feedback("r1", feedback_type="approval", message_id="ok"),
        feedback("r2", part={"kind": "section", "id": "market"}, message_id="c1"),
    )
    summary = layered_summary(graph)
    assert summary["goal"]["label"] == "Write a short report on battery suppliers"
    assert [d["type"] for d in summary["decisions"]] == ["approval", "correction"]
    assert {f["node"] for f in summary["facts_agreed"]} >= {"r1"}
    assert [a["node"] for a in summary["assumptions_in_force"]] == ["r1#assumption:0"]
    # Correcting a section of r2 puts what r2 says in doubt; what it asks still waits for an answer.
    # r1's question does not: r2, the analyst's newer report, asks again what the analyst still needs.
    assert {q["node"] for q in summary["open_questions"]} == {"r2#question:0"}
    assert status(graph, "r2#question:0") == "open" and status(graph, "r2") == "needs_review"
    assert [(p["step"], p["status"]) for p in summary["plan"]] == [(1, "done"), (2, "in_progress"), (3, "proposed")]
    assert summary["plan"][2]["requires_approval"] is True


def test_answering_a_responses_open_question_closes_it():
    answer = envelope(
        "clarification_answer", {"clarification_message_id": "r1", "question_index": 0, "free_answer": "Business"}
    )
    graph = build(*standard_session(), answer)
    assert status(graph, "r1#question:0") == "done"
    assert status(graph, "r2#question:0") == "open"
