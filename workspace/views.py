from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from agents.api import TaskActionSerializer
from agents.gates import gate_decide, may_decide
from agents.scheduling import plans
from agents.scheduling.acts import agent_pause, task_act
from agents.staffing import agent_invite, session_start
from protocol.errors import ProtocolError
from sessions import selectors
from sessions.access import caller_for_user, session_access
from sessions.chap.deliverable import deliverable_markdown
from sessions.chap.labels import feedback_label
from sessions.chap.retrospective import METRIC_LABELS, bar_chart, line_chart
from sessions.retrospectives import criterion_check, retrospective_report, session_rate
from sessions.search import search_messages
from sessions.serializers import CriterionCheckSerializer, RatingSerializer
from sessions.services import (
    envelope_for,
    member_invite,
    message_post,
    message_post_at_head,
    session_share,
    session_unshare,
    session_update,
)
from workspace.feedback import FEEDBACK_TYPES, PRIORITIES, Prompt, feedback_payload
from workspace.feedback import TEMPLATES as FEEDBACK_TEMPLATES
from workspace.forms import NewSessionForm, ReviewFilterForm
from workspace.fragments import (
    board_context,
    history_urls,
    map_urls,
    mark_uncovered_steps,
    members_context,
    shares_context,
    side_panels,
)
from workspace.selectors import session_rows, work_state


@login_required
def session_list(request):
    return render(request, "workspace/list.html", {"rows": session_rows(user=request.user)})


@login_required
def session_new(request):
    """The task proposal form; the new session opens with its agents, files and proposal in place."""
    form = NewSessionForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        files = [(upload.name, upload.read()) for upload in form.cleaned_data["files"]]
        try:
            session = session_start(
                owner=request.user,
                title=form.title_or_goal(),
                proposal=form.proposal(),
                agents=form.cleaned_data["agents"],
                files=files,
            )
        except ProtocolError as error:
            form.add_error("files", error.message)
        else:
            return redirect("workspace:detail", session_id=session.pk)
    return render(request, "workspace/new.html", {"form": form}, status=400 if form.errors else 200)


def _member_access(request, session_id):
    """The signed-in member's access, or 404 for anyone else (never saying whether the session exists)."""
    access = session_access(session_id, caller_for_user(request.user))
    if access is None:
        raise Http404("No such session")
    return access


@login_required
def session_detail(request, session_id):
    access = _member_access(request, session_id)
    session = access.session
    context = {
        "session": session,
        "role": access.role,
        "map": selectors.decision_map(session=session, expanded=request.GET.get("expand") == "1"),
        "thread": mark_uncovered_steps(session, selectors.thread(session=session)),
        "state": work_state(session),
        **members_context(session),
        **shares_context(session),
        **_panel_context(session),
        **side_panels(session, access.role),
        **map_urls(session_id),
    }
    return render(request, "workspace/detail.html", context)


def _panel_context(session) -> dict:
    """What the feedback panel shows; the checksum is the version the page was written against."""
    return {
        "session": session,
        "checksum": session.head_checksum,
        "feedback_types": FEEDBACK_TYPES,
        "templates": FEEDBACK_TEMPLATES,
        "priorities": PRIORITIES,
        "part_keys": ("kind", "id", "index", "quote", "start", "end"),
    }


def _panel(request, session, **extra):
    return render(request, "workspace/partials/feedback_panel.html", {**_panel_context(session), **extra})


@login_required
@require_POST
def feedback_post(request, session_id):
    """The feedback panel: a human_feedback message through message_post, or the panel again saying why not."""
    access = _member_access(request, session_id)
    session = access.session
    if not access.can_comment:
        return _panel(request, session, error="Viewers read the session; ask its owner to make you an editor.")
    payload = feedback_payload(request.POST)
    if isinstance(payload, Prompt):
        return _panel(request, session, prompt=payload, form=request.POST)
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
            return _panel(request, session, conflict={"message": error.message, **error.details}, form=request.POST)
        return _panel(request, session, error=error.message, form=request.POST)
    session.refresh_from_db()
    kind = feedback_label(payload["feedback_type"])
    return _panel(request, session, sent=f"Your {kind} is in the thread as #{ack.seq}.")


