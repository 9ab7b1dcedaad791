"""The people of the agents' tests: ``team`` is Olga's session with the whole built-in team taking
part (modules whose team is made otherwise define their own)."""

import pytest

from agents.behaviours.registry import builtin_agents_ensure
from sessions.access import caller_for_user
from sessions.log import message_post_at_head
from sessions.membership import agent_join
from tests.people import session_of


@pytest.fixture
def team(django_capture_on_commit_callbacks):
    people = session_of(title="Sales review")
    session, owner = people["session"], people["owner"]
    for agent in builtin_agents_ensure():
        agent_join(session=session, agent=agent)

    def says(payload_type, payload, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            ack = message_post_at_head(
                session_id=session.pk,
                caller=caller_for_user(owner),
                payload_type=payload_type,
                payload=payload,
                **kwargs,
            )
        return ack.message_id

    return {"session": session, "owner": owner, "says": says}
