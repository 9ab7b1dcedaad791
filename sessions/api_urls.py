from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from sessions import api


def in_session(route: str, view: Callable[..., Any], name: str) -> URLPattern:
    """A REST route below one session (the sessions' and the agents' apps both have them): each takes the
    session id from the same place, ``/sessions/<uuid>/``, where the view checks the caller's access."""
    return path(f"sessions/<uuid:session_id>/{route}", view, name=name)


urlpatterns = [
    path("sessions/", api.SessionListView.as_view(), name="api-sessions"),
    in_session("", api.SessionDetailView.as_view(), "api-session"),
    in_session("archive/", api.SessionArchiveView.as_view(), "api-session-archive"),
    in_session("members/", api.MemberListView.as_view(), "api-members"),
    in_session("members/<str:username>/", api.MemberDetailView.as_view(), "api-member"),
    in_session("shares/", api.ShareListView.as_view(), "api-shares"),
    in_session("shares/<str:group>/", api.ShareDetailView.as_view(), "api-share"),
    in_session("messages/", api.MessageListView.as_view(), "api-messages"),
    in_session("graph/", api.GraphView.as_view(), "api-graph"),
    in_session("checkpoints/", api.CheckpointListView.as_view(), "api-checkpoints"),
    in_session("summary/", api.SummaryView.as_view(), "api-summary"),
    in_session("context/", api.AgentContextView.as_view(), "api-context"),
    in_session("metrics/", api.MetricsView.as_view(), "api-metrics"),
    in_session("export/", api.ExportView.as_view(), "api-export"),
    in_session("deliverable/", api.DeliverableView.as_view(), "api-deliverable"),
    in_session("notebook/", api.NotebookView.as_view(), "api-notebook"),
    in_session("search/", api.SearchView.as_view(), "api-search"),
    in_session("retrospective/", api.RetrospectiveView.as_view(), "api-retrospective"),
    in_session("retrospective/criteria/", api.CriterionCheckView.as_view(), "api-retrospective-criteria"),
    in_session("retrospective/ratings/", api.RatingView.as_view(), "api-retrospective-ratings"),
]