@login_required
@require_POST
def gate_decision(request, session_id):
    """Approve, reject or answer an item waiting for people, through gate_decide; the workspace panel
    (or, from the scheduling view, the board) comes back updated."""
    access = _member_access(request, session_id)
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
    access = _member_access(request, session_id)
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
    access = _member_access(request, session_id)
    caller = caller_for_user(request.user)
    try:
        if not may_decide(access.role):
            raise ProtocolError(
                "PERMISSION_DENIED", "owners and editors approve plans; viewers cannot", details={"role": access.role}
            )
        tasks = plans.plan_approve(session_id=session_id, caller=caller, message_id=message_id)
    except ProtocolError as error:
        return render(request, "workspace/partials/answered.html", {"error": error.message})
    return render(
        request, "workspace/partials/answered.html", {"sent": f"Plan approved: {len(tasks)} tasks scheduled."}
    )


@login_required
def schedule(request, session_id):
    """The multi-agent scheduling view: a lane per agent, unassigned tasks by role, hand-offs."""
    access = _member_access(request, session_id)
    return render(request, "workspace/schedule.html", board_context(access.session, access.role))


@login_required
@require_POST
def schedule_act(request, session_id):
    """A task card's action, through the scheduling services (each act is logged in the session)."""
    access = _member_access(request, session_id)
    error, confirm = None, None
    fields = _filled(request.POST)
    if fields.get("action") == "reassign" and request.POST.get("agent") == "":  # the Agent menu's "Unassigned"
        fields["action"] = "unassign"
    form = TaskActionSerializer(data=fields)
    task_id = int(request.POST["task_id"]) if request.POST.get("task_id", "").isdigit() else 0
    if not form.is_valid():
        error = _invalid(form)
    else:
        try:
            task_act(
                session_id=session_id, task_id=task_id, caller=caller_for_user(request.user), **form.validated_data
            )
        except ProtocolError as refused:
            error = refused.message
            if refused.code == "ROLE_MISMATCH":  # the board asks the person to confirm, with the reason
                confirm = {"task_id": task_id, "agent": fields["agent"], "suggestion": refused.suggestion[0]}
    context = {**board_context(access.session, access.role), "error": error, "confirm": confirm}
    return render(request, "workspace/partials/schedule_board.html", context)


@login_required
@require_POST
def schedule_agent(request, session_id):
    """Pause or resume an agent in this session."""
    access = _member_access(request, session_id)
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


@login_required
def session_map(request, session_id):
    session = _member_access(request, session_id).session
    drawn = selectors.decision_map(session=session, expanded=request.GET.get("expand") == "1")
    return render(request, "workspace/partials/map.html", {"map": drawn, **map_urls(session_id)})


@login_required
def map_node(request, session_id):
    session = _member_access(request, session_id).session
    try:
        index = int(request.GET.get("node", ""))
    except ValueError:
        index = -1
    node = selectors.map_node_details(session=session, index=index)
    if node is None:
        raise Http404("No such node on the map")
    return render(request, "workspace/partials/node_details.html", {"node": node, **map_urls(session_id)})


@login_required
@require_POST
def session_state(request, session_id):
    """Mark the session done (its retrospective opens) or reopen it, through session_update."""
    _member_access(request, session_id)
    try:
        session_update(session_id=session_id, caller=caller_for_user(request.user), state=request.POST.get("state"))
    except ProtocolError as error:
        messages.error(request, error.message)
    if request.htmx:  # the state card's button: every member's card changes live; this page reloads
        return HttpResponseClientRefresh()
    return redirect("workspace:detail", session_id=session_id)


@login_required
@require_POST
def shares_edit(request, session_id):
    """The owner shares the session with a team, or stops, through session_share / session_unshare."""
    access = _member_access(request, session_id)
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
def members_add(request, session_id):
    """The owner adds a member (username, role) from the session page, through member_invite."""
    access = _member_access(request, session_id)
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
def agent_invite_view(request, session_id):
    """A stalled plan step's "Invite the agent": through agent_invite, which gives it the waiting tasks."""
    access = _member_access(request, session_id)
    try:
        joined = agent_invite(
            session_id=session_id, caller=caller_for_user(request.user), agent=request.POST.get("agent", "")
        )
    except ProtocolError as error:
        return render(request, "workspace/partials/invited.html", {"error": error.message})
    roles = " and ".join(joined.agent.roles or [])
    context = {"agent": joined.agent.name, "roles": roles, "session": access.session}
    return render(request, "workspace/partials/invited.html", context)


