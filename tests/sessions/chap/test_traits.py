"""The payload traits registries, read from one source: every payload type of the schemas has core
traits and a workspace view; every partial a view names exists; the senders table is the one
docs/chap.md prints; and the lists the workbench reads off the registries keep their rules."""

import re
from pathlib import Path

import pytest
from django.template.loader import get_template

from sessions.chap import layout, traits
from sessions.chap.labels import payload_label
from sessions.chap.schemas import PAYLOAD_TYPES, PAYLOADS, SENDER_TYPES, SENDERS
from sessions.chap.traits import TRAITS, PayloadTraits, node_kind
from workspace.traits import REFRESHES_SIDE_PANELS, THREAD_HIDDEN, VIEWS

CHAP_MD = Path(__file__).resolve().parents[3] / "docs" / "chap.md"


def senders_in_docs() -> dict[str, set[str]]:
    """The table under "Who may post what" in docs/chap.md: payload type -> the senders marked yes."""
    text = CHAP_MD.read_text()
    table = text[text.index("### Who may post what") :].split("\n\n")[2]
    header, _, *rows = table.splitlines()
    columns = [cell.split()[0] for cell in header.strip("|").split("|")[1:]]
    found: dict[str, set[str]] = {}
    for row in rows:
        first, *cells = (cell.strip() for cell in row.strip("|").split("|"))
        for payload_type in re.findall(r"`(\w+)`", first):
            assert payload_type not in found, f"{payload_type} is listed twice"
            found[payload_type] = {column for column, cell in zip(columns, cells, strict=True) if cell == "yes"}
    return found


def test_every_payload_type_has_traits_and_a_view_and_no_other_has():
    assert set(TRAITS) == set(PAYLOADS) == set(VIEWS)


@pytest.mark.parametrize("payload_type", PAYLOAD_TYPES)
def test_the_partial_a_view_names_exists_and_only_hidden_types_have_none(payload_type):
    template = VIEWS[payload_type].template
    if template is None:
        assert payload_type in THREAD_HIDDEN
    else:
        assert payload_type not in THREAD_HIDDEN
        assert (
            get_template(template).template.name == f"workspace/partials/payloads/{VIEWS[payload_type].renderer}.html"
        )


def test_the_senders_table_is_the_one_docs_chap_md_lists():
    assert senders_in_docs() == SENDERS
    assert tuple(SENDERS) == PAYLOAD_TYPES
    assert {sender for allowed in SENDERS.values() for sender in allowed} == set(SENDER_TYPES)


def test_what_the_thread_hides_the_status_bar_shows():
    assert THREAD_HIDDEN and THREAD_HIDDEN <= REFRESHES_SIDE_PANELS


def test_a_timeline_landmark_is_listed_in_the_timeline():
    assert traits.TIMELINE_LANDMARKS and not traits.TIMELINE_LANDMARKS & traits.TIMELINE_HIDDEN


@pytest.mark.parametrize("payload_type", PAYLOAD_TYPES)
def test_the_map_folds_a_payload_type_or_stands_it_in_its_shapes_column(payload_type):
    shape, kind = TRAITS[payload_type].map_shape, node_kind(payload_type)
    if shape == "folded":
        assert kind in layout.ACTIVITY and kind not in layout.COLUMN_OF
        assert layout.FOLDED_WORDS[kind] == TRAITS[payload_type].badge_words
    else:
        assert kind not in layout.ACTIVITY and layout.COLUMNS[layout.COLUMN_OF[kind]] == shape


def test_the_map_folds_only_payload_types_and_places_the_parts_of_messages():
    folded = {node_kind(kind) for kind, t in TRAITS.items() if t.map_shape == "folded"}
    assert layout.ACTIVITY == folded == set(layout.FOLDED_WORDS)
    messages = {node_kind(kind) for kind in PAYLOAD_TYPES}
    parts = {kind: layout.COLUMNS[column] for kind, column in layout.COLUMN_OF.items() if kind not in messages}
    assert parts == {"step": "step", "section": "part", "assumption": "part", "question": "part"}


def test_every_payload_type_is_named_in_words_of_its_own():
    words = {kind: payload_label(kind) for kind in PAYLOAD_TYPES}
    assert words == {kind: TRAITS[kind].label for kind in PAYLOAD_TYPES}
    assert all(words.values()) and len(set(words.values())) == len(words)


def test_traits_refuse_a_shape_the_map_does_not_draw_and_folds_without_badge_words():
    with pytest.raises(ValueError, match="map_shape"):
        PayloadTraits(label="x", senders=traits.HUMAN, map_shape="circle")
    with pytest.raises(ValueError, match="badge words"):
        PayloadTraits(label="x", senders=traits.SYSTEM, map_shape="folded")
