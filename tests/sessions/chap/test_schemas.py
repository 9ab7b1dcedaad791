import pytest

from protocol.errors import ProtocolError
from sessions.chap.schemas import PAYLOADS, validate_envelope
from tests.sessions.envelopes import declaration, envelope, feedback, proposal, response


def refusal(message) -> dict:
    with pytest.raises(ProtocolError) as caught:
        validate_envelope(message)
    assert caught.value.code == "INVALID_MESSAGE"
    return caught.value.details


@pytest.mark.parametrize("factory", [proposal, declaration, response, lambda: feedback("m1")])
def test_valid_messages_pass_and_get_defaults(factory):
    checked = validate_envelope(factory())
    assert checked["chap_version"] == "1.0"


def test_feedback_priority_defaults_to_medium():
    assert validate_envelope(feedback("m1"))["payload"]["priority"] == "medium"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda m: m.pop("sender"), {"missing": ["sender"]}),
        (lambda m: m.update(chap_version="2.0"), {"violations": {"chap_version": "must be one of ['1.0'], got '2.0'"}}),
        (
            lambda m: m.update(timestamp="yesterday"),
            {"invalid": {"timestamp": "expected date (ISO 8601, e.g. 2024-01-15), got 'yesterday'"}},
        ),
        (
            lambda m: m["sender"].update(type="robot"),
            {"violations": {"sender.type": "must be one of ['human', 'agent', 'system'], got 'robot'"}},
        ),
        (lambda m: m.update(context_checksum="xyz"), {"violations": {"context_checksum": "must match [0-9a-f]{16}"}}),
        (lambda m: m.update(payload_type="chat"), None),
        (
            lambda m: m.update(message_id="has space"),
            {"violations": {"message_id": "must match [A-Za-z0-9_.:-]{1,128}"}},
        ),
        (lambda m: m.update(in_reply_to=7), {"invalid": {"in_reply_to": "expected string, got number"}}),
    ],
)
def test_envelope_rules(change, expected):
    message = proposal()
    change(message)
    details = refusal(message)
    if expected is not None:
        assert details == expected


def test_in_reply_to_may_be_null():
    assert validate_envelope(proposal(in_reply_to=None))["in_reply_to"] is None


@pytest.mark.parametrize(
    ("payload_type", "payload", "expected"),
    [
        ("task_proposal", {}, {"missing": ["payload.goal"]}),
        (
            "task_proposal",
            {"goal": "ok goal", "constraints": {"deadline": "soon"}},
            {"invalid": {"payload.constraints.deadline": "expected date (ISO 8601, e.g. 2024-01-15), got 'soon'"}},
        ),
        (
            "collaborative_response",
            {"content": {"body": "x"}, "confidence_score": 1.5},
            {"violations": {"payload.confidence_score": "must be at most 1"}},
        ),
        (
            "collaborative_response",
            {
                "content": {"body": "x"},
                "confidence_score": 0.5,
                "supporting_materials": [{"type": "ref", "citation": "c", "confidence_in_source": "certain"}],
            },
            {
                "violations": {
                    "payload.supporting_materials[0].confidence_in_source": "must be one of ['low', 'medium', 'high'], got 'certain'"
                }
            },
        ),
        (
            "collaborative_response",
            {"content": {"sections": []}, "confidence_score": 0.5},
            {"invalid": {"payload.content.body": "required"}},
        ),
        (
            "human_feedback",
            {"target_message_id": "m1", "feedback_type": "praise"},
            {
                "violations": {
                    "payload.feedback_type": "must be one of ['refinement', 'correction', 'approval', 'new_direction'], got 'praise'"
                }
            },
        ),
        (
            "human_feedback",
            {"target_message_id": "m1", "feedback_type": "correction", "target_part": {"kind": "quote", "start": -1}},
            {"violations": {"payload.target_part.start": "must be at least 0"}},
        ),
        (
            "agent_capability_declaration",
            {"can_do": [], "estimated_resources": {"time_to_first_draft": "90 minutes"}},
            {
                "violations": {
                    "payload.estimated_resources.time_to_first_draft": "must match P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?"
                }
            },
        ),
        (
            "agent_capability_declaration",
            {"can_do": [{"scope": "x"}]},
            {"invalid": {"payload.can_do[0].action": "required"}},
        ),
        (
            "clarification",
            {"question": "Which?", "options": [{"id": "a"}]},
            {"invalid": {"payload.options[0].label": "required"}},
        ),
        (
            "agent_status",
            {"activity": "reading", "progress": {"done": -1}},
            {"violations": {"payload.progress.done": "must be at least 0"}},
        ),
        ("task_proposal", {"goal": "ok goal", "goall": 1}, {"unknown": {"payload.goall": "goal"}}),
        (
            "task_proposal",
            {"goal": "ok goal", "ontology": [{"system": "SNOMED-CT"}]},
            {"invalid": {"payload.ontology[0].code": "required"}},
        ),
    ],
)
def test_payload_rules(payload_type, payload, expected):
    assert refusal(envelope(payload_type, payload)) == expected


def test_ontology_references_are_kept():
    onto = [{"system": "SNOMED-CT", "code": "386661006", "label": "fever"}]
    checked = validate_envelope(envelope("task_proposal", {"goal": "Assess fever cases", "ontology": onto}))
    assert checked["payload"]["ontology"] == onto


def test_every_payload_type_has_a_schema():
    assert set(PAYLOADS) >= {
        "task_proposal",
        "agent_capability_declaration",
        "collaborative_response",
        "human_feedback",
        "clarification",
        "clarification_answer",
        "agent_status",
        "checkpoint",
        "summary",
        "error",
    }


def test_not_an_object():
    with pytest.raises(ProtocolError, match="JSON object"):
        validate_envelope(["not", "a", "message"])


def test_nul_characters_are_refused_everywhere_in_a_message():
    message = proposal(goal="a goal with \x00 inside")
    with pytest.raises(ProtocolError, match="NUL") as caught:
        validate_envelope(message)
    assert caught.value.code == "INVALID_MESSAGE"


def test_an_escaped_backslash_before_u0000_is_just_text():
    assert validate_envelope(proposal(goal="the six characters \\u0000 are fine"))["payload"]["goal"].endswith("fine")
