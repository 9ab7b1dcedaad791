from django.urls import path

from workspace import views

app_name = "workspace"
urlpatterns = [
    path("", views.session_list, name="list"),
    path("new/", views.session_new, name="new"),
    path("review/", views.team, name="team"),
    path("<uuid:session_id>/", views.session_detail, name="detail"),
    path("<uuid:session_id>/map/", views.session_map, name="map"),
    path("<uuid:session_id>/map/node/", views.map_node, name="map-node"),
    path("<uuid:session_id>/feedback/", views.feedback_post, name="feedback"),
    path("<uuid:session_id>/schedule/", views.schedule, name="schedule"),
    path("<uuid:session_id>/schedule/act/", views.schedule_act, name="schedule-act"),
    path("<uuid:session_id>/schedule/agent/", views.schedule_agent, name="schedule-agent"),
    path("<uuid:session_id>/answers/", views.answer_post, name="answer"),
    path("<uuid:session_id>/plans/<str:message_id>/approve/", views.plan_approve, name="plan-approve"),
    path("<uuid:session_id>/gates/", views.gate_decision, name="gate"),
    path("<uuid:session_id>/state/", views.session_state, name="state"),
    path("<uuid:session_id>/members/", views.members_add, name="members"),
    path("<uuid:session_id>/shares/", views.shares_edit, name="shares"),
    path("<uuid:session_id>/agents/", views.agent_invite_view, name="agent-invite"),
    path("<uuid:session_id>/history/", views.history, name="history"),
    path("<uuid:session_id>/history/map/", views.history_map, name="history-map"),
    path("<uuid:session_id>/history/<int:seq>/node/", views.history_node, name="history-node"),
    path("<uuid:session_id>/history/diff/", views.history_diff, name="history-diff"),
    path("<uuid:session_id>/history/search/", views.history_search, name="history-search"),
    path("<uuid:session_id>/deliverable/", views.deliverable, name="deliverable"),
    path("<uuid:session_id>/retrospective/", views.retrospective, name="retrospective"),
    path("<uuid:session_id>/retrospective/check/", views.retrospective_check, name="retrospective-check"),
    path("<uuid:session_id>/retrospective/rate/", views.retrospective_rate, name="retrospective-rate"),
]
