"""The final deliverable as a page."""

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from sessions import selectors
from sessions.chap.deliverable import deliverable_markdown
from workspace.views.common import SignedInRequest, member_access


@login_required
def deliverable(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """The final deliverable as a page: the Markdown the download has, rendered."""
    session = member_access(request, session_id).session
    found = selectors.final_report(session=session)
    text = deliverable_markdown(found, title=session.title) if found else ""
    return render(request, "workspace/deliverable.html", {"session": session, "text": text})
