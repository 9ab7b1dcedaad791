"""Built-in agents call SAP in process: structured blocks through the same dispatcher, permission
check, approvals and audit trail as every other caller, without a round trip through SAP text, and at
a cost held here."""

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from agents.models import Agent, Approval, Task
from agents.reactions import reactions_run
from agents.sap import Block
from agents.sap_service import InProcessSap
from agents.worker import Worker
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent
from sessions.models import Message
from tests.agents.teamwork import feedback_on, reports, work_until_idle, write_orders
from tests.factories import make_session, make_user

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
# Measured on the analyst's redo below: 126 queries when every call went through SAP text and
# checked the agent's access again; each of its 8 operation records is one append (8 queries) of it.
REDO_MAX_QUERIES = 119


def records(session):
    rows = Message.objects.filter(session=session, payload_type="operation_record").order_by("seq")
    return [(m.envelope["payload"]["operation"], m.envelope["payload"]["outcome"]) for m in rows]


def test_the_analysts_redo_after_one_correction_costs_a_bounded_number_of_queries(team):
    session = team["session"]
    write_orders(session)
    Task.objects.create(session=session, title="Analyse the orders", agent=Agent.objects.get(name="analyst"))
    work_until_idle()
    [first] = reports(session)
    feedback_on(team, first["message_id"], "Use the sample standard deviation")
    assert reactions_run()  # the worker sets the redo off (agents.reactions); the redo itself is measured
    before = Message.objects.filter(session=session).count()
    with CaptureQueriesContext(connection) as queries, TestCase.captureOnCommitCallbacks(execute=True):
        assert Worker("w", lease_s=30).run_once()
    posted = Message.objects.filter(session=session).order_by("seq")[before:]
    kinds = [m.payload_type for m in posted]
    assert reports(session)[-1]["payload"]["provenance"]["settings"]["sd"] == "sample"
    assert len(queries) <= REDO_MAX_QUERIES
    # Still one audit record per operation run, each before the report it served.
    assert kinds.count("operation_record") == 8
    assert kinds.index("collaborative_response") > max(i for i, k in enumerate(kinds) if k == "operation_record")


def test_in_process_calls_are_authorised_approved_and_recorded_like_sap_text(team):
    session, analyst = team["session"], Agent.objects.get(name="analyst")
    sap = InProcessSap(session_id=session.pk, caller=caller_for_agent(analyst))
    [listed] = sap.run([Block("query", "file.list", "l", {})])
    [refused] = sap.run([Block("action", "file.write", "w", {"path": "a.txt", "content": "x"})])
    analyst.approval_operations = ["dataset.drop-table"]
    analyst.save()
    [waits] = sap.run([Block("action", "dataset.drop-table", "d", {"table": "orders"})])
    assert (listed.type, listed.id, listed.body["files"]) == ("result", "l", [])
    assert (refused.type, refused.body["code"]) == ("error", "PERMISSION_DENIED")
    assert waits.body["event"] == "approval.requested" and Approval.objects.get(session=session).operation == (
        "dataset.drop-table"
    )
    assert records(session) == [
        ("file.list", "result"),
        ("file.write", "error"),
        ("dataset.drop-table", "approval_requested"),
    ]


def test_an_agent_outside_the_session_gets_no_in_process_sap(team):
    elsewhere = make_session(owner=make_user("otto"), title="Elsewhere")
    with pytest.raises(ProtocolError) as refused:
        InProcessSap(session_id=elsewhere.pk, caller=caller_for_agent(Agent.objects.get(name="analyst")))
    assert refused.value.code == "RESOURCE_NOT_FOUND"
