from django.urls import path

from sessions import api

urlpatterns = [
    path("sessions/", api.SessionListView.as_view(), name="api-sessions"),
    path("sessions/<uuid:session_id>/", api.SessionDetailView.as_view(), name="api-session"),
    path("sessions/<uuid:session_id>/archive/", api.SessionArchiveView.as_view(), name="api-session-archive"),
    path("sessions/<uuid:session_id>/members/", api.MemberListView.as_view(), name="api-members"),
    path("sessions/<uuid:session_id>/members/<str:username>/", api.MemberDetailView.as_view(), name="api-member"),
    path("sessions/<uuid:session_id>/shares/", api.ShareListView.as_view(), name="api-shares"),
    path("sessions/<uuid:session_id>/shares/<str:group>/", api.ShareDetailView.as_view(), name="api-share"),
    path("sessions/<uuid:session_id>/messages/", api.MessageListView.as_view(), name="api-messages"),
    path("sessions/<uuid:session_id>/graph/", api.GraphView.as_view(), name="api-graph"),
    path("sessions/<uuid:session_id>/checkpoints/", api.CheckpointListView.as_view(), name="api-checkpoints"),
    path("sessions/<uuid:session_id>/summary/", api.SummaryView.as_view(), name="api-summary"),
    path("sessions/<uuid:session_id>/context/", api.AgentContextView.as_view(), name="api-context"),
    path("sessions/<uuid:session_id>/metrics/", api.MetricsView.as_view(), name="api-metrics"),
    path("sessions/<uuid:session_id>/export/", api.ExportView.as_view(), name="api-export"),
    path("sessions/<uuid:session_id>/deliverable/", api.DeliverableView.as_view(), name="api-deliverable"),
    path("sessions/<uuid:session_id>/search/", api.SearchView.as_view(), name="api-search"),
    path("sessions/<uuid:session_id>/retrospective/", api.RetrospectiveView.as_view(), name="api-retrospective"),
    path(
        "sessions/<uuid:session_id>/retrospective/criteria/",
        api.CriterionCheckView.as_view(),
        name="api-retrospective-criteria",
    ),
    path(
        "sessions/<uuid:session_id>/retrospective/ratings/",
        api.RatingView.as_view(),
        name="api-retrospective-ratings",
    ),
]
