"""The new-session form says what it took: every field typed in it is in the task message and the
map's goal node."""

import re

import pytest
from django.urls import reverse

from sessions.models import WorkSession
from tests.factories import make_user

pytestmark = pytest.mark.django_db

TYPED = {
    "template": "data-analysis",
    "goal": "Find the worst month for dengue in Laos",
    "title": "Dengue in Laos",
    "format": "a two-page memo",
    "length": "800 words",
    "deadline": "2027-01-15",
    "audience": "the district health officers",
    "background": "Cases rose after the 2025 rains\nThe ministry counts cases weekly",
    "success_criteria": "The worst month named\nA chart of monthly cases",
    "roles": ["analysis", "writing"],
    "links": "https://example.com/laos",
}


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_every_field_typed_in_the_form_is_in_the_task_message_and_the_goal_node(client):
    client.force_login(make_user("nina"))
    assert client.post(reverse("workspace:new"), TYPED).status_code == 302
    session = WorkSession.objects.get(title="Dengue in Laos")
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    message = re.search(r"<article[^>]*\s+class=\"message kind-task_proposal.*?</article>", page, re.S)
    goal = re.search(r'<g id="map-node-(\d+)"(?:(?!</g>).)*?aria-label="Goal:', page, re.S)
    assert message and goal, "the task message is in the thread and its goal on the map"
    node = client.get(reverse("workspace:map-node", args=[session.pk]) + f"?node={goal[1]}").content.decode()
    for shown in (text_of(message[0]), text_of(node)):
        for words in (
            "Audience: the district health officers",
            "Format: a two-page memo",
            "Length: 800 words",
            "Deadline: 2027-01-15",
            "Cases rose after the 2025 rains",
            "The ministry counts cases weekly",
            "https://example.com/laos",
            "The worst month named",
            "A chart of monthly cases",
            "Expected roles: analysis, writing",
            "Kind of task: data analysis",
        ):
            assert words in shown, (words, shown[:3000])
