"""The people of the tests: personas and the sessions they share, made by small factories.

Olga owns the session; Ed edits it, Vic views it, and Out is a user who is in none of it. A "world" is
a plain dict of what a test works with: the session, its people by role, and the agent taking part.
"""

from rest_framework.test import APIClient

from agents.tokens import token_issue
from sessions.membership import agent_join
from tests.factories import make_agent, make_session, make_user

NAMES = {"owner": "olga", "editor": "ed", "viewer": "vic", "outsider": "out"}


def session_of(*roles, title=None):
    """Olga's session with one person in each of ``roles`` (editor, viewer; an outsider stays out of it)."""
    owner = make_user(NAMES["owner"])
    people = {role: make_user(NAMES[role]) for role in roles}
    members = {user: role for role, user in people.items() if role != "outsider"}
    return {"session": make_session(owner=owner, title=title, members=members), "owner": owner, **people}


def with_agent(world, name, *, token=True, **fields):
    """``world`` with agent ``name`` (made with ``fields``) taking part in its session, and its bearer token
    unless ``token`` is false."""
    agent = make_agent(name, **fields)
    agent_join(session=world["session"], agent=agent)
    return {**world, "agent": agent, **({"token": token_issue(agent=agent)} if token else {})}


def with_builtin(session, **roles):
    """Built-in agents taking part in ``session``, each named with its roles (``finder=["research"]``), by name."""
    agents = {name: make_agent(name, kind="builtin", roles=agent_roles) for name, agent_roles in roles.items()}
    for agent in agents.values():
        agent_join(session=session, agent=agent)
    return agents


def clerk_world(*roles, title="Inventory", **fields):
    """Olga's session with Clerk, an external agent, taking part: the agent of the socket tests."""
    return with_agent(session_of(*roles, title=title), "clerk", kind="external", **fields)


def agents_in(session, count):
    tokens = []
    for n in range(count):
        agent = make_agent(f"client{n}")
        agent_join(session=session, agent=agent)
        tokens.append((agent.name, token_issue(agent=agent)))
    return tokens


def api_as(user=None, token=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client
