import os

import pytest
from django.db import connection

from tests.live import DaphneServer


def scale_configured() -> bool:
    return connection.vendor == "postgresql" and bool(os.environ.get("REDIS_URL"))


requires_scale = pytest.mark.skipif(
    not scale_configured(), reason="several servers need DATABASE_URL=postgres://… and REDIS_URL (see .ci/run)"
)


@pytest.fixture
def two_servers(transactional_db):
    servers = [DaphneServer().start(), DaphneServer().start()]
    yield servers
    for server in servers:
        server.stop()
