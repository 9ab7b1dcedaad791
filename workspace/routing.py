from django.urls import path

from workspace.consumers import WorkspaceConsumer

websocket_urlpatterns = [
    path("ws/sessions/<uuid:session_id>/ui/", WorkspaceConsumer.as_asgi()),
]
