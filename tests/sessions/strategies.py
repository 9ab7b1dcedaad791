"""Hypothesis strategies for valid CHAP messages, read off the schemas (sessions/chap/schemas.py), so
every payload type, a new one too, gets examples of every shape validation accepts."""

from hypothesis import strategies as st

from protocol.params import Param
from sessions.chap.schemas import PAYLOADS

# What validation accepts as text: any character but NUL and lone surrogates (both refused).
TEXT_CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
# Keys that collide with what templates look up on a dict (``d.items`` is ``d["items"]`` first).
TRICKY_KEYS = st.sampled_from(["items", "keys", "values", "get", "0", "pop", "__class__", "sections", "body"])
JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
)
FREE_JSON = st.recursive(
    JSON_SCALARS | st.text(TEXT_CHARACTERS, max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(TRICKY_KEYS | st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
# A free-form object from a message always has an "items" key, often "keys" and "values" too.
FREE_OBJECT = st.builds(
    lambda tricky, rest: {**rest, **tricky},
    st.fixed_dictionaries({"items": FREE_JSON}, optional={"keys": FREE_JSON, "values": FREE_JSON, "get": FREE_JSON}),
    st.dictionaries(st.text(TEXT_CHARACTERS, max_size=8), FREE_JSON, max_size=3),
)


def value_of(param: Param, references: list[str]) -> st.SearchStrategy:
    """Values ``param`` accepts. Fields naming a message take one of ``references`` or any valid id."""
    strategy = _value_of(param, references)
    return st.none() | strategy if param.nullable else strategy


def _value_of(param: Param, references: list[str]) -> st.SearchStrategy:
    if param.enum is not None:
        return st.sampled_from(param.enum)
    if param.type == "string":
        if param.pattern is not None:
            pattern = st.from_regex(f"(?:{param.pattern})", fullmatch=True)
            limited = pattern.filter(lambda text: len(text) <= (param.max_length or 10_000))
            return (st.sampled_from(references) | limited) if references else limited
        return st.text(TEXT_CHARACTERS, min_size=param.min_length or 0, max_size=min(param.max_length or 200, 200))
    if param.type == "integer":
        low = int(param.minimum) if param.minimum is not None else -(2**31)
        high = int(param.maximum) if param.maximum is not None else 2**31
        return st.integers(low, high)
    if param.type == "number":
        low = param.minimum if param.minimum is not None else -1e9
        high = param.maximum if param.maximum is not None else 1e9
        return st.integers(int(low), int(high)) | st.floats(low, high, allow_nan=False, allow_infinity=False)
    if param.type == "boolean":
        return st.booleans()
    if param.type == "date":
        return st.dates().map(lambda day: day.isoformat()) | st.datetimes().map(lambda moment: moment.isoformat() + "Z")
    if param.type == "array":
        items = value_of(param.items, references) if param.items is not None else FREE_JSON
        return st.lists(items, min_size=param.min_items or 0, max_size=min(param.max_items or 3, 3))
    if param.properties is None:  # free-form: any JSON object
        return FREE_OBJECT
    return object_of(param.properties, references)


def object_of(properties: dict[str, Param], references: list[str]) -> st.SearchStrategy:
    required = {name: value_of(p, references) for name, p in properties.items() if p.required}
    optional = {name: value_of(p, references) for name, p in properties.items() if not p.required}
    return st.fixed_dictionaries(required, optional=optional)


def payloads(payload_type: str, references: list[str]) -> st.SearchStrategy:
    """Payloads of ``payload_type`` validation accepts; message ids often name one of ``references``."""
    return object_of(PAYLOADS[payload_type], references)
