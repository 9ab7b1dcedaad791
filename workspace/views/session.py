"""The session page: the thread, the decision map and its nodes, and the session's state."""

from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from sessions.membership import session_update
from workspace.answer_card import answer_card
from workspace.fragments import (
    map_urls,
    mark_uncovered_steps,
    members_context,
    shares_context,
    side_panels,
)
from workspace.selectors import decision_map, map_node_details, thread_page
from workspace.standing import work_state
from workspace.views.common import SignedInRequest, member_access
from workspace.views.conversation import feedback_panel_context


@login_required
def session_detail(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    access = member_access(request, session_id)
    session = access.session
    shown, earlier = thread_page(session=session)
    context = {
        "session": session,
        "role": access.role,
        "map": decision_map(session=session, expanded=request.GET.get("expand") == "1"),
        "thread": mark_uncovered_steps(session, shown),
        "earlier": earlier,
        "state": work_state(session),
        "answer": answer_card(session),
        **members_context(session),
        **shares_context(session),
        **feedback_panel_context(access, session.head_checksum),
        **side_panels(session, access.role),
        **map_urls(session_id),
    }
    return render(request, "workspace/detail.html", context)


@login_required
def session_thread(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The page of the thread before message ``before`` (the thread's "Show earlier messages")."""
    access = member_access(request, session_id)
    try:
        before = int(request.GET.get("before", ""))
    except ValueError:
        raise Http404("No such page of the thread") from None
    shown, earlier = thread_page(session=access.session, before=before)
    context = {
        "session": access.session,
        "role": access.role,
        "thread": mark_uncovered_steps(access.session, shown),
        "earlier": earlier,
    }
    return render(request, "workspace/partials/thread_page.html", context)


@login_required
def session_map(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    session = member_access(request, session_id).session
    drawn = decision_map(session=session, expanded=request.GET.get("expand") == "1")
    return render(request, "workspace/partials/map.html", {"map": drawn, **map_urls(session_id)})


@login_required
def map_node(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    session = member_access(request, session_id).session
    try:
        index = int(request.GET.get("node", ""))
    except ValueError:
        index = -1
    node = map_node_details(session=session, index=index)
    if node is None:
        raise Http404("No such node on the map")
    return render(
        request, "workspace/partials/node_details.html", {"node": node, "session": session, **map_urls(session_id)}
    )


@login_required
@require_POST
def session_state(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """Mark the session done (its retrospective opens) or reopen it, through session_update."""
    member_access(request, session_id)
    try:
        session_update(session_id=session_id, caller=caller_for_user(request.user), state=request.POST.get("state"))
    except ProtocolError as error:
        messages.error(request, error.message)
    if request.htmx:  # the state card's button: every member's card changes live; this page reloads
        return HttpResponseClientRefresh()
    return redirect("workspace:detail", session_id=session_id)
