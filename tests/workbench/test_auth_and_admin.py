from django.urls import reverse

from tests.factories import PASSWORD, make_session, make_user


def test_login_page_renders_our_template(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b"Sign in" in response.content
    assert b'name="username"' in response.content


def test_login_works_and_lands_on_the_sessions_page(client, db):
    user = make_user("alice")
    make_session(owner=user, title="Market scan")
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("workspace:list")
    assert b"Market scan" in response.content
    assert b"alice" in response.content


def test_wrong_password_is_refused_with_a_message(client, db):
    make_user("alice")
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"didn't match" in response.content


def test_sessions_page_needs_a_login(client, db):
    response = client.get(reverse("workspace:list"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_logout_signs_out(client, db):
    client.force_login(make_user())
    client.post(reverse("logout"))
    assert client.get(reverse("workspace:list")).status_code == 302


def test_admin_loads_for_a_superuser(client, db):
    client.force_login(make_user(superuser=True))
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:chap_sessions_worksession_changelist")).status_code == 200


def test_static_htmx_is_served_locally(client, db):
    client.force_login(make_user())
    page = client.get(reverse("workspace:list")).content.decode()
    assert "/static/django_htmx/htmx-2" in page
    assert "https://" not in page
