import pytest

from tests.factories import make_user
from tests.people import session_of


@pytest.fixture
def user(db):
    return make_user()


@pytest.fixture
def logged_in_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def daphne_server(transactional_db):
    """A real Daphne process on the test database; data must be committed to be seen there."""
    from tests.live import DaphneServer

    server = DaphneServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def chromium():
    """Chromium for one test module. Playwright's sync API runs an event loop in this thread
    while it is open, which async_to_sync elsewhere cannot share, so it closes with the module."""
    import os

    from playwright.sync_api import sync_playwright

    from tests.chromium import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    # The tests only touch the ORM between browser calls, never concurrently with them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def page(chromium):
    from tests.chromium import open_page

    page = open_page(chromium, height=850)
    yield page
    page.context.close()


@pytest.fixture(autouse=True)
def fast_password_hashing(request, settings):
    """PBKDF2 costs a quarter second a user; tests that do not log in through a real server need no such cost."""
    if request.node.get_closest_marker("processes") is None:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def close_dataset_connections(django_db_setup, django_db_blocker):
    """On PostgreSQL the datasets alias is a second connection to the test database; it must be
    closed before pytest-django drops that database."""
    yield
    from django.db import connections

    from agents.operations.datasets.lifecycle import every_dataset_drop

    datasets = connections["datasets"]
    if datasets.vendor == "postgresql":
        # Reader roles belong to the cluster, not the test database: the documented path drops them.
        with django_db_blocker.unblock():
            every_dataset_drop()
    datasets.close()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test drives its own event loop; a channel layer built in an earlier test's loop (the
    Redis layer keeps loop-bound locks) must not be reused."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def people(db):
    """Olga's session, edited by Ed and viewed by Vic, and Out, who is in none of it."""
    return session_of("editor", "viewer", "outsider", title="Battery market")
