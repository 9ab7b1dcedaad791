"""A 404 is the workbench's own page whatever DEBUG says: Django's technical one lists every URL pattern."""

import uuid

import pytest

from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[True, False], ids=["DEBUG", "no DEBUG"])
def signed_in(request, client, settings):
    settings.DEBUG = request.param
    client.force_login(make_user("olga"))
    return client


@pytest.mark.parametrize("path", ["/sessions/not-a-uuid/", "/no/such/page/", f"/sessions/{uuid.uuid4()}/"])
def test_a_missing_page_is_the_workbench_page_and_names_no_url_pattern(signed_in, path):
    response = signed_in.get(path)
    page = response.content.decode()
    assert response.status_code == 404 and 'data-testid="error-page"' in page, page[:300]
    assert "There is nothing here" in page and "script-src 'self'" in response["Content-Security-Policy"]
    assert "URLconf" not in page and "admin/" not in page and "api/schema" not in page


def test_an_address_without_its_slash_still_leads_to_the_page(signed_in):
    response = signed_in.get("/sessions")
    assert response.status_code == 301 and response["Location"] == "/sessions/"


def test_a_missing_api_path_still_answers_json(signed_in):
    response = signed_in.get("/api/nothing-here/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "RESOURCE_NOT_FOUND"
