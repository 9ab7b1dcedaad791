"""The sessions list, a new session, and the review of past sessions."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render

from agents.operations.uploads import discard_staged
from agents.staffing import session_start
from protocol.errors import ProtocolError
from sessions import selectors
from workspace.forms import NewSessionForm, ReviewFilterForm
from workspace.standing import review_rows, session_rows
from workspace.uploads import StagedUploadedFile, upload_refusal
from workspace.views.common import SignedInRequest


@login_required
def session_list(request: SignedInRequest) -> HttpResponse:
    return render(request, "workspace/list.html", {"rows": session_rows(user=request.user)})


@login_required
def session_new(request: SignedInRequest) -> HttpResponse:
    """The task proposal form; the new session opens with its agents, files and proposal in place."""
    data, files = request.POST, request.FILES  # parsed first: the upload handlers' refusal is known after
    refusal = upload_refusal(request) if request.method == "POST" else None
    form = NewSessionForm(data or None, files or None, upload_refusal=refusal)
    try:
        if request.method == "POST" and form.is_valid():
            attached = [(upload.name or "", upload.staged) for upload in form.cleaned_data["files"]]
            try:
                session = session_start(
                    owner=request.user,
                    title=form.title_or_goal(),
                    proposal=form.proposal(),
                    agents=form.cleaned_data["agents"],
                    files=attached,
                )
            except ProtocolError as error:
                form.add_error("files", error.message)
            else:
                return redirect("workspace:detail", session_id=session.pk)
    finally:  # what did not move into a workspace leaves the staging area
        for upload in files.getlist("files"):
            if isinstance(upload, StagedUploadedFile):
                discard_staged(upload.staged)
    status = 413 if refusal is not None else 400 if form.errors else 200
    return render(request, "workspace/new.html", {"form": form}, status=status)


@login_required
def team(request: SignedInRequest) -> HttpResponse:
    """Past sessions for review: the caller's sessions, filtered by member, agent, template, state and date."""
    form = ReviewFilterForm(request.GET or None, user=request.user)
    filters = form.cleaned_data if form.is_valid() else {}
    found = selectors.sessions_for_review(user=request.user, **{k: v for k, v in filters.items() if v})
    context = {"form": form, "rows": review_rows(found), "limit": selectors.MAX_REVIEWED}
    return render(request, "workspace/team.html", context, status=400 if form.errors else 200)
