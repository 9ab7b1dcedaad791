from django.urls import path

from workspace.views import (
    charts,
    conversation,
    deliverable,
    history,
    listing,
    people,
    retrospective,
    schedule,
    session,
)

app_name = "workspace"
urlpatterns = [
    path("", listing.session_list, name="list"),
    path("new/", listing.session_new, name="new"),
    path("review/", listing.team, name="team"),
    path("<uuid:session_id>/", session.session_detail, name="detail"),
    path("<uuid:session_id>/map/", session.session_map, name="map"),
    path("<uuid:session_id>/map/node/", session.map_node, name="map-node"),
    path("<uuid:session_id>/state/", session.session_state, name="state"),
    path("<uuid:session_id>/feedback/", conversation.feedback_post, name="feedback"),
    path("<uuid:session_id>/answers/", conversation.answer_post, name="answer"),
    path("<uuid:session_id>/plans/<str:message_id>/approve/", conversation.plan_approve, name="plan-approve"),
    path("<uuid:session_id>/gates/", conversation.gate_decision, name="gate"),
    path("<uuid:session_id>/schedule/", schedule.schedule, name="schedule"),
    path("<uuid:session_id>/schedule/act/", schedule.schedule_act, name="schedule-act"),
    path("<uuid:session_id>/schedule/agent/", schedule.schedule_agent, name="schedule-agent"),
    path("<uuid:session_id>/members/", people.members_add, name="members"),
    path("<uuid:session_id>/shares/", people.shares_edit, name="shares"),
    path("<uuid:session_id>/agents/", people.agent_invite_view, name="agent-invite"),
    path("<uuid:session_id>/history/", history.history, name="history"),
    path("<uuid:session_id>/history/map/", history.history_map, name="history-map"),
    path("<uuid:session_id>/history/<int:seq>/node/", history.history_node, name="history-node"),
    path("<uuid:session_id>/history/diff/", history.history_diff, name="history-diff"),
    path("<uuid:session_id>/history/search/", history.history_search, name="history-search"),
    path("<uuid:session_id>/charts/<str:key>/<str:mac>.svg", charts.chart, name="chart"),
    path("<uuid:session_id>/deliverable/", deliverable.deliverable, name="deliverable"),
    path("<uuid:session_id>/retrospective/", retrospective.retrospective, name="retrospective"),
    path("<uuid:session_id>/retrospective/check/", retrospective.retrospective_check, name="retrospective-check"),
    path("<uuid:session_id>/retrospective/rate/", retrospective.retrospective_rate, name="retrospective-rate"),
]
