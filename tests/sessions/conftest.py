"""The people of the session tests."""

import pytest

from tests.factories import make_session, make_user
from tests.people import clerk_world


@pytest.fixture
def alice(db):
    """Alice, the sender the envelope factories (tests/sessions/envelopes.py) write by default."""
    return make_user("alice")


@pytest.fixture
def session(alice):
    """Alice's session."""
    return make_session(owner=alice)


@pytest.fixture
def world():
    """Olga's "Inventory" session, edited by Ed, with Clerk, an external agent, taking part."""
    return clerk_world("editor")
