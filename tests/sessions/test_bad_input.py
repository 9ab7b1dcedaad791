"""Bad input gets a structured error and the connection stays usable: frames and REST bodies that are
not strict JSON, bodies and frames over the limits, a resume past the head, control characters in an
export, and the errors Django answers itself (404, 500, 400, 403)."""

import json
import xml.etree.ElementTree as ET

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from agents.sap.parser import parse
from protocol.strict_json import MAX_DEPTH
from sessions.access import caller_for_user
from sessions.chap.schemas import validate_envelope
from sessions.models import WorkSession
from tests.factories import post_message
from tests.sessions import envelopes
from tests.sockets import bearer_headers, cookie_headers
from workbench.asgi import application

DEEP = "[" * 100_000 + "]" * 100_000
NOT_STRICT = {
    "nested too deep": DEEP,
    "nested one level too deep": json.dumps({"a": json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)}),
    "lone surrogate escape": '{"type": "ping", "note": "\\ud800"}',
    "lone surrogate as text": '{"type": "ping", "note": "\ud800"}',
    "NaN": '{"type": "ping", "n": NaN}',
    "Infinity": '{"type": "ping", "n": -Infinity}',
    "a number too large": '{"type": "ping", "n": 1e999}',
    "an integer too long to print again": '{"type": "ping", "n": ' + "9" * 4301 + "}",
}


def envelope_for(world, **kwargs):
    head = WorkSession.objects.get(pk=world["session"].pk).head_checksum
    return envelopes.proposal(session_id=world["session"].pk, sender=("human", "olga"), context_checksum=head, **kwargs)


async def frames_until(communicator, kind):
    while True:
        frame = await communicator.receive_json_from(timeout=30)
        if frame["type"] == kind:
            return frame


def sockets(world):
    chap = f"/ws/sessions/{world['session'].pk}/chap/"
    return {
        "chap": WebsocketCommunicator(application, chap, headers=cookie_headers(None, world["owner"])),
        "agent": WebsocketCommunicator(application, "/ws/agents/", headers=bearer_headers(world["token"])),
    }


# -- socket frames -----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["chap", "agent"])
def test_frames_that_are_not_strict_json_get_invalid_frame_and_the_socket_lives_on(world, kind):
    communicator = sockets(world)[kind]

    async def scenario():
        assert (await communicator.connect())[0]
        await frames_until(communicator, "hello")
        answers = {}
        for name, text in NOT_STRICT.items():
            await communicator.send_to(text_data=text)
            answers[name] = await frames_until(communicator, "error")
        await communicator.send_to(text_data=json.dumps({"type": "ping"}))
        pong = await frames_until(communicator, "pong")
        await communicator.disconnect()
        return answers, pong

    answers, pong = async_to_sync(scenario)()
    for name, frame in answers.items():
        assert frame["error"]["code"] == "INVALID_FRAME", name
    assert answers["nested too deep"]["error"]["details"] == {"reason": "depth", "limit": MAX_DEPTH}
    assert answers["lone surrogate as text"]["error"]["details"]["reason"] == "surrogate"
    assert answers["NaN"]["error"]["details"]["reason"] == "constant"
    assert pong["type"] == "pong"


@pytest.mark.django_db(transaction=True)
def test_a_message_that_makes_the_server_fail_is_answered_internal_error_and_the_socket_lives_on(world, monkeypatch):
    import sessions.consumers

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(sessions.consumers, "message_post", broken)

    communicator = sockets(world)["chap"]

    async def scenario():
        await communicator.connect()
        await frames_until(communicator, "hello")
        await communicator.send_json_to(await database_sync_to_async(envelope_for)(world, message_id="m1"))
        error = await frames_until(communicator, "error")
        await communicator.send_json_to({"type": "ping"})
        pong = await frames_until(communicator, "pong")
        await communicator.disconnect()
        return error, pong

    error, pong = async_to_sync(scenario)()
    assert (error["message_id"], error["error"]["code"], error["error"]["retryable"]) == ("m1", "INTERNAL_ERROR", True)
    assert error["error"]["details"]["request_id"].startswith("req_") and "a bug" not in json.dumps(error)
    assert pong["type"] == "pong"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["chap", "agent"])
