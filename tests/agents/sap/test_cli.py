import json
import subprocess
import sys

from tests.live import ROOT

STREAM = 'Checking.\n@@query:dataset.table-exists#1\n{"table": "users"}\n@@end\n@@query:Bad.Name\n{}\n@@end\nbye'


def run_cli(*args):
    result = subprocess.run(
        [sys.executable, "-m", "agents.sap", "parse", *args],
        input=STREAM,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return result


def test_cli_prints_one_json_object_per_item_for_any_chunk_size():
    outputs = []
    for args in ([], ["--chunk", "1"], ["--chunk", "7"]):
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
        outputs.append([json.loads(line) for line in result.stdout.splitlines()])
    assert outputs[0] == outputs[1] == outputs[2]
    text, block, error, tail = outputs[0]
    assert text == {"kind": "text", "text": "Checking.\n"}
    assert block == {
        "kind": "block",
        "type": "query",
        "name": "dataset.table-exists",
        "id": "1",
        "body": {"table": "users"},
    }
    assert error["kind"] == "error" and error["code"] == "INVALID_NAME" and error["line"] == 5
    assert tail == {"kind": "text", "text": "bye"}


def test_cli_refuses_a_negative_chunk():
    result = run_cli("--chunk", "-3")
    assert result.returncode == 2 and "--chunk" in result.stderr


def test_error_catalogue_doc_is_current():
    from protocol.errors import catalogue_markdown

    assert (ROOT / "docs" / "errors.md").read_text() == catalogue_markdown()
