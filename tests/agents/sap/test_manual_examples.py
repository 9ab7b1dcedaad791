"""Every operation's manual example, run through the dispatcher: the answer has the example's shape.

An agent learns an operation from ``describe``; an example that promises fields, or shapes of
fields, the server does not give teaches it wrong.
"""

import pytest

from agents.operations.registry import workbench_registry
from agents.sap import Block, parse
from agents.sap_service import approval_decide
from sessions.access import caller_for_user
from tests.agents.sap_calls import sap
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

EXAMPLES = [(op, example) for op in workbench_registry() for example in op.examples]

# What the session holds before the examples run, as an agent would have made it.
SETUP = """
@@action:file.write#s1
{"path": "a.txt", "content": "a"}
@@end
@@action:file.write#s2
{"path": "temp.txt", "content": "t"}
@@end
@@action:file.write#s3
{"path": "report.txt", "content": "the report"}
@@end
@@action:file.write#s4
{"path": "brief.docx", "content": "brief"}
@@end
@@action:dataset.create-table#s5
{"table": "sales", "columns": [{"name": "region"}, {"name": "amount", "type": "number"}]}
@@end
@@action:dataset.insert#s6
{"table": "sales", "rows": [{"region": "EU", "amount": 120.5}]}
@@end
@@action:dataset.create-table#s7
{"table": "monthly", "columns": [{"name": "month", "type": "date"}, {"name": "shop"}, {"name": "sales", "type": "number"}, {"name": "visits", "type": "number"}]}
@@end
@@action:dataset.insert#s8
{"table": "monthly", "rows": [{"month": "2026-01-01", "shop": "A", "sales": 10, "visits": 100}, {"month": "2026-02-01", "shop": "A", "sales": 15, "visits": 120}]}
@@end
@@action:dataset.create-table#s9
{"table": "regions", "columns": [{"name": "region"}, {"name": "manager"}]}
@@end
@@action:dataset.insert#s10
{"table": "regions", "rows": [{"region": "EU", "manager": "Ana"}, {"region": "US", "manager": "Bo"}]}
@@end
@@action:file.write#s11
{"path": "orders.csv", "content": "region,amount\\nEU,120.5\\nUS,80\\n"}
@@end
"""


def parse_response(stored: dict):
    """A decided approval's stored response as the block the agent receives."""
    return Block(stored["type"], stored["name"], stored["id"], stored["body"])


def shape(value):
    """The JSON shape of ``value``: an object's keys, a list's first item, a scalar's kind."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else type(value).__name__


def differences(promised, given, where="body") -> list[str]:
    """Where ``given`` lacks or changes what ``promised`` shows (extra fields are fine)."""
    if promised == "null" or given == "null":
        return []
    if isinstance(promised, dict):
        if not isinstance(given, dict):
            return [f"{where}: promised an object, got {given!r}"]
        return [
            problem
            for key, item in promised.items()
            for problem in (
                differences(item, given[key], f"{where}.{key}") if key in given else [f"{where}.{key}: missing"]
            )
        ]
    if isinstance(promised, list):
        if not isinstance(given, list):
            return [f"{where}: promised a list, got {given!r}"]
        return differences(promised[0], given[0], f"{where}[0]") if promised and given else []
    return [] if promised == given else [f"{where}: promised {promised}, got {given}"]


@pytest.fixture
def world():
    world = with_agent(session_of(), "example-runner", allowed_operations=["*"], approval_operations=[])
    assert all(response.type == "result" for response in sap(world, SETUP))
    return world


def test_the_main_operations_have_examples_to_run():
    assert {op.name for op, _ in EXAMPLES} >= {"dataset.query", "dataset.create-table", "file.read", "system.ping"}


@pytest.mark.parametrize(("operation", "example"), EXAMPLES, ids=[f"{op.name}" for op, _ in EXAMPLES])
def test_manual_example_answers_in_the_promised_shape(world, operation, example):
    promised = parse(example.response)[0]
    answer = sap(world, example.request)[-1]
    if answer.type == "event" and answer.body["event"] == "approval.requested":
        approval = approval_decide(
            session_id=world["session"].pk,
            approval_id=answer.body["approval_id"],
            caller=caller_for_user(world["owner"]),
            approve=True,
        )
        answer = parse_response(approval.response)
    assert (answer.type, answer.name) == (promised.type, promised.name), answer.body
    assert differences(shape(promised.body), shape(answer.body)) == []


def test_a_wrong_example_is_caught():
    promised = {"columns": ["region"], "rows": [{"region": "EU"}]}
    given = {"columns": ["region"], "rows": [["EU"]]}
    assert differences(shape(promised), shape(given)) == ["body.rows[0]: promised an object, got ['str']"]
