from django.urls import path

from sessions.consumers import SessionConsumer
from sessions.workspace_consumer import WorkspaceConsumer

websocket_urlpatterns = [
    path("ws/sessions/<uuid:session_id>/chap/", SessionConsumer.as_asgi()),
    path("ws/sessions/<uuid:session_id>/ui/", WorkspaceConsumer.as_asgi()),
]
