"""An answer answers a question of its own session: one naming a question of another session (which the
sender may not even see), no message, or a message that asks nothing is refused with RESOURCE_NOT_FOUND
on every path (REST, the CHAP socket, the browser's answer form), and nothing is stored."""

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from rest_framework.test import APIClient

from sessions.access import caller_for_user
from sessions.models import Message, WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes
from tests.sockets import Socket, cookie_headers

pytestmark = pytest.mark.django_db(transaction=True)
QUESTION = {"question": "Which suppliers?", "options": [{"id": "eu", "label": "European ones"}]}


@pytest.fixture
def world():
    """Mallory edits her own session; Olga's session, which Mallory cannot see, holds an open question."""
    mallory, olga = make_user("mallory"), make_user("olga")
    own, foreign = make_session(owner=mallory), make_session(owner=olga)
    asked = post_message(foreign, agent_in(foreign), envelopes.envelope, "clarification", QUESTION)
    proposal = post_message(own, caller_for_user(mallory), envelopes.proposal)
    return {"mallory": mallory, "own": own, "foreign": foreign, "asked": asked.message_id, "proposal": proposal}


def answer_to(world, asked: str) -> dict:
    head = WorkSession.objects.get(pk=world["own"].pk).head_checksum
    payload = {"clarification_message_id": asked, "option_id": "eu"}
    return envelopes.envelope(
        "clarification_answer", payload, session_id=world["own"].pk, sender=("human", "mallory"), context_checksum=head
    )


def stored_answers(world) -> int:
    return Message.objects.filter(session=world["own"], payload_type="clarification_answer").count()


def assert_not_found(error: dict, asked: str) -> None:
    assert error["code"] == "RESOURCE_NOT_FOUND"
    assert error["details"] == {"resource_type": "QUESTION", "resource_name": asked}
    assert error["message"] and error["suggestion"]


def test_over_rest_an_answer_to_another_sessions_question_is_not_found(world):
    api = APIClient()
    api.force_login(world["mallory"])
    response = api.post(f"/api/sessions/{world['own'].pk}/messages/", answer_to(world, world["asked"]), format="json")
    assert response.status_code == 404
    assert_not_found(response.json()["error"], world["asked"])
    assert stored_answers(world) == 0
    assert WorkSession.objects.get(pk=world["foreign"].pk).open_questions == 1


@pytest.mark.parametrize("asked", ["foreign question", "no message", "a message that asks nothing"])
def test_over_the_chap_socket_an_answer_to_no_question_of_the_session_is_not_found(client, world, asked):
    named = {"foreign question": world["asked"], "no message": "msg_nowhere", "a message that asks nothing": None}
    asked_id = named[asked] or world["proposal"].message_id
    answer = answer_to(world, asked_id)
    headers = cookie_headers(client, world["mallory"])

    async def scenario():
        socket = Socket(world["own"], headers)
        try:
            await socket.open()
            await socket.receive_until("hello")
            await socket.send(answer)
            return await socket.receive_until("error")
        finally:
            await socket.close()

    frame = async_to_sync(scenario)()
    assert frame["message_id"] == answer["message_id"]
    assert_not_found(frame["error"], asked_id)
    assert stored_answers(world) == 0


def test_the_answer_form_refuses_another_sessions_question(world):
    browser = Client()
    browser.force_login(world["mallory"])
    form = {"clarification_message_id": world["asked"], "option_id": "eu"}
    response = browser.post(f"/sessions/{world['own'].pk}/answers/", form)
    assert response.status_code == 200
    assert 'role="alert">this session has no such question to answer' in response.content.decode()
    assert stored_answers(world) == 0


def test_an_answer_to_the_sessions_own_question_is_taken(world):
    own_question = post_message(world["own"], agent_in(world["own"]), envelopes.envelope, "clarification", QUESTION)
    api = APIClient()
    api.force_login(world["mallory"])
    answer = answer_to(world, own_question.message_id)
    response = api.post(f"/api/sessions/{world['own'].pk}/messages/", answer, format="json")
    assert response.status_code == 201, response.content
    assert stored_answers(world) == 1
