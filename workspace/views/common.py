"""What every screen of the workspace shares: who may see a session, and how a form's refusal reads."""

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, QueryDict
from django_htmx.middleware import HtmxDetails
from rest_framework.serializers import Serializer

from sessions.access import Access, SessionId, caller_for_user, session_access


class SignedInRequest(HttpRequest):
    """A request a ``login_required`` view serves: AuthenticationMiddleware has put the signed-in person
    on it, and HtmxMiddleware (workbench.settings) what htmx says about it."""

    user: User
    htmx: HtmxDetails


def member_access(request: SignedInRequest, session_id: SessionId) -> Access:
    """The signed-in member's access, or 404 for anyone else (never saying whether the session exists)."""
    access = session_access(session_id, caller_for_user(request.user))
    if access is None:
        raise Http404("No such session")
    return access


def filled_fields(post: QueryDict) -> dict[str, object]:
    """A posted form's non-empty fields: an empty box means "not given", as in the JSON API."""
    return {key: value for key, value in post.items() if value != ""}


def refusal_text(serializer: Serializer[Any]) -> str:
    return "; ".join(f"{field}: {' '.join(map(str, errors))}" for field, errors in serializer.errors.items())
