import json

import pytest

from agents.sap import Dispatcher, Operation, Param, Registry, parse
from protocol.errors import ProtocolError
from tests.agents.sap.reference_ops import reference_registry


def run(text: str, registry: Registry | None = None, **kwargs) -> list:
    dispatcher = Dispatcher(registry or reference_registry(), **kwargs)
    return list(dispatcher.run(parse(text)))


def one(text: str, **kwargs):
    [response] = run(text, **kwargs)
    return response


def test_describe_returns_the_manual_in_the_reference_shape():
    response = one("@@describe:dataset.create-table#learn_1\n{}\n@@end\n")
    assert (response.type, response.name, response.id) == ("result", "dataset.create-table", "learn_1")
    manual = response.body
    assert list(manual) == ["operation", "description", "version", "parameters", "examples", "errors"]
    assert manual["operation"] == "dataset.create-table" and manual["version"] == "1.2.0"
    table = manual["parameters"]["table"]
    assert table["type"] == "string" and table["required"] is True
    assert table["constraints"] == {"min_length": 1, "max_length": 64, "pattern": "^[a-zA-Z_][a-zA-Z0-9_]*$"}
    columns = manual["parameters"]["columns"]
    assert columns["min_items"] == 1
    assert columns["items"]["properties"]["type"]["enum"] == ["string", "number", "boolean", "date"]
    assert columns["items"]["properties"]["nullable"]["default"] is True
    example = manual["examples"][0]
    assert parse(example["request"])[0].name == "dataset.create-table"
    assert parse(example["response"])[0].type == "result"
    assert manual["errors"][0]["code"] == "RESOURCE_ALREADY_EXISTS" and manual["errors"][0]["recovery"]


def test_reference_progressive_errors_one_class_at_a_time():
    first = one('@@action:dataset.create-table#1\n{"columns": "id"}\n@@end\n')
    assert first.type == "error" and first.id == "1"
    assert first.body["code"] == "VALIDATION_FAILED"
    assert first.body["details"] == {"missing": ["table"]}

    second = one('@@action:dataset.create-table#1\n{"table": "users", "columns": "id"}\n@@end\n')
    assert second.body["code"] == "VALIDATION_FAILED"
    assert second.body["details"] == {"invalid": {"columns": "expected array, got string"}}

    third = one('@@action:dataset.create-table#1\n{"table": "users", "columns": [{"name": "id"}]}\n@@end\n')
    assert third.body["code"] == "RESOURCE_ALREADY_EXISTS"
    assert third.body["category"] == "resource"
    assert "such as 'users_v2'" in third.body["suggestion"]

    fourth = one('@@action:dataset.create-table#1\n{"table": "users_v2", "columns": [{"name": "id"}]}\n@@end\n')
    assert fourth.type == "result" and fourth.body == {"status": "success", "table": "users_v2"}


def test_constraints_come_after_types():
    body = {"table": "9bad", "columns": [{"name": "id", "type": "text"}]}
    response = one(f"@@action:dataset.create-table\n{json.dumps(body)}\n@@end\n")
    assert response.body["details"]["violations"] == {
        "table": "must match ^[a-zA-Z_][a-zA-Z0-9_]*$",
        "columns[0].type": "must be one of ['string', 'number', 'boolean', 'date'], got 'text'",
    }
    empty = one('@@action:dataset.create-table\n{"table": "t", "columns": []}\n@@end\n')
    assert empty.body["details"]["violations"] == {"columns": "must have at least 1 item"}


def test_nested_shapes_are_checked_with_paths():
    body = {"table": "t", "columns": [{"name": 5}, {"type": "number"}, {"name": "x", "nulable": False}]}
    response = one(f"@@action:dataset.create-table\n{json.dumps(body)}\n@@end\n")
    assert response.body["details"]["invalid"] == {
        "columns[0].name": "expected string, got number",
        "columns[1].name": "required",
        "columns[2].nulable": "unknown field; did you mean 'nullable'?",
    }


def test_unknown_parameter_is_named_with_the_closest_known_one():
    missing = one('@@action:dataset.create-table\n{"tabel": "t", "columns": [{"name": "a"}]}\n@@end\n')
    assert missing.body["details"] == {"missing": ["table"]}
    assert "'tabel' is not a parameter; did you mean 'table'?" in missing.body["suggestion"]
    extra = one(
        '@@action:dataset.create-table\n{"table": "t", "columns": [{"name": "a"}], "if_not_exist": true}\n@@end\n'
    )
    assert extra.body["details"] == {"unknown": {"if_not_exist": "if_not_exists"}}


def test_defaults_reach_the_handler():
    seen = {}

    def handler(call, params):
        seen.update(params)
        return {"ok": True}

    registry = Registry([Operation("a.b", "query", "x", handler, {"n": Param("integer", default=3)})])
    assert one("@@query:a.b\n@@end\n", registry=registry).type == "result"
    assert seen == {"n": 3}


@pytest.mark.parametrize(
    ("param", "value", "expected"),
    [
        (Param("integer"), 1.5, "expected integer, got number"),
        (Param("integer"), True, "expected integer, got boolean"),
        (Param("number"), "1", "expected number, got string"),
        (Param("boolean"), 0, "expected boolean, got number"),
        (Param("object"), [], "expected object, got array"),
        (Param("string"), None, "expected string, got null"),
        (Param("date"), "15/01/2024", "expected date (ISO 8601, e.g. 2024-01-15), got '15/01/2024'"),
    ],
)
def test_type_rules(param, value, expected):
    registry = Registry([Operation("a.b", "query", "x", lambda call, params: {}, {"v": param})])
    response = one(f"@@query:a.b\n{json.dumps({'v': value})}\n@@end\n", registry=registry)
    assert response.body["details"]["invalid"] == {"v": expected}


