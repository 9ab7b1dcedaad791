import re

from django.urls import reverse

from tests.factories import make_session, make_user


def test_list_shows_only_my_sessions(logged_in_client, user):
    make_session(owner=user, title="Mine")
    make_session(title="Someone else's")
    content = logged_in_client.get(reverse("workspace:list")).content
    assert b"Mine" in content
    assert b"Someone else" not in content


def test_outsider_gets_404_for_a_session(logged_in_client):
    other = make_session(title="Secret")
    response = logged_in_client.get(reverse("workspace:detail", args=[other.id]))
    assert response.status_code == 404
    assert b"Secret" not in response.content


def test_viewer_sees_the_session(client, db):
    viewer = make_user()
    session = make_session(title="Shared", members={viewer: "viewer"})
    client.force_login(viewer)
    response = client.get(reverse("workspace:detail", args=[session.id]))
    assert response.status_code == 200
    assert b"Viewer" in response.content


def test_the_feedback_panel_offers_the_kinds_the_role_may_send(client, db):
    """A commenter suggests refinements only: the panel offers no Correct, Approve or New direction
    that would be refused after Send; an editor is offered all four."""
    commenter, editor = make_user(), make_user()
    session = make_session(title="Shared", members={commenter: "commenter", editor: "editor"})
    offered = {}
    for who in (commenter, editor):
        client.force_login(who)
        page = client.get(reverse("workspace:detail", args=[session.id])).content.decode()
        offered[who] = re.findall(r'name="feedback_type"\s+value="(\w+)"', page)
    assert offered[commenter] == ["refinement"]
    assert offered[editor] == ["refinement", "correction", "approval", "new_direction"]
