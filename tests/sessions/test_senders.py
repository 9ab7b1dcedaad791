"""Who may post what (sessions.chap.schemas.SENDERS): humans keep the final say, agents never speak as
humans nor manage the session, and a log that holds an agent's feedback never counts it as a decision."""

import itertools

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from agents.tokens import token_issue
from protocol.errors import ProtocolError
from sessions.access import SYSTEM, caller_for_user
from sessions.chap.chain import genesis_checksum, next_checksum
from sessions.chap.graph import ContextGraph
from sessions.chap.history import difference
from sessions.chap.metrics import process_metrics
from sessions.chap.retrospective import metrics_over_time
from sessions.chap.schemas import PAYLOAD_TYPES, PAYLOADS, SENDER_TYPES, SENDERS, validate_envelope
from sessions.chap.summary import layered_summary
from sessions.membership import session_import, session_update
from sessions.models import Message, SessionState, WorkSession
from sessions.retrospectives import retrospective_report
from sessions.selectors import EXPORT_FORMAT, history_difference
from tests.factories import agent_in, make_agent, make_user, post_message
from tests.sessions import envelopes
from workbench.asgi import application


def test_the_table_names_every_payload_type_and_only_known_senders():
    assert set(SENDERS) == set(PAYLOADS)
    assert all(senders and senders <= set(SENDER_TYPES) for senders in SENDERS.values())


def test_humans_keep_the_final_say():
    for human_only in ("task_proposal", "human_feedback", "clarification_answer"):
        assert SENDERS[human_only] == {"human"}, human_only
    for written_by_the_workbench in ("operation_record", "task_event", "session_event"):
        assert SENDERS[written_by_the_workbench] == {"system"}


def caller_of(kind, session):
    return {
        "human": lambda: caller_for_user(session.created_by),
        "agent": lambda: agent_in(session),
        "system": lambda: SYSTEM,
    }[kind]()


@pytest.mark.parametrize(("payload_type", "sender_type"), list(itertools.product(PAYLOAD_TYPES, SENDER_TYPES)))
def test_every_payload_type_from_every_kind_of_sender(session, payload_type, sender_type):
    caller = caller_of(sender_type, session)
    factory = envelopes.envelope
    if sender_type in SENDERS[payload_type]:
        if payload_type == "clarification_answer":  # an answer answers a question the session holds
            asked = envelopes.minimal_payload(payload_type)["clarification_message_id"]
            clarification = envelopes.minimal_payload("clarification")
            post_message(session, agent_in(session), factory, "clarification", clarification, message_id=asked)
        ack = post_message(session, caller, factory, payload_type, envelopes.minimal_payload(payload_type))
        assert Message.objects.get(session=session, seq=ack.seq).sender_type == sender_type
        return
    with pytest.raises(ProtocolError) as refused:
        post_message(session, caller, factory, payload_type, envelopes.minimal_payload(payload_type))
    error = refused.value
    assert error.code == "SENDER_NOT_ALLOWED" and error.category == "permission"
    assert error.details["payload_type"] == payload_type and error.details["sender_type"] == sender_type
    assert error.details["allowed_senders"] == sorted(SENDERS[payload_type])
    assert error.suggestion
    assert not Message.objects.filter(session=session).exists()


# -- the edges: REST and the CHAP socket refuse an agent speaking as a human or managing the session --


@pytest.fixture
def with_agent(session):
    agent = make_agent("analyst")
    post_message(session, agent_in(session, "analyst"), envelopes.response, message_id="r1")
    return {"session": session, "token": token_issue(agent=agent), "agent": agent}


def bearer(token) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_an_agent_token_cannot_approve_or_answer_for_the_humans_over_rest(with_agent):
    session = with_agent["session"]
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    for envelope in (
        envelopes.feedback("r1", "approval", session_id=session.pk, sender=("agent", "analyst"), context_checksum=head),
        envelopes.proposal(session_id=session.pk, sender=("agent", "analyst"), context_checksum=head),
    ):
        response = bearer(with_agent["token"]).post(f"/api/sessions/{session.pk}/messages/", envelope, format="json")
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "SENDER_NOT_ALLOWED"
    assert Message.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("change", [{"title": "Mine now"}, {"state": "done"}])
