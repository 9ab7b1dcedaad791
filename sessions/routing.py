from django.urls import path

from sessions.consumers import SessionConsumer

websocket_urlpatterns = [
    # Channels routes ASGI apps by path(); django-stubs types path() for views only.
    path("ws/sessions/<uuid:session_id>/chap/", SessionConsumer.as_asgi()),  # type: ignore[arg-type]
]
