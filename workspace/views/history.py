"""History review: the timeline with its checkpoints, the map at any point, differences and search."""

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from sessions import selectors
from sessions.search import search_messages
from workspace.answer_change import answer_change
from workspace.fragments import history_urls
from workspace.selectors import decision_map_at, map_node_details_at
from workspace.views.common import SignedInRequest, member_access

TIMELINE_SHOWN = 500  # the newest entries on the history page; proposals and checkpoints always


def _seq_param(request: HttpRequest, name: str, head: int, default: int) -> int:
    """A message number from the query string, clamped to the log; anything else is the default."""
    raw = request.GET.get(name, "")
    return min(max(int(raw), 0), head) if raw.isdigit() else default


@login_required
def history(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    """History review: the timeline with its checkpoints, the map at any point, the difference
    between two points, and full-text search."""
    session = member_access(request, session_id).session
    marks = selectors.checkpoints(session=session)
    seq = _seq_param(request, "seq", session.head_seq, session.head_seq)
    entries, left_out = selectors.timeline(
        session=session, latest=None if request.GET.get("all") == "1" else TIMELINE_SHOWN
    )
    context = {
        "session": session,
        "timeline": entries,
        "left_out": left_out,
        "checkpoints": marks,
        "map": decision_map_at(session=session, seq=seq),
        "points": [(0, "the start"), *((m["seq"], m["label"]) for m in marks), (session.head_seq, "now")],
        **history_urls(session_id, seq),
    }
    return render(request, "workspace/history.html", context)


@login_required
def history_map(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    session = member_access(request, session_id).session
    seq = _seq_param(request, "seq", session.head_seq, session.head_seq)
    drawn = decision_map_at(session=session, seq=seq)
    return render(request, "workspace/history.html#history-map", {"map": drawn, **history_urls(session_id, seq)})


@login_required
def history_node(request: SignedInRequest, session_id: UUID, seq: int) -> HttpResponse:
    """A node of the map as it was after message ``seq``: its status and status history then."""
    session = member_access(request, session_id).session
    index = request.GET.get("node", "")
    node = (
        map_node_details_at(session=session, seq=seq, index=int(index))
        if index.isdigit() and seq <= session.head_seq
        else None
    )
    if node is None:
        raise Http404("No such node on the map at that point")
    urls = history_urls(session_id, seq)
    return render(
        request, "workspace/partials/node_details.html", {"node": node, "session": session, "at_seq": seq, **urls}
    )


@login_required
def history_diff(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    session = member_access(request, session_id).session
    start = _seq_param(request, "from", session.head_seq, 0)
    end = _seq_param(request, "to", session.head_seq, session.head_seq)
    start, end = min(start, end), max(start, end)
    diff = selectors.history_difference(session=session, from_seq=start, to_seq=end)
    answer = answer_change(session=session, answer_from=diff["answer_from"], answer_to=diff["answer_to"])
    return render(request, "workspace/history.html#history-diff", {"diff": diff, "answer": answer})


@login_required
def history_search(request: SignedInRequest, session_id: UUID) -> HttpResponse:
    session = member_access(request, session_id).session
    query = request.GET.get("q", "")
    hits = search_messages(session=session, text=query)
    return render(request, "workspace/history.html#search-results", {"hits": hits, "query": query})