def test_an_agent_cannot_rename_a_session_or_mark_it_done(with_agent, change):
    session = with_agent["session"]
    response = bearer(with_agent["token"]).patch(f"/api/sessions/{session.pk}/", change, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["error"]["details"]["permission"] == "session.manage"
    archived = bearer(with_agent["token"]).post(f"/api/sessions/{session.pk}/archive/")
    assert archived.status_code == 403
    session.refresh_from_db()
    assert (session.title, session.state) != ("Mine now", "done") and session.state != "archived"
    assert not session.messages.filter(payload_type="session_event").exists()


def test_an_agent_cannot_make_a_checkpoint(with_agent):
    session = with_agent["session"]
    response = bearer(with_agent["token"]).post(
        f"/api/sessions/{session.pk}/checkpoints/", {"label": "x"}, format="json"
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "SENDER_NOT_ALLOWED"


def test_an_agent_on_the_chap_socket_gets_an_error_frame_for_human_feedback(with_agent, transactional_db):
    session = with_agent["session"]
    head = WorkSession.objects.get(pk=session.pk).head_checksum
    approval = envelopes.feedback(
        "r1", "approval", session_id=session.pk, sender=("agent", "analyst"), context_checksum=head
    )

    async def scenario():
        socket = WebsocketCommunicator(
            application,
            f"/ws/sessions/{session.pk}/chap/",
            headers=[(b"authorization", f"Bearer {with_agent['token']}".encode())],
        )
        connected, _ = await socket.connect()
        assert connected
        assert (await socket.receive_json_from(timeout=30))["type"] == "hello"
        await socket.send_json_to(approval)
        answer = await socket.receive_json_from(timeout=30)
        while answer["type"] == "presence":
            answer = await socket.receive_json_from(timeout=30)
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["type"] == "error" and answer["error"]["code"] == "SENDER_NOT_ALLOWED"
    assert answer["message_id"] == approval["message_id"]


def test_owners_and_editors_still_manage_the_session(session):
    updated = session_update(session_id=session.pk, caller=caller_for_user(session.created_by), state="done")
    assert updated.state == SessionState.DONE


# -- a log that holds an agent's feedback (an older workbench's export) never counts it ------------------


def agent_approval_log() -> list[tuple[int, dict]]:
    log = [
        envelopes.proposal(message_id="t"),
        envelopes.response(message_id="r1", in_reply_to="t"),
        envelopes.feedback("r1", "approval", message_id="fa", sender=("agent", "reviewer")),
        envelopes.feedback("r1", "correction", message_id="fc", sender=("agent", "reviewer")),
    ]
    return list(enumerate(log, start=1))


def test_an_agents_approval_is_no_decision_in_the_metrics_history_and_summary():
    messages = agent_approval_log()
    graph = ContextGraph("s")
    for seq, envelope in messages:
        graph.apply(seq, envelope)
    metrics = process_metrics(graph, messages)
    assert metrics["human_corrections"] == 0 and metrics["approval_wait_s"] is None
    assert metrics_over_time(messages)[-1]["approvals"] == 0
    changed = difference({}, graph)
    assert changed["decisions"] == [] and "r1" not in {node["node"] for node in changed["settled"]}
    assert layered_summary(graph)["decisions"] == []


def test_the_retrospective_and_history_of_an_imported_log_ignore_an_agents_approval(db):
    owner = make_user("olga")
    session_id = "0b6e2b5e-7d3c-4a57-9a51-2f8ab2c1d0e4"
    rows, checksum = [], genesis_checksum(session_id)
    for seq, envelope in agent_approval_log():
        envelope = validate_envelope({**envelope, "session_id": session_id})
        checksum = next_checksum(checksum, envelope)
        rows.append({"seq": seq, "envelope": envelope, "checksum": checksum})
    data = {"format": EXPORT_FORMAT, "session": {"id": session_id, "title": "Old", "state": "done"}, "messages": rows}
    session = session_import(data=data, owner=owner)
    report = retrospective_report(session_id=session.pk, caller=caller_for_user(owner))
    assert report["metrics"]["human_corrections"] == 0 and report["metrics"]["approval_wait_s"] is None
    assert report["series"][-1]["approvals"] == 0
    assert report["deliverable"]["status"] != "approved"
    assert history_difference(session=session, from_seq=0, to_seq=4)["decisions"] == []
