"""Property tests: chunking never changes the result, the serializer round-trips, bytes never crash."""

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.sap import Block, ParseError, StreamParser, Text, format_block, parse

names = st.from_regex(
    r"[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,4})?(\.[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,4})?){1,2}", fullmatch=True
)
ids = st.none() | st.from_regex(r"[A-Za-z0-9_.:-]{1,12}", fullmatch=True)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
bodies = st.dictionaries(st.text(max_size=10), json_values, max_size=5)
block_types = st.sampled_from(["query", "action", "describe", "result", "error", "event"])
prose_alphabet = st.sampled_from([*list('ab @\n#:{}.\r\t"é数'), "@@", "@@end", "\n@@end\n", "@@query"])
prose = st.lists(prose_alphabet, max_size=30).map("".join)


@st.composite
def streams(draw):
    pieces = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            pieces.append(draw(prose))
            if pieces[-1] and not pieces[-1].endswith("\n"):
                pieces[-1] += "\n"
        else:
            pieces.append(format_block(draw(block_types), draw(names), draw(bodies), draw(ids)))
    if draw(st.booleans()):
        pieces.append(draw(prose))
    return "".join(pieces)


def feed_with_cuts(text: str, cuts: list[int]) -> list:
    parser = StreamParser()
    out, previous = [], 0
    for cut in [*sorted({c % (len(text) + 1) for c in cuts}), len(text)]:
        out.extend(parser.feed(text[previous:cut]))
        previous = cut
    return out + parser.close()


@settings(max_examples=300, deadline=None)
@given(streams(), st.lists(st.integers(0, 10_000), max_size=40))
def test_any_chunking_gives_the_same_output(text, cuts):
    assert feed_with_cuts(text, cuts) == parse(text)


@settings(max_examples=200, deadline=None)
@given(prose, st.lists(st.integers(0, 10_000), max_size=20))
def test_any_chunking_of_arbitrary_prose_gives_the_same_output(text, cuts):
    assert feed_with_cuts(text, cuts) == parse(text)


@settings(max_examples=200, deadline=None)
@given(block_types, names, bodies, ids)
def test_serializer_round_trip(block_type, name, body, block_id):
    [block] = parse(format_block(block_type, name, body, block_id))
    assert block == Block(block_type, name, block_id, body, 1)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.lists(st.integers(0, 400), max_size=10))
def test_random_bytes_never_raise(data, cuts):
    parser = StreamParser()
    out, previous = [], 0
    for cut in [*sorted({c % (len(data) + 1) for c in cuts}), len(data)]:
        out.extend(parser.feed_bytes(data[previous:cut]))
        previous = cut
    out.extend(parser.close())
    assert all(isinstance(item, Text | Block | ParseError) for item in out)
    assert out == parse(data.decode("utf-8", errors="replace"))
