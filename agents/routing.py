from django.urls import path

from agents.consumers import AgentConsumer

websocket_urlpatterns = [
    path("ws/agents/", AgentConsumer.as_asgi()),
]
