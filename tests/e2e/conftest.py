import pytest

from tests.live import DaphneServer


@pytest.fixture
def two_servers(transactional_db):
    servers = [DaphneServer().start(), DaphneServer().start()]
    yield servers
    for server in servers:
        server.stop()
