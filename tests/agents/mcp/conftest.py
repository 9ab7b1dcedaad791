import pytest

from tests.agents.mcp.world import make_mcp_world


@pytest.fixture
def mcp_world(transactional_db):
    return make_mcp_world()
