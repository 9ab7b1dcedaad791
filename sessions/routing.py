from django.urls import path

from sessions.consumers import SessionConsumer

websocket_urlpatterns = [
    path("ws/sessions/<uuid:session_id>/chap/", SessionConsumer.as_asgi()),
]
