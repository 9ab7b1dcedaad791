"""Values written as JSON: the fast writer gives exactly what ``json_safe`` gives, exotic values included."""

import json
from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.sap.values import SAFE_INTEGER, json_plain, json_safe, json_text

EXOTIC = [
    float("nan"),
    float("inf"),
    -float("inf"),
    SAFE_INTEGER + 1,
    -(10**20),
    10**16,
    "\ud800 lone",
    b"\x00\xff",
    date(2026, 12, 6),
    datetime(2026, 12, 6, 10, 30),
    Decimal("1.5"),
    Decimal("1e400"),
    ("a", 1),
]
exotic = st.sampled_from(EXOTIC)
scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text() | exotic | st.just("12345678901234567")
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(values)
def test_json_text_reads_back_as_json_safe(value):
    assert json.loads(json_text(value)) == json_safe(value)


@given(values)
def test_the_plain_value_is_what_the_text_says(value):
    """A tool result's structured content and its text must not disagree."""
    text, plain = json_plain(value)
    assert json.loads(json.dumps(plain, allow_nan=False)) == json.loads(text) == json_safe(value)


@pytest.mark.parametrize("value", EXOTIC, ids=repr)
def test_each_exotic_value_is_written_as_json_safe_writes_it(value):
    assert json.loads(json_text({"value": [value]})) == json_safe({"value": [value]})


def test_a_huge_integer_is_written_as_its_digits():
    assert json_text({"id": 2**60, "small": 2**40}) == f'{{"id": "{2**60}", "small": {2**40}}}'
