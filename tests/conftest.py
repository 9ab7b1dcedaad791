import pytest

from tests.factories import make_user


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


@pytest.fixture(scope="session")
def chromium():
    from tests.chromium import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    import os

    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop alive in this thread; the tests only
    # touch the ORM between browser calls, never concurrently with them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1366, "height": 850})
    page = context.new_page()
    console_errors = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.console_errors = console_errors
    yield page
    context.close()
