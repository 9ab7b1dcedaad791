from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from sessions.access import caller_for_user, session_access
from sessions.selectors import sessions_for_user


@login_required
def session_list(request):
    return render(request, "sessions/list.html", {"sessions": sessions_for_user(user=request.user)})


@login_required
def session_detail(request, session_id):
    access = session_access(session_id, caller_for_user(request.user))
    if access is None:
        raise Http404("No such session")
    return render(request, "sessions/detail.html", {"session": access.session, "role": access.role})
