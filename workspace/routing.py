from django.urls import path

from workspace.consumers import WorkspaceConsumer

websocket_urlpatterns = [
    # Channels routes ASGI apps by path(); django-stubs types path() for views only.
    path("ws/sessions/<uuid:session_id>/ui/", WorkspaceConsumer.as_asgi()),  # type: ignore[arg-type]
]
