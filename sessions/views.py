from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from sessions import selectors
from sessions.access import caller_for_user, session_access
from sessions.fragments import map_urls


@login_required
def session_list(request):
    return render(request, "sessions/list.html", {"sessions": selectors.sessions_for_user(user=request.user)})


def _member_access(request, session_id):
    """The signed-in member's access, or 404 for anyone else (never saying whether the session exists)."""
    access = session_access(session_id, caller_for_user(request.user))
    if access is None:
        raise Http404("No such session")
    return access


@login_required
def session_detail(request, session_id):
    access = _member_access(request, session_id)
    session = access.session
    context = {
        "session": session,
        "role": access.role,
        "map": selectors.decision_map(session=session, expanded=request.GET.get("expand") == "1"),
        "thread": selectors.thread(session=session),
        **map_urls(session_id),
    }
    return render(request, "sessions/detail.html", context)


@login_required
def session_map(request, session_id):
    session = _member_access(request, session_id).session
    drawn = selectors.decision_map(session=session, expanded=request.GET.get("expand") == "1")
    return render(request, "sessions/partials/map.html", {"map": drawn, **map_urls(session_id)})


@login_required
def map_node(request, session_id):
    session = _member_access(request, session_id).session
    try:
        index = int(request.GET.get("node", ""))
    except ValueError:
        index = -1
    node = selectors.map_node_details(session=session, index=index)
    if node is None:
        raise Http404("No such node on the map")
    return render(request, "sessions/partials/node_details.html", {"node": node, **map_urls(session_id)})
