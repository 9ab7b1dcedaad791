"""Whatever validation accepts, every page and fragment renders: valid messages of every payload type,
generated from the schemas, shown in the thread, the map and its node details, the history, the
deliverable, the retrospective, the exports and each role's live fragment, without an exception.

CHAP_PROPERTY_EXAMPLES sets the examples per payload type (5 by default, so the suite stays fast).
"""

import os
import uuid

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from protocol.errors import ProtocolError
from sessions.access import SYSTEM, caller_for_user
from sessions.chap.schemas import PAYLOAD_TYPES, SENDERS
from sessions.log import envelope_for, message_post
from sessions.membership import session_update
from sessions.models import Message, WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes
from tests.sessions.strategies import payloads
from workspace.fragments import live_update

pytestmark = pytest.mark.django_db
EXAMPLES = int(os.environ.get("CHAP_PROPERTY_EXAMPLES", "5"))


def world():
    owner, editor, viewer = make_user(), make_user(), make_user()
    session = make_session(owner=owner, members={editor: "editor", viewer: "viewer"})
    people = {"owner": owner, "editor": editor, "viewer": viewer}
    agent = agent_in(session, f"agent-{uuid.uuid4().hex[:8]}")
    proposal = post_message(session, caller_for_user(owner), envelopes.proposal)
    question = {"question": "Which suppliers?", "options": [{"id": "eu", "label": "European ones"}]}
    clarification = post_message(session, agent, envelopes.envelope, "clarification", question)
    return session, people, agent, (proposal.message_id, clarification.message_id)


def caller_of(kind: str, people: dict, agent):
    return {"human": caller_for_user(people["owner"]), "agent": agent, "system": SYSTEM}[kind]


def ok(response, *allowed: int) -> str:
    assert response.status_code in (allowed or (200,)), (response.status_code, response.content[:500])
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


def render_everywhere(session: WorkSession, people: dict) -> None:
    """Every page and fragment that shows messages, for the owner; the session page for each role."""
    session.refresh_from_db()
    base, api = f"/sessions/{session.pk}/", f"/api/sessions/{session.pk}/"
    clients = {}
    for role, user in people.items():
        clients[role] = Client()
        clients[role].force_login(user)
        ok(clients[role].get(base))
    client = clients["owner"]
    ok(client.get(base + "map/"))
    ok(client.get(base + "map/?expand=1"))
    ok(client.get(base + "history/"))
    ok(client.get(base + f"history/diff/?from=0&to={session.head_seq}"))
    ok(client.get(base + "history/map/?seq=1"))  # as the proposal left it: a replay
    for index in range(200):  # every node's details, now and in the history, until there is no such node
        if client.get(base + f"map/node/?node={index}").status_code == 404:
            break
        ok(client.get(base + f"history/{session.head_seq}/node/?node={index}"))
    ok(client.get(base + "deliverable/"), 200, 404)
    for tail in ("graph/?as=graphml", "graph/", "summary/", "metrics/", "context/", "export/"):
        ok(client.get(api + tail))
    ok(client.get(api + "deliverable/"), 200, 404)
    rows = Message.objects.filter(session=session, seq__gt=1).values_list("seq", "envelope", "checksum")
    for seq, envelope, checksum in rows:  # the live fragments of what came after the proposal
        for role, user in people.items():
            live_update(
                session=session, seq=seq, envelope=envelope, checksum=checksum, role=role, caller=caller_for_user(user)
            )


def render_retrospective(session: WorkSession, owner) -> None:
    session_update(session_id=session.pk, caller=caller_for_user(owner), state="done")
    client = Client()
    client.force_login(owner)
    ok(client.get(f"/sessions/{session.pk}/retrospective/"))
    ok(client.get(f"/api/sessions/{session.pk}/retrospective/?as=json"))
    ok(client.get(f"/api/sessions/{session.pk}/retrospective/?as=markdown"))


@pytest.mark.parametrize("payload_type", PAYLOAD_TYPES)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_every_valid_message_renders_on_every_page(payload_type, data):
    session, people, agent, (proposal_id, clarification_id) = world()
    kind = data.draw(st.sampled_from(sorted(SENDERS[payload_type])), label="sender")
    caller = caller_of(kind, people, agent)
    references = [clarification_id] if payload_type == "clarification_answer" else [proposal_id]
    payload = data.draw(payloads(payload_type, references), label="payload")
    envelope = envelope_for(
        session_id=session.pk,
        caller=caller,
        payload_type=payload_type,
        payload=payload,
        context_checksum=WorkSession.objects.get(pk=session.pk).head_checksum,
        in_reply_to=data.draw(st.sampled_from([None, proposal_id]), label="in_reply_to"),
    )
    try:
        message_post(session_id=session.pk, caller=caller, envelope=envelope)
    except ProtocolError:
        reject()  # refused: only what is accepted must render
    render_everywhere(session, people)
    render_retrospective(session, people["owner"])


def test_feedback_whose_instructions_hold_items_renders_everywhere():
    """The shape that broke the session page for everyone (#15.4), as a fixed example."""
    session, people, _, (proposal_id, _) = world()
    instructions = {"items": "xyz", "keys": [1, {"values": None}]}

    def feedback(**kwargs):
        sent = envelopes.feedback(proposal_id, **kwargs)
        return {**sent, "payload": {**sent["payload"], "specific_instructions": instructions}}

    post_message(session, caller_for_user(people["owner"]), feedback)
    render_everywhere(session, people)
    render_retrospective(session, people["owner"])
