"""Who works in a session: members, the teams it is shared with, and the agents invited to it."""

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from agents.staffing import agent_invite
from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from sessions.membership import member_invite, session_share, session_unshare
from workspace.fragments import (
    members_context,
    shares_context,
)
from workspace.views.common import SignedInRequest, member_access


@login_required
@require_POST
def members_add(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The owner adds a member (username, role) from the session page, through member_invite."""
    access = member_access(request, session_id)
    username, role = request.POST.get("username", "").strip(), request.POST.get("role", "")
    context = {"role": access.role, "session": access.session}
    try:
        member_invite(session_id=session_id, caller=caller_for_user(request.user), username=username, role=role)
    except ProtocolError as error:
        context.update(error=error.message, form={"username": username})
    else:
        context["added"] = username
    return render(request, "workspace/partials/members.html", {**members_context(access.session), **context})


@login_required
@require_POST
def shares_edit(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The owner shares the session with a team, or stops, through session_share / session_unshare."""
    access = member_access(request, session_id)
    caller, group = caller_for_user(request.user), request.POST.get("group", "")
    context = {"role": access.role, "session": access.session}
    try:
        if request.POST.get("action") == "unshare":
            session_unshare(session_id=session_id, caller=caller, group=group)
        else:
            session_share(session_id=session_id, caller=caller, group=group, role=request.POST.get("role", ""))
    except ProtocolError as error:
        context["error"] = error.message
    return render(request, "workspace/partials/shares.html", {**shares_context(access.session), **context})


@login_required
@require_POST
def agent_invite_view(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """A stalled plan step's "Invite the agent": through agent_invite, which gives it the waiting tasks."""
    access = member_access(request, session_id)
    try:
        joined = agent_invite(
            session_id=session_id, caller=caller_for_user(request.user), agent=request.POST.get("agent", "")
        )
    except ProtocolError as error:
        return render(request, "workspace/partials/invited.html", {"error": error.message})
    roles = " and ".join(joined.agent.roles or [])
    context = {"agent": joined.agent.name, "roles": roles, "session": access.session}
    return render(request, "workspace/partials/invited.html", context)
