from sessions.chap.chain import canonical_json, first_break, genesis_checksum, next_checksum
from tests.sessions.envelopes import proposal


def test_canonical_json_ignores_key_order_and_keeps_unicode():
    assert canonical_json({"b": 1, "a": "数"}) == canonical_json({"a": "数", "b": 1}) == '{"a":"数","b":1}'


def test_chain_depends_on_every_previous_message():
    first, second = proposal(message_id="a"), proposal(message_id="b")
    start = genesis_checksum("s1")
    assert len(start) == 16 and start != genesis_checksum("s2")
    one = next_checksum(start, first)
    assert next_checksum(one, second) != next_checksum(next_checksum(start, proposal(message_id="x")), second)


def test_first_break_names_the_tampered_message():
    messages = [proposal(message_id=f"m{i}") for i in range(1, 5)]
    checksum, rows = genesis_checksum("s"), []
    for seq, message in enumerate(messages, start=1):
        checksum = next_checksum(checksum, message)
        rows.append((seq, message, checksum))
    assert first_break("s", rows) is None
    rows[2][1]["payload"]["goal"] = "edited afterwards"
    assert first_break("s", rows) == 3
    assert first_break("s", [rows[0], rows[2]]) == 2
