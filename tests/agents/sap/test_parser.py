import pytest

from agents.sap import Block, ParseError, StreamParser, Text, format_block, parse


def feed_in(text: str, size: int) -> list:
    parser = StreamParser()
    out = []
    for start in range(0, len(text), size):
        out.extend(parser.feed(text[start : start + size]))
    return out + parser.close()


def kinds(items):
    return [type(item).__name__ for item in items]


def test_reference_example_table_exists():
    [block] = parse('@@query:dataset.table-exists#1\n{\n  "table": "users"\n}\n@@end\n')
    assert block == Block("query", "dataset.table-exists", "1", {"table": "users"}, 1)


def test_reference_examples_metrics_and_file_write():
    text = (
        '@@query:system.metrics#health_1\n{\n  "metrics": ["cpu", "memory", "disk"],\n  "time_range": "5m"\n}\n@@end\n'
        '@@action:file.write#log_1\n{\n  "path": "/var/log/app.log",\n'
        '  "content": "Application started at 2024-01-15T10:30:00Z",\n  "append": true\n}\n@@end\n'
    )
    metrics, write = parse(text)
    assert (metrics.type, metrics.name, metrics.id) == ("query", "system.metrics", "health_1")
    assert metrics.body == {"metrics": ["cpu", "memory", "disk"], "time_range": "5m"}
    assert (write.type, write.name, write.id, write.body["append"]) == ("action", "file.write", "log_1", True)


def test_empty_body_is_an_empty_object_and_id_is_optional():
    assert parse("@@describe:dataset.create-table\n@@end\n") == [Block("describe", "dataset.create-table", None, {}, 1)]


def test_prose_around_blocks_is_kept_in_order():
    text = "I will check first.\n@@query:a.b#1\n{}\n@@end\nThen write.\n@@action:a.c#2\n{}\n@@end\nDone."
    items = parse(text)
    assert kinds(items) == ["Text", "Block", "Text", "Block", "Text"]
    assert [item.text for item in items if isinstance(item, Text)] == [
        "I will check first.\n",
        "Then write.\n",
        "Done.",
    ]


def test_at_signs_in_prose_and_json_strings_are_not_headers_or_terminators():
    text = (
        "mail me @@ noon, or write @@end mid-line\n"
        '@@action:file.write#1\n{"content": "line\\n@@end\\n@@query:x.y", "note": "@@end"}\n@@end\n'
    )
    text_item, block = parse(text)
    assert text_item == Text("mail me @@ noon, or write @@end mid-line\n")
    assert block.body["content"] == "line\n@@end\n@@query:x.y"


def test_crlf_and_trailing_spaces_on_header_and_end_lines():
    [block] = parse('@@query:a.b#x1  \r\n{"k": 1}\r\n@@end \t\r\n')
    assert block.body == {"k": 1} and block.id == "x1"


@pytest.mark.parametrize(
    ("header", "code", "hint"),
    [
        ("@@query:read_file#1", "INVALID_NAME", "file.read"),
        ("@@action:writeFile#1", "INVALID_NAME", "file.write"),
        ("@@query:Dataset.Query#1", "INVALID_NAME", "dataset.query"),
        ("@@query:system#1", "INVALID_NAME", None),
        ("@@Query:file.read#1", "UNKNOWN_TYPE", "'query'"),
        ("@@fetch:file.read#1", "UNKNOWN_TYPE", None),
        ("@@query:file.read#bad id!", "INVALID_HEADER", None),
        ("@@query:file.read#" + "x" * 129, "INVALID_ID", None),
        ("@@query:file.read#bad/id", "INVALID_ID", None),
        ("@@query file.read", "INVALID_HEADER", None),
    ],
)
def test_bad_headers_are_reported_with_line_and_suggestion(header, code, hint):
    items = parse(f"before\n{header}\n{{}}\n@@end\nafter\n")
    assert kinds(items) == ["Text", "ParseError", "Text"]
    error = items[1]
    assert (error.code, error.line) == (code, 2)
    if hint:
        assert any(hint in s for s in error.suggestion)
    assert items[2] == Text("after\n")


def test_invalid_json_is_reported_on_its_line_and_parsing_goes_on():
    text = '@@query:a.b#1\n{\n  "k": 1,\n  oops\n}\n@@end\n@@query:a.c#2\n{}\n@@end\n'
    error, block = parse(text)
    assert (error.code, error.line) == ("INVALID_JSON", 4)
    assert block.name == "a.c"


@pytest.mark.parametrize(
    ("body", "code"),
    [('["a"]', "BODY_NOT_OBJECT"), ('{"x": NaN}', "INVALID_JSON"), ('"text"', "BODY_NOT_OBJECT")],
)
def test_body_must_be_a_json_object(body, code):
    [error] = parse(f"@@action:a.b\n{body}\n@@end\n")
    assert error.code == code


def test_unterminated_block_before_next_header_resynchronises():
    text = '@@query:a.b#1\n{"k": 1}\n@@query:a.c#2\n{}\n@@end\ntail'
    error, block, tail = parse(text)
    assert (error.code, error.line) == ("UNTERMINATED_BLOCK", 1)
    assert block.name == "a.c" and tail == Text("tail")