@login_required
def team(request):
    """Past sessions for review: the caller's sessions, filtered by member, agent, template, state and date."""
    form = ReviewFilterForm(request.GET or None, user=request.user)
    filters = form.cleaned_data if form.is_valid() else {}
    found = selectors.sessions_for_review(user=request.user, **{k: v for k, v in filters.items() if v})
    context = {"form": form, "sessions": found, "limit": selectors.MAX_REVIEWED}
    return render(request, "workspace/team.html", context, status=400 if form.errors else 200)


TIMELINE_SHOWN = 500  # the newest entries on the history page; proposals and checkpoints always


def _seq_param(request, name: str, head: int, default: int) -> int:
    """A message number from the query string, clamped to the log; anything else is the default."""
    raw = request.GET.get(name, "")
    return min(max(int(raw), 0), head) if raw.isdigit() else default


@login_required
def history(request, session_id):
    """History review: the timeline with its checkpoints, the map at any point, the difference
    between two points, and full-text search."""
    session = _member_access(request, session_id).session
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
        "map": selectors.decision_map_at(session=session, seq=seq),
        "points": [(0, "the start"), *((m["seq"], m["label"]) for m in marks), (session.head_seq, "now")],
        **history_urls(session_id, seq),
    }
    return render(request, "workspace/history.html", context)


@login_required
def history_map(request, session_id):
    session = _member_access(request, session_id).session
    seq = _seq_param(request, "seq", session.head_seq, session.head_seq)
    drawn = selectors.decision_map_at(session=session, seq=seq)
    return render(request, "workspace/partials/history_map.html", {"map": drawn, **history_urls(session_id, seq)})


@login_required
def history_node(request, session_id, seq):
    """A node of the map as it was after message ``seq``: its status and status history then."""
    session = _member_access(request, session_id).session
    index = request.GET.get("node", "")
    node = (
        selectors.map_node_details_at(session=session, seq=seq, index=int(index))
        if index.isdigit() and seq <= session.head_seq
        else None
    )
    if node is None:
        raise Http404("No such node on the map at that point")
    urls = history_urls(session_id, seq)
    return render(request, "workspace/partials/node_details.html", {"node": node, "at_seq": seq, **urls})


@login_required
def history_diff(request, session_id):
    session = _member_access(request, session_id).session
    start = _seq_param(request, "from", session.head_seq, 0)
    end = _seq_param(request, "to", session.head_seq, session.head_seq)
    start, end = min(start, end), max(start, end)
    diff = selectors.history_difference(session=session, from_seq=start, to_seq=end)
    return render(request, "workspace/partials/history_diff.html", {"diff": diff})


@login_required
def history_search(request, session_id):
    session = _member_access(request, session_id).session
    query = request.GET.get("q", "")
    hits = search_messages(session=session, text=query)
    return render(request, "workspace/partials/search_results.html", {"hits": hits, "query": query})


@login_required
def deliverable(request, session_id):
    """The final deliverable as a page: the Markdown the download has, rendered."""
    session = _member_access(request, session_id).session
    found = selectors.final_report(session=session)
    text = deliverable_markdown(found, title=session.title) if found else ""
    return render(request, "workspace/deliverable.html", {"session": session, "text": text})


@login_required
def retrospective(request, session_id):
    """A finished session's retrospective: criteria checked by members, process metrics, charts, ratings."""
    access = _member_access(request, session_id)
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
    _member_access(request, session_id)
    form = serializer_class(data=_filled(request.POST))
    if not form.is_valid():
        messages.error(request, _invalid(form))
        return False
    try:
        service(session_id=session_id, caller=caller_for_user(request.user), **form.validated_data)
    except ProtocolError as error:
        messages.error(request, error.message)
        return False
    return True


def _filled(post) -> dict:
    """A posted form's non-empty fields: an empty box means "not given", as in the JSON API."""
    return {key: value for key, value in post.items() if value != ""}


def _invalid(serializer) -> str:
    return "; ".join(f"{field}: {' '.join(map(str, errors))}" for field, errors in serializer.errors.items())


def _confidence_bars(deliverable: dict | None) -> dict:
    chart = bar_chart(deliverable["sections"] if deliverable else [])
    for row in chart["rows"]:
        row["heat"] = selectors.heat(row["confidence"])
    return chart
