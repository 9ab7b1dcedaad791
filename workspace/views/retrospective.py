"""A finished session's retrospective: criteria checked by members, metrics, charts and ratings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from protocol.errors import ProtocolError
from sessions.access import caller_for_user
from sessions.chap.retrospective import METRIC_LABELS, bar_chart, line_chart
from sessions.retrospectives import criterion_check, retrospective_report, session_rate
from sessions.serializers import CriterionCheckSerializer, RatingSerializer
from workspace.map_drawing import heat
from workspace.views.common import filled_fields, member_access, refusal_text


@login_required
def retrospective(request, session_id):
    """A finished session's retrospective: criteria checked by members, process metrics, charts, ratings."""
    access = member_access(request, session_id)
    caller = caller_for_user(request.user)
    try:
        report = retrospective_report(session_id=session_id, caller=caller)
    except ProtocolError as error:
        return render(request, "workspace/retrospective.html", {"session": access.session, "error": error}, status=409)
    mine = next((r for r in report["ratings"] if r["member"] == request.user.get_username()), None)
    context = {
        "session": access.session,
        "report": report,
        "chart": line_chart(report["series"]),
        "bars": _confidence_bars(report["deliverable"]),
        "can_check": access.can_write,
        "mine": mine or {},
        "metric_rows": [(label, report["metrics"].get(key)) for key, label in METRIC_LABELS],
    }
    return render(request, "workspace/retrospective.html", context)


@login_required
@require_POST
def retrospective_check(request, session_id):
    """A criterion's Met / Not met buttons, through criterion_check (validated as in the REST API)."""
    _retrospective_act(request, session_id, CriterionCheckSerializer, criterion_check)
    return redirect("workspace:retrospective", session_id=session_id)


@login_required
@require_POST
def retrospective_rate(request, session_id):
    """The member's rating form, through session_rate (validated as in the REST API)."""
    if _retrospective_act(request, session_id, RatingSerializer, session_rate):
        messages.success(request, "Thank you: your rating is saved.")
    return redirect("workspace:retrospective", session_id=session_id)


def _retrospective_act(request, session_id, serializer_class, service) -> bool:
    """Validate the form's fields with ``serializer_class`` and call ``service``; say why not, if not."""
    member_access(request, session_id)
    form = serializer_class(data=filled_fields(request.POST))
    if not form.is_valid():
        messages.error(request, refusal_text(form))
        return False
    try:
        service(session_id=session_id, caller=caller_for_user(request.user), **form.validated_data)
    except ProtocolError as error:
        messages.error(request, error.message)
        return False
    return True


def _confidence_bars(deliverable: dict | None) -> dict:
    chart = bar_chart(deliverable["sections"] if deliverable else [])
    for row in chart["rows"]:
        row["heat"] = heat(row["confidence"])
    return chart
