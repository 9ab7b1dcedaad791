"""The people of the dataset tests."""

import pytest

from tests.people import session_of, with_agent


@pytest.fixture
def world():
    """Olga's session with an analyst agent that may use datasets and files."""
    return with_agent(session_of(), "analyst", allowed_operations=["dataset.*", "file.*"])
