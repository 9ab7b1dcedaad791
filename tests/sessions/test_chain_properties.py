"""The chain survives every value a client can send: generated numbers (floats of every exponent, -0.0,
integers far past 64 bits, numbers as a client may write them: 1E16, -0, 1e-400) and Unicode text go
in through each channel — a REST post, the CHAP socket, the browser's feedback form, the feedback
service with a free ``specific_instructions`` object, and a viewer's SAP request, recorded whole in its
operation_record — and every session then verifies (``manage.py verify_session``), exports, imports
under the same id and verifies again. Run on SQLite and on PostgreSQL (whose ``jsonb`` rewrites numbers).

CHAP_CHAIN_EXAMPLES sets the number of generated sessions (8 by default, so the suite stays fast); a
failing one is reported as found, not shrunk (each example is a whole session, and shrinking took minutes).
"""

import io
import json
import os

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from protocol import strict_json
from sessions.access import caller_for_user, session_access
from sessions.chap.chain import canonical_json
from sessions.log import feedback_give
from sessions.models import Message, WorkSession
from tests.factories import make_session, make_user
from tests.sessions import envelopes
from tests.sessions.strategies import TEXT_CHARACTERS
from tests.sockets import Socket, cookie_headers

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)
EXAMPLES = int(os.environ.get("CHAP_CHAIN_EXAMPLES", "8"))


class Literal(str):
    """A number exactly as a client may write it in JSON text (``1E16``, ``-0``, ``1e-400``)."""


