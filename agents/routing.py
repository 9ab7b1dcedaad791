from django.urls import path

from agents.consumers import AgentConsumer

websocket_urlpatterns = [
    # Channels routes ASGI apps by path(); django-stubs types path() for views only.
    path("ws/agents/", AgentConsumer.as_asgi()),  # type: ignore[arg-type]
]
