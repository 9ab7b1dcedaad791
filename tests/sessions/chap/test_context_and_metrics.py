from sessions.chap.context import build_agent_context, estimate_tokens
from sessions.chap.metrics import process_metrics
from sessions.chap.schemas import validate_envelope
from tests.sessions.envelopes import build, declaration, envelope, feedback, proposal, response


def test_token_estimate_counts_cjk_characters_one_each():
    assert estimate_tokens("数据分析") == 4
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("数据 abcd") == 2 + 2


def long_session(turns: int):
    messages = [proposal(message_id="t"), declaration(message_id="d", in_reply_to="t")]
    for n in range(turns):
        messages.append(
            response(message_id=f"r{n}", in_reply_to="d", questions=(f"Question {n}?",) if n % 50 == 0 else ())
        )
        messages.append(feedback(f"r{n}", feedback_type="refinement", message_id=f"f{n}", in_reply_to=f"r{n}"))
    messages.append(
        envelope("summary", {"text": "the lithium supplier table needs a 2023 column"}, message_id="needle")
    )
    return messages


def test_context_stays_in_budget_and_always_holds_open_questions():
    messages = long_session(200)
    graph = build(*messages)
    pairs = [(seq, validate_envelope(m)) for seq, m in enumerate(messages, start=1)]
    context = build_agent_context(graph, pairs, task_message_id="r150", budget=2000)
    assert context["tokens"] <= 2000
    for n in range(0, 200, 50):
        assert f"r{n}#question:0" in context["text"]
    assert context["sections"][:2] == ["goal", "attention"]
    assert "r150" in context["messages"] and "f150" in context["messages"] and "d" in context["messages"]
    assert "GOAL: Write a short report" in context["text"]


def test_relevant_older_messages_are_found_by_their_words():
    messages = long_session(30)
    messages.append(envelope("summary", {"text": "What about the lithium supplier table?"}, message_id="ask"))
    graph = build(*messages)
    pairs = [(seq, validate_envelope(m)) for seq, m in enumerate(messages, start=1)]
    context = build_agent_context(graph, pairs, task_message_id="ask", budget=600)
    assert "needle" in context["messages"]


def test_process_metrics():
    messages = [
        proposal(message_id="t"),
        declaration(message_id="d", in_reply_to="t"),
        response(message_id="r1", step=1, questions=("a?", "b?")),
        feedback("r1", feedback_type="correction", message_id="c1"),
        response(message_id="r2", step=1, questions=()),
        envelope("human_feedback", {"target_message_id": "r2", "feedback_type": "approval"}, message_id="ok"),
    ]
    messages[2]["timestamp"] = "2024-01-15T11:00:00Z"
    messages[4]["timestamp"] = "2024-01-15T11:30:00Z"
    messages[5]["timestamp"] = "2024-01-15T12:00:00Z"
    graph = build(*messages)
    pairs = [(seq, validate_envelope(m)) for seq, m in enumerate(messages, start=1)]
    metrics = process_metrics(graph, pairs)
    assert metrics["rounds_to_consensus"] == {"step 1": 2, "step 2": None, "step 3": None}
    assert metrics["human_corrections"] == 1
    assert metrics["agent_questions_per_response"] == 1.0
    assert metrics["time_to_first_draft_s"] == 1800.0
    assert metrics["approval_wait_s"] == 1800.0
