from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from sessions.selectors import membership_of, sessions_for_user


@login_required
def session_list(request):
    return render(request, "sessions/list.html", {"sessions": sessions_for_user(user=request.user)})


@login_required
def session_detail(request, session_id):
    membership = membership_of(session_id=session_id, user=request.user)
    if membership is None:
        raise Http404("No such session")
    return render(request, "sessions/detail.html", {"session": membership.session, "membership": membership})
