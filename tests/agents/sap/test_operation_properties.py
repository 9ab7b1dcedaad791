"""Every stats.* and dataset.* operation, fed parameters generated from its own describe manual (right
and wrong types, real and unknown columns, wildcards, nested filters, junk), answers with a result
or a structured error: never INTERNAL_ERROR. On a small real table, in one session."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.operations.datasets.compiler import OPS
from agents.operations.registry import workbench_registry
from agents.sap import format_block, parse
from agents.sap_service import sap_run
from protocol.params import Param
from sessions.access import caller_for_agent
from tests.agents.sap_calls import load_sales
from tests.people import session_of, with_agent

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

COLUMNS = ["region", "amount", "paid", "day"]
OPERATIONS = sorted(op.name for op in workbench_registry() if op.domain in ("stats", "dataset"))

scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False, allow_infinity=False)
scalars |= st.text(max_size=8) | st.sampled_from(["*", "", "2024-01-01", "region", "%"])
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
real_column = st.sampled_from(COLUMNS)
column = real_column | real_column | st.sampled_from(["*", "Amount", "amonut", "nope", "region; drop", ""])
condition = st.fixed_dictionaries(
    {"column": column, "op": st.sampled_from([*OPS, "~", None])},
    optional={"value": scalars | st.lists(scalars | junk, max_size=4)},
)
filters = st.recursive(
    condition,
    lambda inner: st.dictionaries(st.sampled_from(["and", "or"]), st.lists(inner, max_size=3) | junk, max_size=2),
    max_leaves=40,
)


def typed(name: str, param: Param) -> st.SearchStrategy:
    """A value of the parameter's own type, near its constraints."""
    if param.enum is not None:
        return st.sampled_from(param.enum)
    if param.refers_to == "column":
        return column
    if param.type == "string":
        return {
            "table": st.one_of(st.just("sales"), st.just("sales"), st.sampled_from(["missing", "*", "pg_class"])),
            "path": st.sampled_from(["sales.csv", "missing.csv", "../x.csv", "out.csv"]),
            "sql": st.sampled_from(["SELECT * FROM sales", "SELECT region, count(*) FROM sales GROUP BY 1"]),
        }.get(name, st.text(max_size=12))
    if param.type in ("integer", "number"):
        low, high = int(param.minimum or 0), int(min(param.maximum or 20_000, 20_000))
        inside = st.integers(low, high) | (st.floats(low, high) if param.type == "number" else st.nothing())
        return inside | inside | st.integers(-(2**40), 2**40)
    if param.type == "boolean":
        return st.booleans()
    if param.type == "array":
        items = typed(name, param.items) if param.items is not None else column | junk
        return st.lists(items, max_size=5)
    if param.type == "object" and param.properties is not None:
        required = {n: typed(n, p) for n, p in param.properties.items() if p.required}
        optional = {n: typed(n, p) for n, p in param.properties.items() if not p.required}
        return st.fixed_dictionaries(required, optional=optional)
    return filters if name == "filters" else junk


def bodies(name: str) -> st.SearchStrategy:
    """Mostly bodies of the right types (so the operation runs), some with one value junk or one more key."""
    operation = workbench_registry().get(name)
    assert operation is not None
    params = operation.parameters
    required = {n: typed(n, p) for n, p in params.items() if p.required}
    optional = {n: typed(n, p) for n, p in params.items() if not p.required}
    right = st.fixed_dictionaries(required, optional=optional)
    spoilt = st.tuples(right, st.sampled_from([*params, "colour"]), junk).map(lambda t: {**t[0], t[1]: t[2]})
    return st.one_of(right, right, right, spoilt)


@pytest.fixture
def statistician(settings):
    settings.CHAP_SAP_HEAVY_PER_MINUTE = 100_000
    world = with_agent(session_of(), "statistician", allowed_operations=["dataset.*", "stats.*", "file.*"])
    assert load_sales(world).type == "result"
    return world


@pytest.mark.parametrize("name", OPERATIONS)
def test_no_parameters_make_an_operation_fail_inside_the_server(statistician, name):
    caller = caller_for_agent(statistician["agent"])
    kind = workbench_registry().get(name).kind

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(bodies(name))
    def answers_without_internal_error(body):
        text = format_block(kind, name, body, "p")
        responses = parse("".join(sap_run(session_id=statistician["session"].pk, caller=caller, text=text)))
        codes = [r.body.get("code") for r in responses if r.type == "error"]
        assert "INTERNAL_ERROR" not in codes, json.dumps(body)[:500]
        assert responses and responses[-1].type in ("result", "error", "event")

    answers_without_internal_error()
