"""The people of the session tests."""

import pytest

from tests.people import clerk_world


@pytest.fixture
def world():
    """Olga's "Inventory" session, edited by Ed, with Clerk, an external agent, taking part."""
    return clerk_world("editor")