def test_dates_accept_iso_8601():
    registry = Registry([Operation("a.b", "query", "x", lambda call, params: {}, {"v": Param("date")})])
    for value in ("2024-01-15", "2024-01-15T10:30:00Z", "2024-01-15T10:30:00+08:00"):
        assert one(f'@@query:a.b\n{{"v": "{value}"}}\n@@end\n', registry=registry).type == "result"


def test_unknown_operation_names_the_nearest():
    response = one("@@query:dataset.create-tabel\n{}\n@@end\n")
    assert response.body["code"] == "OPERATION_NOT_FOUND"
    assert "dataset.create-table" in response.body["details"]["nearest"]


def test_wrong_block_type_for_the_operation():
    response = one('@@query:dataset.create-table\n{"table": "t", "columns": [{"name": "a"}]}\n@@end\n')
    assert response.body["code"] == "VALIDATION_FAILED"
    assert "send it as @@action:dataset.create-table" in response.body["suggestion"]


def test_response_blocks_are_not_executed():
    response = one("@@result:dataset.create-table#9\n{}\n@@end\n")
    assert (response.type, response.id, response.body["code"]) == ("error", "9", "NOT_A_REQUEST")


def test_exception_inside_an_operation_becomes_internal_error_and_the_stream_goes_on(caplog):
    responses = run("@@action:debug.broken#1\n@@end\n@@query:system.ping#2\n@@end\n")
    error, ping = responses
    assert error.body["code"] == "INTERNAL_ERROR" and error.body["retryable"] is True
    assert error.body["request_id"] in caplog.text
    assert ping.type == "result" and ping.id == "2"


def test_progress_events_then_exactly_one_result_with_the_same_name_and_id():
    responses = run('@@query:dataset.count-slowly#c1\n{"steps": 3}\n@@end\n')
    assert [r.type for r in responses] == ["event", "event", "event", "result"]
    assert {(r.name, r.id) for r in responses} == {("dataset.count-slowly", "c1")}
    assert responses[-1].body == {"counted": 3}


def test_parse_errors_become_error_blocks_and_later_requests_still_run():
    responses = run("@@query:read_file#1\n{}\n@@end\nprose\n@@query:system.ping#2\n@@end\n")
    assert responses[0].body["code"] == "INVALID_NAME"
    assert responses[0].body["details"]["line"] == 1
    assert responses[1].type == "result"


def test_error_blocks_follow_the_error_model():
    body = one("@@query:nothing.here\n@@end\n").body
    assert set(body) == {"code", "message", "category", "details", "suggestion", "retryable", "timestamp", "request_id"}
    assert body["timestamp"].endswith("Z") and body["request_id"].startswith("req_")


def test_authorize_can_refuse_or_answer_instead():
    def refuse(operation, block, params, context):
        raise ProtocolError("PERMISSION_DENIED", "no", details={"permission": operation.permission})

    response = one("@@query:system.ping\n@@end\n", authorize=refuse)
    assert response.body["code"] == "PERMISSION_DENIED" and response.body["details"] == {"permission": "system.ping"}


def test_outcomes_are_reported_with_duration():
    outcomes = []
    run("@@query:system.ping#1\n@@end\n@@query:no.such\n@@end\n", on_outcome=lambda o, ctx: outcomes.append(o))
    assert [o.ok for o in outcomes] == [True, False]
    assert all(o.duration_s >= 0 for o in outcomes)


def test_capabilities_brief_detailed_and_scoped():
    brief = one('@@query:system.capabilities#d1\n{"scope": "all", "format": "brief"}\n@@end\n').body
    names = [op["name"] for op in brief["operations"]]
    assert names == sorted(names) and "dataset.create-table" in names
    assert all(set(op) == {"name", "kind", "summary"} for op in brief["operations"])
    detailed = one('@@query:system.capabilities\n{"scope": "dataset", "format": "detailed"}\n@@end\n').body
    assert {op["operation"] for op in detailed["operations"]} == {"dataset.create-table", "dataset.count-slowly"}
    unknown = one('@@query:system.capabilities\n{"scope": "nope"}\n@@end\n').body
    assert unknown["code"] == "RESOURCE_NOT_FOUND" and "dataset" in unknown["details"]["domains"]


def test_prompt_listing_is_short_and_names_every_operation_and_required_parameter():
    registry = reference_registry()
    listing = registry.prompt_listing()
    for op in registry:
        assert op.name in listing
    assert "action dataset.create-table(table*,columns*,if_not_exists)" in listing
    assert len(listing) < 800


def test_registry_refuses_bad_definitions():
    with pytest.raises(ValueError, match=r"domain\.action"):
        Operation("read_file", "query", "x", lambda call, params: {})
    with pytest.raises(ValueError, match="parameter type"):
        Param("text")
    with pytest.raises(ValueError, match="twice"):
        Registry([Operation("a.b", "query", "x", dict), Operation("a.b", "query", "x", dict)])
    with pytest.raises(ValueError, match="unknown error code"):
        ProtocolError("NOPE", "x")


def test_a_whole_placeholder_passes_the_value_itself_and_an_embedded_one_its_text():
    from agents.sap.placeholders import resolve

    results = {"a": {"files": ["x.md", "y.md"], "count": 2}}
    assert resolve({"list": "{{steps.a.result.files}}"}, results) == {"list": ["x.md", "y.md"]}
    assert resolve("n={{ steps.a.result.count }}; first={{steps.a.result.files.0}}", results) == "n=2; first=x.md"
    with pytest.raises(ProtocolError, match="has no 'size'"):
        resolve("{{steps.a.result.size}}", results)
