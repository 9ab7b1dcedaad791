"""A chart's image: drawn off the request path, in a process of its own (workspace/charts.py).

An async view, so that awaiting the drawing holds neither the event loop nor the one thread that
Django's synchronous views share: other people's pages answer while it draws."""

from uuid import UUID

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse

from workspace.charts import chart_mac_matches, chart_outcome
from workspace.views.common import SignedInRequest, member_access


@login_required
async def chart(request: SignedInRequest, session_id: UUID, key: str, mac: str) -> HttpResponse:
    """The SVG of a chart a page of this session showed, to its members (404 to anyone else)."""
    await sync_to_async(member_access)(request, session_id)
    outcome = await chart_outcome(key) if chart_mac_matches(session_id, key, mac) else None
    if outcome is None:
        raise Http404("No such chart")
    response = HttpResponse(outcome.image(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=86400" if outcome.final else "no-store"
    return response
