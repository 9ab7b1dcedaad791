"""The new-session form says what it took: what a person types in every field shows in the task
message the session starts with and in the map's goal node."""

import pytest

from tests.chromium import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

AUDIENCE = "the district health officers"
BACKGROUND = "Cases rose after the 2025 rains"


def test_background_and_audience_typed_in_the_form_show_in_the_task_message_and_the_goal_node(nina):
    page = nina
    page.goto(page.server.url + "/sessions/")
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Goal").fill("Find the worst month for dengue in Laos")
    page.get_by_label("Kind of task").select_option(label="Data analysis")
    page.get_by_label("Audience").fill(AUDIENCE)
    page.get_by_label("Background context").fill(BACKGROUND)
    page.get_by_label("Format").fill("a two-page memo")
    screenshot(page, "new-session-form-1440x900")
    page.get_by_role("button", name="Start the session").click()
    page.wait_for_url("**/sessions/*-*/")

    task = page.locator("#thread article.kind-task_proposal").get_by_test_id("proposal-brief")
    for words in (
        f"Audience: {AUDIENCE}",
        f"Background: {BACKGROUND}",
        "Format: a two-page memo",
        "Kind of task: data analysis",
    ):
        assert words in " ".join(task.inner_text().split()), words
    task.scroll_into_view_if_needed()
    screenshot(page, "new-session-task-message-1440x900", whole=False)
    page.locator("#map-nodes .node.shape-goal").first.click()
    details = page.get_by_test_id("node-details").get_by_test_id("proposal-brief")
    details.wait_for()
    assert f"Audience: {AUDIENCE}" in " ".join(details.inner_text().split())
    assert f"Background: {BACKGROUND}" in " ".join(details.inner_text().split())
    details.scroll_into_view_if_needed()
    screenshot(page, "new-session-goal-node-details-1440x900", whole=False)
    assert page.console_errors == []
