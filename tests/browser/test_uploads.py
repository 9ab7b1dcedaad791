"""Uploading from the new-session form in Chromium: a progress bar while a large file goes up, and a
refusal in the form past WORKBENCH_MAX_UPLOAD_MB, from the page before sending and from the server."""

import pytest

from agents.operations.files import workspace_root
from sessions.models import WorkSession
from tests.chromium import open_page, screenshot, sign_in
from tests.factories import make_user
from tests.live import DaphneServer

pytestmark = [pytest.mark.browser, pytest.mark.processes]

LIMIT_MB = 64
MB = 1024 * 1024


@pytest.fixture
def server(transactional_db):
    server = DaphneServer(WORKBENCH_MAX_UPLOAD_MB=str(LIMIT_MB)).start()
    yield server
    server.stop()


def sized_file(tmp_path, name, size):
    path = tmp_path / name
    with path.open("wb") as file:
        file.write(b"region,amount\n")
        file.truncate(size)
    return str(path)


def new_session_form(chromium, server, goal):
    page = open_page(chromium)
    sign_in(page, server, "nina")
    page.goto(f"{server.url}/sessions/new/")
    page.get_by_label("Goal").fill(goal)
    return page


def test_a_large_file_goes_up_with_a_progress_bar(chromium, server, tmp_path):
    make_user("nina")
    page = new_session_form(chromium, server, "Summarise the large export")
    cdp = page.context.new_cdp_session(page)  # 20 MB/s up: the bar is on screen for a few seconds
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 20 * MB},
    )
    page.get_by_label("Files to attach").set_input_files(sized_file(tmp_path, "export.csv", (LIMIT_MB - 4) * MB))
    page.get_by_role("button", name="Start the session").click()
    bar = page.get_by_test_id("upload-progress")
    bar.wait_for()
    page.wait_for_function("() => document.querySelector('progress.upload-progress')?.value > 0")
    screenshot(page, "upload-progress", whole=False)
    page.wait_for_url("**/sessions/*-*/", timeout=120_000)
    session = WorkSession.objects.get(title="Summarise the large export")
    assert (workspace_root(session.pk) / "attachments/export.csv").stat().st_size == (LIMIT_MB - 4) * MB
    assert not page.console_errors
    page.context.close()


def test_a_file_past_the_limit_is_refused_in_the_form(chromium, server, tmp_path):
    make_user("nina")
    page = new_session_form(chromium, server, "Summarise the huge export")
    page.get_by_label("Files to attach").set_input_files(sized_file(tmp_path, "huge.csv", int(1.5 * LIMIT_MB * MB)))
    page.get_by_role("button", name="Start the session").click()
    error = page.get_by_test_id("upload-error")
    error.wait_for()
    assert f"uploads are limited to {LIMIT_MB} MB" in error.text_content()
    screenshot(page, "upload-refused-in-the-page", whole=False)

    # Past the page's check (an old page, a script that did not load), the server refuses it: the
    # form's handler stops it as its bytes pass the limit, and the form says why.
    page.locator("input[type=file]").evaluate("input => { input.dataset.maxUploadBytes = 1e15; }")
    page.get_by_label("Files to attach").set_input_files(sized_file(tmp_path, "over.csv", (LIMIT_MB + 1) * MB))
    page.get_by_role("button", name="Start the session").click()
    refused = page.get_by_text(f"uploads are limited to {LIMIT_MB} MB ({LIMIT_MB * MB} bytes)")
    refused.wait_for(timeout=60_000)
    assert not page.get_by_test_id("upload-error").count(), "the server's answer, not the page's check"
    screenshot(page, "upload-refused-by-the-server", whole=False)
    assert not WorkSession.objects.filter(title="Summarise the huge export").exists()
    page.context.close()


def test_the_feedback_panel_attaches_a_file_with_a_progress_bar_and_says_why_one_is_refused(chromium, server, tmp_path):
    from tests.factories import make_session

    session = make_session(owner=make_user("nina"))
    page = open_page(chromium)
    sign_in(page, server, "nina")
    page.goto(f"{server.url}/sessions/{session.pk}/")
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 20 * MB},
    )
    attached = page.locator("[data-role=attached]")
    page.get_by_label("Attach files").set_input_files(sized_file(tmp_path, "export.csv", 40 * MB))
    attached.get_by_test_id("upload-progress").wait_for()
    attached.scroll_into_view_if_needed()
    screenshot(page, "upload-attach-progress", whole=False)
    attached.get_by_text("uploads/export.csv").wait_for(timeout=120_000)
    assert (workspace_root(session.pk) / "uploads/export.csv").stat().st_size == 40 * MB

    page.get_by_label("Attach files").set_input_files(sized_file(tmp_path, "over.csv", (LIMIT_MB + 1) * MB))
    refused = attached.get_by_text("over.csv: not attached")
    refused.wait_for(timeout=120_000)
    assert f"uploads are limited to {LIMIT_MB} MB" in refused.text_content()
    screenshot(page, "upload-attach-refused", whole=False)
    assert not (workspace_root(session.pk) / "uploads/over.csv").exists()
    page.context.close()
