"""Live events, sent only after the transaction that caused them has committed."""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def session_group(session_id) -> str:
    return f"chap.session.{session_id}"


def agent_group(agent_id) -> str:
    """Every connection of one agent on /ws/agents/."""
    return f"chap.agent.{agent_id}"


def message_frame(seq: int, envelope: dict) -> str:
    """The socket frame of one message, serialised once for all its recipients."""
    return json.dumps({"type": "message", "seq": seq, "envelope": envelope}, ensure_ascii=False)


def send_on_commit(session_id, event: dict) -> None:
    """Queue ``event`` for the session's group; it goes out only if the transaction commits."""
    transaction.on_commit(lambda: _send(session_group(session_id), event))


def send_to_agent_on_commit(agent_id, event: dict) -> None:
    transaction.on_commit(lambda: _send(agent_group(agent_id), event))


def _send(group: str, event: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)
