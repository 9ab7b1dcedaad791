"""What people say to the agents from the session page: feedback, answers, plan approvals and gate decisions.
Each posts through one service and answers with the panel it came from."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_POST

from agents import scheduling
from agents.gates import gate_decide, may_decide
from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from sessions.chap.labels import feedback_label
from sessions.log import envelope_for, message_post, message_post_at_head
from workspace.feedback import FEEDBACK_TYPES, PRIORITIES, Prompt, feedback_payload
from workspace.feedback import TEMPLATES as FEEDBACK_TEMPLATES
from workspace.fragments import (
    board_context,
    side_panels,
)
from workspace.views.common import member_access


def feedback_panel_context(session) -> dict:
    """What the feedback panel shows; the checksum is the version the page was written against."""
    return {
        "session": session,
        "checksum": session.head_checksum,
        "feedback_types": FEEDBACK_TYPES,
        "templates": FEEDBACK_TEMPLATES,
        "priorities": PRIORITIES,
        "part_keys": ("kind", "id", "index", "quote", "start", "end"),
    }


def feedback_panel(request, session, **extra):
    return render(request, "workspace/partials/feedback_panel.html", {**feedback_panel_context(session), **extra})


@login_required
@require_POST
def feedback_post(request, session_id):
    """The feedback panel: a human_feedback message through message_post, or the panel again saying why not."""
    access = member_access(request, session_id)
    session = access.session
    if not access.can_comment:
        return feedback_panel(request, session, error="Viewers read the session; ask its owner to make you an editor.")
    payload = feedback_payload(request.POST)
    if isinstance(payload, Prompt):
        return feedback_panel(request, session, prompt=payload, form=request.POST)
    caller = caller_for_user(request.user)
    envelope = envelope_for(
        session_id=session.pk,
        caller=caller,
        payload_type="human_feedback",
        payload=payload,
        context_checksum=request.POST.get("context_checksum") or session.head_checksum,
        in_reply_to=payload["target_message_id"],
    )
    try:
        ack = message_post(session_id=session.pk, caller=caller, envelope=envelope)
    except ProtocolError as error:
        session.refresh_from_db()
        if error.code == "CONTEXT_CONFLICT":
            return feedback_panel(
                request, session, conflict={"message": error.message, **error.details}, form=request.POST
            )
        return feedback_panel(request, session, error=error.message, form=request.POST)
    session.refresh_from_db()
    kind = feedback_label(payload["feedback_type"])
    return feedback_panel(request, session, sent=f"Your {kind} is in the thread as #{ack.seq}.")


@login_required
@require_POST
def gate_decision(request, session_id):
    """Approve, reject or answer an item waiting for people, through gate_decide; the workspace panel
    (or, from the scheduling view, the board) comes back updated."""
    access = member_access(request, session_id)
    error = None
    try:
        gate_decide(
            session_id=session_id,
            caller=caller_for_user(request.user),
            key=request.POST.get("key", ""),
            decision=request.POST.get("decision", ""),
            reason=request.POST.get("reason", "")[:2000],
            option_id=request.POST.get("option_id", ""),
        )
    except ProtocolError as refused:
        error = refused.message
    session = access.session
    if request.POST.get("view") == "schedule":
        context = {**board_context(session, access.role), "error": error}
        return render(request, "workspace/partials/schedule_board.html", context)
    context = {"session": session, **side_panels(session, access.role), "error": error}
    return render(request, "workspace/partials/approvals.html", context)


@login_required
@require_POST
def answer_post(request, session_id):
    """A clarification's option button or an open question's answer box: a clarification_answer."""
    access = member_access(request, session_id)
    caller = caller_for_user(request.user)
    payload = {"clarification_message_id": request.POST.get("clarification_message_id", "")}
    for key in ("option_id", "free_answer"):
        if request.POST.get(key):
            payload[key] = request.POST[key]
    if request.POST.get("question_index", "").isdigit():
        payload["question_index"] = int(request.POST["question_index"])
    try:
        if not may_decide(access.role):
            raise ProtocolError(
                "PERMISSION_DENIED", "owners and editors answer; viewers cannot", details={"role": access.role}
            )
        ack = message_post_at_head(
            session_id=session_id, caller=caller, payload_type="clarification_answer", payload=payload
        )
    except ProtocolError as error:
        return render(request, "workspace/partials/answered.html", {"error": error.message})
    sent = f"Answered: your answer is in the thread as #{ack.seq}, and the agent works again with it."
    return render(request, "workspace/partials/answered.html", {"sent": sent})


@login_required
@require_POST
def plan_approve(request, session_id, message_id):
    """The thread's "Approve the plan": plan_approve (the approval in the log, then the tasks)."""
    access = member_access(request, session_id)
    caller = caller_for_user(request.user)
    try:
        if not may_decide(access.role):
            raise ProtocolError(
                "PERMISSION_DENIED", "owners and editors approve plans; viewers cannot", details={"role": access.role}
            )
        tasks = scheduling.plan_approve(session_id=session_id, caller=caller, message_id=message_id)
    except ProtocolError as error:
        return render(request, "workspace/partials/answered.html", {"error": error.message})
    return render(
        request, "workspace/partials/answered.html", {"sent": f"Plan approved: {len(tasks)} tasks scheduled."}
    )
