from agents import api
from sessions.api_urls import in_session

urlpatterns = [
    in_session("sap/", api.SapView.as_view(), "api-sap"),
    in_session("files/", api.UploadView.as_view(), "api-upload"),
    in_session("approvals/", api.ApprovalListView.as_view(), "api-approvals"),
    in_session("approvals/<int:approval_id>/decision/", api.ApprovalDecisionView.as_view(), "api-approval-decision"),
    in_session("waiting/", api.WaitingListView.as_view(), "api-waiting"),
    in_session("waiting/decide/", api.WaitingDecisionView.as_view(), "api-waiting-decide"),
    in_session("tasks/", api.TaskListView.as_view(), "api-tasks"),
    in_session("tasks/<int:task_id>/", api.TaskDetailView.as_view(), "api-task"),
    in_session("tasks/<int:task_id>/actions/", api.TaskActionView.as_view(), "api-task-action"),
    in_session("plans/<str:message_id>/accept/", api.PlanAcceptView.as_view(), "api-plan-accept"),
]