NUMBER_TEXTS = ["1e16", "2.5E20", "1e308", "-0.0", "-0", "1e-400", "0.1e1", "1E+308", "1.0", "10000000000000000.0"]
NUMBERS = (
    st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e16, 2.5e20, 1e308, -0.0, 5e-324, 1.7976931348623157e308, 1e-7, 0.1, 1.0])
    | st.integers(-(2**64), 2**64)
    | st.integers(0, 300).map(lambda digits: -(10**digits) - 7)
    | st.builds(Literal, st.sampled_from(NUMBER_TEXTS))
)
LEAVES = NUMBERS | st.text(TEXT_CHARACTERS, max_size=12) | st.booleans() | st.none()
VALUES = st.recursive(
    LEAVES,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(TEXT_CHARACTERS, max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)
OBJECTS = st.dictionaries(st.text(TEXT_CHARACTERS, min_size=1, max_size=6), VALUES, min_size=1, max_size=4)


def json_text(value) -> str:
    """``value`` as a client writes it: Python's JSON, with each Literal's text as it is."""
    if isinstance(value, Literal):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(key)}:{json_text(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(json_text(item) for item in value) + "]"
    return json.dumps(value)


def head(session) -> str:
    return WorkSession.objects.get(pk=session.pk).head_checksum


def feedback_text(session, owner, target: str, instructions) -> tuple[str, str]:
    """A refinement of ``target`` replying to it, as JSON text with ``instructions`` written as a client
    writes them; and its message id."""
    envelope = envelopes.feedback(
        target,
        feedback_type="refinement",
        in_reply_to=target,
        session_id=session.pk,
        sender=("human", owner.username),
        context_checksum=head(session),
    )
    envelope["payload"]["specific_instructions"] = instructions
    return json_text(envelope), envelope["message_id"]


def post_rest(session, owner, envelope_text: str) -> None:
    client = APIClient()
    client.force_login(owner)
    response = client.post(f"/api/sessions/{session.pk}/messages/", envelope_text, content_type="application/json")
    assert response.status_code == 201, response.content[:500]


def post_on_socket(session, owner, envelope_text: str) -> None:
    headers = cookie_headers(None, owner)

    async def scenario():
        socket = Socket(session, headers)
        assert (await socket.open())[0]
        try:
            await socket.receive_until("hello", timeout=30)
            await socket.send(envelope_text)
            return await socket.receive_until(lambda frame: frame["type"] in ("ack", "error"), timeout=30)
        finally:
            await socket.close()

    answer = async_to_sync(scenario)()
    assert answer["type"] == "ack", answer


def post_form(session, owner, target: str, text: str, index: int) -> None:
    client = Client()
    client.force_login(owner)
    form = {
        "target_message_id": target,
        "feedback_type": "refinement",
        "instruction": f"Say more about {text}",
        "part_kind": "quote",
        "part_quote": text or "x",
        "part_index": str(index),
    }
    response = client.post(f"/sessions/{session.pk}/feedback/", form)
    assert "is in the thread" in response.content.decode(), response.content[:800]


def give_feedback(session, owner, target: str, instructions_text: str) -> None:
    """The feedback service with a free ``specific_instructions`` object, read from a client's text."""
    caller = caller_for_user(owner)
    payload = {
        "target_message_id": target,
        "feedback_type": "refinement",
        "specific_instructions": strict_json.loads(instructions_text),
    }
    feedback_give(access=session_access(session.pk, caller), caller=caller, payload=payload)


def ask_as_viewer(session, viewer, body_text: str) -> None:
    client = APIClient()
    client.force_login(viewer)
    text = f"@@query:system.ping#p1\n{body_text}\n@@end\n"
    response = client.post(f"/api/sessions/{session.pk}/sap/", text, content_type="text/plain")
    assert response.status_code == 200
    b"".join(response.streaming_content)


def verify(session_id) -> None:
    """``manage.py verify_session``: CommandError naming the first message that breaks the chain."""
    call_command("verify_session", str(session_id), stdout=io.StringIO())


def export_and_import_again(session, owner, tmp_path) -> str:
    """The session's export (over REST) imported with ``manage.py import_session`` after the session is
    deleted; the export's text."""
    client = APIClient()
    client.force_login(owner)
    exported = b"".join(client.get(f"/api/sessions/{session.pk}/export/")).decode()
    file = tmp_path / f"{session.pk}.json"
    file.write_text(exported, encoding="utf-8")
    WorkSession.objects.filter(pk=session.pk).delete()
    call_command("import_session", str(file), owner=owner.username, stdout=io.StringIO())
    return exported


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)
@given(
    rest=OBJECTS, socket=OBJECTS, service=OBJECTS, sap=OBJECTS, text=st.text(TEXT_CHARACTERS, max_size=40),
    index=st.integers(0, 10**40),
)  # fmt: skip
@example(  # the numbers the issue found breaking the chain on PostgreSQL, and their neighbours
    rest={"n": 1e16, "m": 2.5e20, "big": 1e308, "zero": -0.0},
    socket={"n": Literal("1E16"), "zero": Literal("-0"), "tiny": Literal("1e-400"), "int": 10**29 + 7},
    service={"list": [1e16, -0.0, 0.1, 1.0, 5e-324, -(10**300)]},
    sap={"n": 1.7976931348623157e308, "text": "\u2028 \U0001f600"},
    text="1e16 ü \U0001f600",
    index=10**40,
)
def test_every_session_verifies_and_round_trips_whatever_numbers_and_text_it_was_sent(
    tmp_path_factory, rest, socket, service, sap, text, index
):
    owner, viewer = make_user(), make_user()
    session = make_session(owner=owner, members={viewer: "viewer"})
    proposal = envelopes.proposal(
        session_id=session.pk, sender=("human", owner.username), context_checksum=head(session)
    )
    post_rest(session, owner, json.dumps(proposal))
    target = proposal["message_id"]
    by_rest, rest_id = feedback_text(session, owner, target, rest)
    post_rest(session, owner, by_rest)
    by_socket, socket_id = feedback_text(session, owner, target, socket)
    post_on_socket(session, owner, by_socket)
    post_form(session, owner, target, text, index)
    give_feedback(session, owner, target, json_text(service))
    ask_as_viewer(session, viewer, json_text({"echo": "numbers", "values": sap}))

    sent = {rest_id: rest, socket_id: socket}
    for message in Message.objects.filter(session=session, message_id__in=sent):
        # Stored as sent, its numbers canonical: compared as text, since 1e16 == 10**16 and -0.0 == 0.0.
        expected = strict_json.canonical(strict_json.loads(json_text(sent[message.message_id])))
        assert canonical_json(message.envelope["payload"]["specific_instructions"]) == canonical_json(expected)
    assert Message.objects.filter(session=session).last().payload_type == "operation_record"

    verify(session.pk)
    exported = export_and_import_again(session, owner, tmp_path_factory.mktemp("export"))
    verify(session.pk)
    client = APIClient()
    client.force_login(owner)
    again = b"".join(client.get(f"/api/sessions/{session.pk}/export/")).decode()
    assert json.loads(again)["messages"] == json.loads(exported)["messages"]
