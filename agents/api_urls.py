from django.urls import path

from agents import api

urlpatterns = [
    path("sessions/<uuid:session_id>/sap/", api.SapView.as_view(), name="api-sap"),
    path("sessions/<uuid:session_id>/files/", api.UploadView.as_view(), name="api-upload"),
    path("sessions/<uuid:session_id>/approvals/", api.ApprovalListView.as_view(), name="api-approvals"),
    path(
        "sessions/<uuid:session_id>/approvals/<int:approval_id>/decision/",
        api.ApprovalDecisionView.as_view(),
        name="api-approval-decision",
    ),
    path("sessions/<uuid:session_id>/waiting/", api.WaitingListView.as_view(), name="api-waiting"),
    path(
        "sessions/<uuid:session_id>/waiting/decide/",
        api.WaitingDecisionView.as_view(),
        name="api-waiting-decide",
    ),
    path("sessions/<uuid:session_id>/tasks/", api.TaskListView.as_view(), name="api-tasks"),
    path("sessions/<uuid:session_id>/tasks/<int:task_id>/", api.TaskDetailView.as_view(), name="api-task"),
    path(
        "sessions/<uuid:session_id>/tasks/<int:task_id>/actions/",
        api.TaskActionView.as_view(),
        name="api-task-action",
    ),
    path(
        "sessions/<uuid:session_id>/plans/<str:message_id>/accept/",
        api.PlanAcceptView.as_view(),
        name="api-plan-accept",
    ),
]