def test_a_resume_past_the_head_is_refused_and_live_delivery_goes_on(world, kind):
    session_id = str(world["session"].pk)
    owner = caller_for_user(world["owner"])

    communicator = sockets(world)[kind]

    async def scenario():
        await communicator.connect()
        await frames_until(communicator, "hello")
        await communicator.send_json_to({"type": "resume", "since_seq": 50, "session_id": session_id})
        error = await frames_until(communicator, "error")
        await database_sync_to_async(post_message)(world["session"], owner, envelopes.proposal)
        delivered = await frames_until(communicator, "message")
        await communicator.disconnect()
        return error, delivered

    error, delivered = async_to_sync(scenario)()
    assert error["error"]["code"] == "INVALID_FRAME" and error["error"]["details"]["head_seq"] == 0
    assert delivered["seq"] == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("since", "invalid"),
    [
        ("50", "at most 0"),
        ("-1", "expected integer >= 0"),
        ("1.5", "expected integer >= 0"),
        ("one", "expected integer >= 0"),
        ("", "expected integer >= 0"),
        ("%D9%A1", "expected integer >= 0"),  # an Arabic-Indic one
        (str(2**31), "expected integer >= 0"),
    ],
)
def test_a_page_socket_opened_with_a_bad_since_is_told_why_and_goes_on_live_from_the_head(world, since, invalid):
    path = f"/ws/sessions/{world['session'].pk}/ui/?since={since}"
    communicator = WebsocketCommunicator(application, path, headers=cookie_headers(None, world["owner"]))

    async def scenario():
        assert (await communicator.connect())[0]
        error = await communicator.receive_json_from(timeout=30)
        await database_sync_to_async(post_message)(
            world["session"], caller_for_user(world["owner"]), envelopes.proposal
        )
        fragment = await communicator.receive_from(timeout=30)
        await communicator.disconnect()
        return error, fragment

    error, fragment = async_to_sync(scenario)()
    assert error["type"] == "error" and error["error"]["code"] == "INVALID_FRAME"
    assert error["error"]["details"]["invalid"] == {"since": invalid}
    assert '<article id="msg-1"' in fragment


@pytest.mark.django_db(transaction=True)
@pytest.mark.processes
def test_over_real_daphne_a_frame_over_the_limit_is_refused_and_only_a_huge_one_ends_the_socket(world, daphne_server):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = daphne_server.url.replace("http", "ws") + f"/ws/sessions/{world['session'].pk}/chap/"
    headers = {"Authorization": f"Bearer {world['token']}"}

    def next_of(socket, kind):
        return next(f for f in (json.loads(socket.recv(timeout=10)) for _ in range(5)) if f["type"] == kind)

    with connect(url, additional_headers=headers, max_size=None) as socket:
        next_of(socket, "hello")
        socket.send(json.dumps({"type": "ping", "pad": "x" * (2 * 1024 * 1024)}))
        assert next_of(socket, "error")["error"]["code"] == "MESSAGE_TOO_LARGE"
        socket.send(json.dumps({"type": "ping"}))
        assert next_of(socket, "pong")
        # Past the transport's limit Daphne ends the connection (1009, or the TCP connection dropped).
        with pytest.raises((ConnectionClosed, OSError)):
            socket.send("x" * (5 * 1024 * 1024))
            socket.recv(timeout=10)
    with connect(url, additional_headers=headers) as socket:  # the server goes on serving
        assert next_of(socket, "hello")


