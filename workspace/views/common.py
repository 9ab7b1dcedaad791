"""What every screen of the workspace shares: who may see a session, and how a form's refusal reads."""

from django.http import Http404

from sessions.access import caller_for_user, session_access


def member_access(request, session_id):
    """The signed-in member's access, or 404 for anyone else (never saying whether the session exists)."""
    access = session_access(session_id, caller_for_user(request.user))
    if access is None:
        raise Http404("No such session")
    return access


def filled_fields(post) -> dict:
    """A posted form's non-empty fields: an empty box means "not given", as in the JSON API."""
    return {key: value for key, value in post.items() if value != ""}


def refusal_text(serializer) -> str:
    return "; ".join(f"{field}: {' '.join(map(str, errors))}" for field, errors in serializer.errors.items())
