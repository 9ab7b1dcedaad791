from django.urls import path

from agents import api as agents_api
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
    path("sessions/<uuid:session_id>/sap/", agents_api.SapView.as_view(), name="api-sap"),
    path("sessions/<uuid:session_id>/files/", agents_api.UploadView.as_view(), name="api-upload"),
    path("sessions/<uuid:session_id>/approvals/", agents_api.ApprovalListView.as_view(), name="api-approvals"),
    path(
        "sessions/<uuid:session_id>/approvals/<int:approval_id>/decision/",
        agents_api.ApprovalDecisionView.as_view(),
        name="api-approval-decision",
    ),
    path("sessions/<uuid:session_id>/waiting/", agents_api.WaitingListView.as_view(), name="api-waiting"),
    path(
        "sessions/<uuid:session_id>/waiting/decide/",
        agents_api.WaitingDecisionView.as_view(),
        name="api-waiting-decide",
    ),
    path("sessions/<uuid:session_id>/tasks/", agents_api.TaskListView.as_view(), name="api-tasks"),
    path("sessions/<uuid:session_id>/tasks/<int:task_id>/", agents_api.TaskDetailView.as_view(), name="api-task"),
    path(
        "sessions/<uuid:session_id>/tasks/<int:task_id>/actions/",
        agents_api.TaskActionView.as_view(),
        name="api-task-action",
    ),
    path(
        "sessions/<uuid:session_id>/plans/<str:message_id>/accept/",
        agents_api.PlanAcceptView.as_view(),
        name="api-plan-accept",
    ),
]