# -- REST bodies ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", [name for name in NOT_STRICT if name != "lone surrogate as text"])
def test_rest_bodies_that_are_not_strict_json_get_invalid_request(world, name):
    client = APIClient()
    client.force_login(world["owner"])
    body = NOT_STRICT[name]
    response = client.post(f"/api/sessions/{world['session'].pk}/messages/", data=body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"]["code"] == "INVALID_REQUEST"


@pytest.mark.django_db
def test_a_rest_body_over_the_upload_limit_is_413_message_too_large(world, settings):
    client = APIClient()
    client.force_login(world["owner"])
    envelope = envelope_for(world)
    envelope["payload"]["background_context"] = ["x" * 9_000] * 600  # about 5 MB
    response = client.post(
        f"/api/sessions/{world['session'].pk}/messages/", data=json.dumps(envelope), content_type="application/json"
    )
    assert response.status_code == 413
    error = response.json()["error"]
    assert (
        error["code"] == "MESSAGE_TOO_LARGE" and error["details"]["limit_bytes"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    )
    assert not WorkSession.objects.get(pk=world["session"].pk).head_seq


@pytest.mark.django_db(transaction=True)
def test_a_reply_to_no_message_of_the_session_is_refused_on_every_channel(world):
    """REST and the CHAP socket refuse it with RESOURCE_NOT_FOUND naming the field; the form says so."""
    client = APIClient()
    client.force_login(world["owner"])
    messages = f"/api/sessions/{world['session'].pk}/messages/"
    response = client.post(messages, envelope_for(world, in_reply_to="msg_nowhere"), format="json")
    assert response.status_code == 404
    assert response.json()["error"]["details"] == {
        "resource_type": "MESSAGE",
        "resource_name": "msg_nowhere",
        "field": "in_reply_to",
    }

    communicator = sockets(world)["chap"]

    async def on_the_socket(frame):
        await communicator.connect()
        await frames_until(communicator, "hello")
        await communicator.send_json_to(frame)
        answer = await frames_until(communicator, "error")
        await communicator.disconnect()
        return answer

    frame = async_to_sync(on_the_socket)(envelope_for(world, in_reply_to="msg_nowhere"))
    assert frame["error"]["code"] == "RESOURCE_NOT_FOUND" and frame["error"]["details"]["field"] == "in_reply_to"
    form = {"target_message_id": "msg_nowhere", "feedback_type": "refinement", "instruction": "Say more about it"}
    browser = Client()
    browser.force_login(world["owner"])
    page = browser.post(f"/sessions/{world['session'].pk}/feedback/", form).content.decode()
    assert "in_reply_to names no message of this session" in page
    assert not WorkSession.objects.get(pk=world["session"].pk).head_seq
    assert client.post(messages, envelope_for(world, in_reply_to=None), format="json").status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("value", [float("nan"), float("inf"), "\udc00"])
def test_the_write_path_refuses_what_strict_json_refuses_whoever_builds_the_message(world, value):
    from protocol.errors import ProtocolError

    envelope = envelope_for(world)
    envelope["payload"]["template"] = value
    with pytest.raises(ProtocolError) as refused:
        validate_envelope(envelope)
    assert refused.value.code == "INVALID_MESSAGE"


@pytest.mark.django_db
@pytest.mark.parametrize("value", [10**4301, {"n": [1, -(10**4400)]}], ids=["an integer", "one nested deeper"])
def test_the_write_path_refuses_an_integer_python_cannot_print_naming_its_field(world, value):
    from protocol.errors import ProtocolError

    envelope = envelopes.feedback("m1", session_id=world["session"].pk, sender=("human", "olga"))
    envelope["payload"]["specific_instructions"] = {"limit": value}
    with pytest.raises(ProtocolError) as refused:
        validate_envelope(envelope)
    error = refused.value
    assert error.code == "INVALID_MESSAGE" and list(error.details["invalid"].values()) == ["number"]
    assert next(iter(error.details["invalid"])).startswith("payload.specific_instructions.limit")


@pytest.mark.django_db
def test_numbers_are_kept_in_the_form_every_database_reads_back(world):
    """PostgreSQL's jsonb gives 1e16 back as 10000000000000000 and -0.0 as 0.0: the message is hashed
    and stored in that form on every database; other numbers stay as sent."""
    envelope = envelopes.feedback("m1", session_id=world["session"].pk, sender=("human", "olga"))
    sent = {"big": 1e16, "huge": -2.5e20, "max": 1.7976931348623157e308, "zero": -0.0, "tiny": 1.5e-7, "f": 0.1}
    envelope["payload"]["specific_instructions"] = {**sent, "nested": [[1e22, 1.0, 10**30]]}
    kept = validate_envelope(envelope)["payload"]["specific_instructions"]
    assert json.dumps(kept, sort_keys=True) == json.dumps(
        {
            "big": 10**16,
            "huge": -(25 * 10**19),
            "max": 17976931348623157 * 10**292,
            "zero": 0.0,
            "tiny": 1.5e-7,
            "f": 0.1,
            "nested": [[10**22, 1.0, 10**30]],
        },
        sort_keys=True,
    )
    assert isinstance(envelope["payload"]["specific_instructions"]["big"], float)  # the caller's is as it was
    envelope["payload"]["specific_instructions"] = {7: (1e16, -0.0), None: {True: 2.5}}  # as Python code builds them
    assert validate_envelope(envelope)["payload"]["specific_instructions"] == {
        "7": [10**16, 0.0],
        "null": {"true": 2.5},
    }


def test_sap_block_bodies_are_strict_json_too():
    for body, code in [
        ('{"n": ' + "9" * 4301 + "}", "INVALID_JSON"),
        ('{"path": "\\ud800"}', "INVALID_JSON"),
        ('{"n": 1e999}', "INVALID_JSON"),
        ('{"n": Infinity}', "INVALID_JSON"),
        ("[" * 70 + "]" * 70, "DEPTH_EXCEEDED"),
        ("{" + '"a":{' * 70 + "}" * 71, "DEPTH_EXCEEDED"),
    ]:
        (item,) = parse(f"@@action:file.list#a1\n{body}\n@@end\n")
        assert item.code == code, body


# -- exports -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_graphml_stays_well_formed_xml_when_a_message_holds_control_characters(world):
    post_message(
        world["session"], caller_for_user(world["owner"]), envelopes.proposal, goal="Bell\x07 tab\t and\x1b[31m"
    )
    client = APIClient()
    client.force_login(world["owner"])
    response = client.get(f"/api/sessions/{world['session'].pk}/graph/?as=graphml")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()
    root = ET.fromstring(text)  # raises on a character XML forbids
    texts = [data.text for data in root.iter("{http://graphml.graphdrawing.org/xmlns}data") if data.text]
    assert any(text.startswith("Bell\ufffd tab\t and\ufffd[31m") for text in texts)


# -- errors Django answers itself ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_unknown_api_paths_answer_the_error_model_in_json(world, settings, debug):
    settings.DEBUG = debug
    client = APIClient()
    client.force_login(world["owner"])
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "RESOURCE_NOT_FOUND"


@pytest.mark.django_db
def test_unknown_pages_get_a_page_in_plain_words(client, world):
    client.force_login(world["owner"])
    response = client.get("/sessions/00000000-0000-0000-0000-000000000000/")
    page = response.content.decode()
    assert response.status_code == 404 and 'data-testid="error-page"' in page
    assert "There is nothing here" in page and "Back to your sessions" in page


@pytest.mark.django_db
def test_a_page_that_crashes_gets_a_friendly_500_with_a_reference(client, world, monkeypatch):
    from workspace.views import listing

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(listing, "session_rows", broken)
    client.raise_request_exception = False
    client.force_login(world["owner"])
    response = client.get("/sessions/")
    page = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in page
    assert "reference req_" in page and "a bug" not in page


@pytest.mark.django_db
def test_a_form_body_over_the_limit_is_413_and_a_stale_form_a_page_that_says_so(world, settings):
    from django.test import Client

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["owner"])
    stale = client.post(f"/sessions/{world['session'].pk}/feedback/", {"feedback_type": "approval"})
    assert stale.status_code == 403 and "This form has expired" in stale.content.decode()
    client = Client()
    client.force_login(world["owner"])
    big = client.post(f"/sessions/{world['session'].pk}/feedback/", {"provided_context": "x" * 5000})
    assert big.status_code == 413 and "too large" in big.content.decode()