def test_close_reports_an_unterminated_block():
    parser = StreamParser()
    assert list(parser.feed('@@query:a.b#1\n{"k": 1}\n')) == []
    [error] = parser.close()
    assert error.code == "UNTERMINATED_BLOCK"


def test_body_size_limit():
    big = '{"data": "' + "x" * 2000 + '"}'
    items = feed_in(f"@@action:a.b#1\n{big}\n@@end\nnext\n", 64)
    parser_items = StreamParser(max_body_bytes=1000)
    out = [*parser_items.feed(f"@@action:a.b#1\n{big}\n@@end\nnext\n"), *parser_items.close()]
    assert items[0].name == "a.b"
    assert kinds(out) == ["ParseError", "Text"]
    assert out[0].code == "BODY_TOO_LARGE" and out[1] == Text("next\n")


@pytest.mark.parametrize("size", [1, 7, 64, 5000])
def test_body_size_limit_is_the_same_for_every_chunking(size):
    text = (
        '@@action:a.b#1\n{"data": "' + "x" * 1500 + '"}\n@@end\n'
        '@@action:a.c#2\n{"data": "' + "y@" * 800 + '"}\n@@query:a.d#3\n{}\n@@end\nend\n'
    )
    parser = StreamParser(max_body_bytes=1000)
    out = []
    for start in range(0, len(text), size):
        out.extend(parser.feed(text[start : start + size]))
    out.extend(parser.close())
    assert out == parse(text, max_body_bytes=1000)
    assert [getattr(item, "code", None) for item in out] == ["BODY_TOO_LARGE", "BODY_TOO_LARGE", None, None]


def test_body_size_limit_counts_bytes_not_characters():
    parser = StreamParser(max_body_bytes=100)
    out = [*parser.feed('@@action:a.b\n{"t": "' + "é" * 60 + '"}\n@@end\n'), *parser.close()]
    assert out[0].code == "BODY_TOO_LARGE"


def test_depth_limit():
    deep = "[" * 70 + "]" * 70
    [error] = parse(f'@@action:a.b\n{{"d": {deep}}}\n@@end\n')
    assert error.code == "DEPTH_EXCEEDED"
    [block] = parse(f'@@action:a.b\n{{"d": {"[" * 60 + "]" * 60}}}\n@@end\n')
    assert isinstance(block, Block)
    [error] = parse(f'@@action:a.b\n{{"d": {"[" * 5000 + "]" * 5000}}}\n@@end\n')
    assert error.code == "DEPTH_EXCEEDED"


def test_header_length_limit_even_when_streamed():
    header = "@@query:a." + "b" * 600
    text = f"{header}\n{{}}\n@@end\nafter\n"
    for size in (1, 7, 64, len(text)):
        items = feed_in(text, size)
        assert kinds(items) == ["ParseError", "Text"], size
        assert items[0].code == "HEADER_TOO_LONG"


def test_long_prose_lines_starting_with_at_stay_text():
    line = "@alice " + "word " * 300 + "\n"
    assert feed_in(line, 7) == [Text(line)] == parse(line)


def test_bytes_split_inside_a_multibyte_character():
    text = '说明文字\n@@action:file.write#1\n{"content": "数据分析报告 ✓"}\n@@end\n'
    data = text.encode()
    parser = StreamParser()
    out = []
    for start in range(0, len(data), 1):
        out.extend(parser.feed_bytes(data[start : start + 1]))
    out.extend(parser.close())
    assert out == parse(text)


def test_serializer_round_trip():
    body = {"content": "a\n@@end\nb", "n": [1, 2.5, None], "ok": True, "nested": {"x": "数据"}}
    text = format_block("action", "file.write", body, "w1")
    assert parse(text) == [Block("action", "file.write", "w1", body, 1)]


def test_serializer_writes_what_fast_json_refuses_and_keeps_large_bodies_on_one_line():
    body = {"big": 2**70, "rows": [[n, "x" * 20] for n in range(200)]}
    text = format_block("result", "dataset.query", body, "q")
    assert text.count("\n") == 3 and parse(text) == [Block("result", "dataset.query", "q", body, 1)]
    # A lone surrogate is written, but no strict reader takes it back (results carry values.json_safe's).
    (refused,) = parse(format_block("result", "dataset.query", {"surrogate": "\ud800"}, "q"))
    assert refused.code == "INVALID_JSON" and "surrogate" in refused.message


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 13, 64, 4096])
def test_every_chunking_gives_the_same_items(size):
    text = (
        "Intro @ text\n@\n@@\n@@query:a.b#1\n{}\n@@end\n@@end\nmid\n"
        '@@action:a.c#2\r\n{"v": "@@end"}\r\n@@end  \r\n@@bogus:x\n{}\n@@end\n'
        "@@query:a.d#3\n{oops}\n@@end\n@@query:a.e\n{}\n"
    )
    assert feed_in(text, size) == parse(text)


def test_parse_errors_carry_line_numbers_after_blocks():
    text = "a\nb\n@@query:a.b\n{\n}\n@@end\nc\n@@query:BAD\n@@end\n"
    items = parse(text)
    assert isinstance(items[-1], ParseError) and items[-1].line == 8
