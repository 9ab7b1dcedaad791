"""The payload traits registry: every payload type has traits and, when the thread shows it, a partial
that exists; the lists read off it are the ones the workbench used before it (written out here)."""

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from sessions.chap import layout, traits
from sessions.chap.labels import payload_label
from sessions.chap.schemas import PAYLOAD_TYPES, PAYLOADS, SENDERS
from sessions.chap.traits import TRAITS, PayloadTraits

SHOWN_IN_THREAD = {
    "task_proposal",
    "agent_capability_declaration",
    "collaborative_response",
    "human_feedback",
    "clarification",
    "clarification_answer",
    "checkpoint",
    "summary",
    "error",
    "session_event",
}


def test_every_payload_type_has_traits_and_no_other_has():
    assert set(TRAITS) == set(PAYLOADS)


@pytest.mark.parametrize("payload_type", PAYLOAD_TYPES)
def test_a_payload_type_the_thread_shows_has_a_partial_that_exists(payload_type):
    template = TRAITS[payload_type].template
    if payload_type in SHOWN_IN_THREAD:
        assert (
            get_template(template).template.name == f"workspace/partials/payloads/{TRAITS[payload_type].renderer}.html"
        )
    else:
        assert template is None


def test_a_renderer_without_a_partial_is_found_missing():
    made_up = PayloadTraits(label="x", senders=traits.HUMAN, map_shape="result", renderer="no_such_payload")
    with pytest.raises(TemplateDoesNotExist):
        get_template(made_up.template)


def test_the_senders_table_is_the_one_docs_chap_md_lists():
    assert {
        "task_proposal": {"human"},
        "agent_capability_declaration": {"agent"},
        "collaborative_response": {"agent"},
        "human_feedback": {"human"},
        "clarification": {"agent"},
        "clarification_answer": {"human"},
        "agent_status": {"agent"},
        "checkpoint": {"human", "system"},
        "summary": {"agent", "system"},
        "error": {"agent", "system"},
        "task_event": {"system"},
        "session_event": {"system"},
        "operation_record": {"system"},
    } == SENDERS
    assert tuple(SENDERS) == PAYLOAD_TYPES


def test_the_lists_read_off_the_traits_are_the_hand_written_ones_they_replace():
    assert {"agent_status", "operation_record", "task_event"} == traits.THREAD_HIDDEN
    assert {"task_event", "agent_status", "operation_record"} == traits.SCHEDULE_CHANGES
    assert {
        "agent_status",
        "operation_record",
        "task_event",
        "agent_capability_declaration",
        "clarification",
        "clarification_answer",
        "collaborative_response",
        "human_feedback",
    } == traits.REFRESHES_SIDE_PANELS
    assert {"agent_status", "operation_record"} == traits.TIMELINE_HIDDEN
    assert {"task_proposal", "checkpoint"} == traits.TIMELINE_LANDMARKS
    assert set(SHOWN_IN_THREAD) == set(PAYLOAD_TYPES) - traits.THREAD_HIDDEN


def test_the_map_reads_its_columns_and_folds_off_the_traits():
    assert {"operation", "task_event", "agent_status", "session_event"} == layout.ACTIVITY
    assert layout.FOLDED_WORDS == {
        "operation": ("operation", "operations"),
        "task_event": ("task event", "task events"),
        "agent_status": ("status update", "status updates"),
        "session_event": ("session event", "session events"),
    }
    columns = {kind: layout.COLUMNS[column] for kind, column in layout.COLUMN_OF.items()}
    assert columns == {
        "task_proposal": "goal",
        "checkpoint": "goal",
        "agent_capability_declaration": "plan",
        "clarification": "plan",
        "collaborative_response": "result",
        "summary": "result",
        "error": "result",
        "human_feedback": "decision",
        "clarification_answer": "decision",
        "step": "step",
        "section": "part",
        "assumption": "part",
        "question": "part",
    }


def test_every_payload_type_is_named_in_words():
    assert {kind: payload_label(kind) for kind in PAYLOAD_TYPES} == {
        "task_proposal": "task",
        "agent_capability_declaration": "plan",
        "collaborative_response": "report",
        "human_feedback": "feedback",
        "clarification": "question",
        "clarification_answer": "answer",
        "agent_status": "status update",
        "checkpoint": "checkpoint",
        "summary": "summary",
        "error": "problem report",
        "task_event": "scheduling change",
        "session_event": "session change",
        "operation_record": "operation",
    }


def test_traits_refuse_a_shape_the_map_does_not_draw_and_folds_without_badge_words():
    with pytest.raises(ValueError, match="map_shape"):
        PayloadTraits(label="x", senders=traits.HUMAN, map_shape="circle", renderer=None)
    with pytest.raises(ValueError, match="badge words"):
        PayloadTraits(label="x", senders=traits.SYSTEM, map_shape="folded", renderer=None)
