"""What people say to the agents from the session page: feedback, answers, plan approvals and gate decisions.
Each posts through one service and answers with the panel it came from."""

from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.db.models import Subquery
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from agents.gates import gate_decide
from agents.scheduling.plans import plan_decide
from protocol.errors import ProtocolError
from sessions.access import Access, caller_for_user
from sessions.chap.labels import feedback_label
from sessions.log import answer_give, feedback_give
from sessions.models import Message, WorkSession
from workspace.feedback import FEEDBACK_TYPES, PRIORITIES, Prompt, answer_payload, feedback_payload
from workspace.feedback import TEMPLATES as FEEDBACK_TEMPLATES
from workspace.fragments import (
    board_context,
    side_panels,
)
from workspace.views.common import SignedInRequest, member_access


def feedback_panel_context(access: Access, checksum: str) -> dict[str, Any]:
    """What the feedback panel shows: the kinds of feedback the person's role may give (a commenter:
    refinements only), and what it is about until the person picks something else: the session's
    current answer, which the answer card shows on top; the checksum is the version the page was
    written against."""
    answer = WorkSession.objects.filter(pk=access.session_id).values("current_answer")[:1]
    current = Message.objects.filter(session_id=access.session_id, message_id=Subquery(answer))
    found = current.values_list("message_id", "sender_id").first()  # one query: the panel is sent often
    return {
        "session_id": access.session_id,
        "checksum": checksum,
        "feedback_types": [kind for kind in FEEDBACK_TYPES if access.may_give(kind[0])],
        "templates": FEEDBACK_TEMPLATES,
        "priorities": PRIORITIES,
        "default_target": found[0] if found else "",
        "default_words": f"the current answer (the report from {found[1]})" if found else "",
    }


def feedback_panel(request: SignedInRequest, access: Access, checksum: str, **extra: Any) -> HttpResponse:
    context = {**feedback_panel_context(access, checksum), **extra}
    return render(request, "workspace/partials/feedback_panel.html", context)


SUGGESTION = "suggestion"  # the form is a suggested question's button: one line beside it answers, not the panel


def feedback_reply(request: SignedInRequest, access: Access, checksum: str, **extra: Any) -> HttpResponse:
    """The feedback panel again, or for a suggested question's button a line saying it was asked or why not."""
    if request.POST.get("view") != SUGGESTION:
        return feedback_panel(request, access, checksum, **extra)
    prompt, conflict = extra.get("prompt"), extra.get("conflict")
    error = extra.get("error") or (prompt.message if prompt else "") or (conflict or {}).get("message", "")
    sent = f"Asked: your question is in the thread as #{extra.get('sent_seq')}; the analyst answers it next."
    return render(request, "workspace/partials/answered.html", {"error": error} if error else {"sent": sent})


@login_required
@require_POST
def feedback_post(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The feedback panel (or a suggested question's button): the person's feedback through feedback_give,
    or the panel again saying why not. Access is read once; the panel comes back at the new head the ack names."""
    access = member_access(request, session_id)
    if not access.can_comment:
        error = "Viewers read the session; ask its owner to make you an editor."
        return feedback_reply(request, access, access.session.head_checksum, error=error)
    payload = feedback_payload(request.POST)
    if isinstance(payload, Prompt):
        return feedback_reply(request, access, access.session.head_checksum, prompt=payload, form=request.POST)
    try:
        ack = feedback_give(
            access=access,
            caller=caller_for_user(request.user),
            payload=payload,
            context_checksum=request.POST.get("context_checksum") or None,
        )
    except ProtocolError as error:
        head = access.session.head_checksum  # read now, after the refusal
        if error.code == "CONTEXT_CONFLICT":
            conflict = {"message": error.message, **error.details}
            return feedback_reply(request, access, head, conflict=conflict, form=request.POST)
        return feedback_reply(request, access, head, error=error.message, form=request.POST)
    sent = f"Your {feedback_label(payload['feedback_type'])} is in the thread as #{ack.seq}."
    return feedback_reply(request, access, ack.head, sent=sent, sent_seq=ack.seq)


@login_required
@require_POST
def gate_decision(request: SignedInRequest, session_id: UUID) -> HttpResponse:
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
            access=access,
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
def answer_post(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """A clarification's option button or an open question's answer box, through answer_give."""
    access = member_access(request, session_id)
    try:
        ack = answer_give(access=access, caller=caller_for_user(request.user), payload=answer_payload(request.POST))
    except ProtocolError as error:
        return render(request, "workspace/partials/answered.html", {"error": error.message})
    sent = f"Answered: your answer is in the thread as #{ack.seq}, and the agent works again with it."
    return render(request, "workspace/partials/answered.html", {"sent": sent})


@login_required
@require_POST
def plan_approve(request: SignedInRequest, session_id: UUID, message_id: str) -> HttpResponse:
    """The thread's "Approve the plan", through plan_decide (the approval in the log, and with it the tasks)."""
    access = member_access(request, session_id)
    try:
        caller = caller_for_user(request.user)
        tasks = plan_decide(session_id=session_id, caller=caller, message_id=message_id, approve=True, access=access)
    except ProtocolError as error:
        return render(request, "workspace/partials/answered.html", {"error": error.message})
    return render(
        request, "workspace/partials/answered.html", {"sent": f"Plan approved: {len(tasks)} tasks scheduled."}
    )
