"""The multi-agent scheduling view and the acts on its task cards and agent lanes."""

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from agents.api import TaskActionSerializer
from agents.scheduling.acts import agent_pause, task_act
from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from workspace.fragments import board_context
from workspace.views.common import SignedInRequest, filled_fields, member_access, refusal_text


@login_required
def schedule(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The multi-agent scheduling view: a lane per agent, unassigned tasks by role, hand-offs."""
    access = member_access(request, session_id)
    return render(request, "workspace/schedule.html", board_context(access.session, access.role))


@login_required
@require_POST
def schedule_act(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """A task card's action, through the scheduling services (each act is logged in the session)."""
    access = member_access(request, session_id)
    error, confirm, on_card = None, None, None
    fields = filled_fields(request.POST)
    if fields.get("action") == "reassign" and request.POST.get("agent") == "":  # the Agent menu's "Unassigned"
        fields["action"] = "unassign"
    form = TaskActionSerializer(data=fields)
    task_id = int(request.POST["task_id"]) if request.POST.get("task_id", "").isdigit() else 0
    if not form.is_valid():
        error = refusal_text(form)
    else:
        try:
            task_act(
                session_id=session_id, task_id=task_id, caller=caller_for_user(request.user), **form.validated_data
            )
        except ProtocolError as refused:
            error = refused.message
            if refused.code == "ROLE_MISMATCH":  # the board asks the person to confirm, with the reason
                confirm = {"task_id": task_id, "agent": fields["agent"], "suggestion": refused.suggestion[0]}
            elif refused.code != "NOT_FOUND":  # said on the card acted on, where the person looks
                on_card = task_id
    context = {**board_context(access.session, access.role), "error": error, "confirm": confirm, "error_on": on_card}
    return render(request, "workspace/partials/schedule_board.html", context)


@login_required
@require_POST
def schedule_agent(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """Pause or resume an agent in this session."""
    access = member_access(request, session_id)
    error = None
    try:
        agent_pause(
            session_id=session_id,
            agent=request.POST.get("agent", ""),
            caller=caller_for_user(request.user),
            paused=request.POST.get("paused") == "1",
        )
    except ProtocolError as refused:
        error = refused.message
    return render(
        request,
        "workspace/partials/schedule_board.html",
        {**board_context(access.session, access.role), "error": error},
    )
