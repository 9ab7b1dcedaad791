"""Who is connected to a session, across processes: one row per open connection.

A row counts while it was seen within the heartbeat timeout, so the connections of a process
that died stop counting by themselves.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.utils import timezone

from sessions.events import CHAP_PRESENCE, send_on_commit
from sessions.models import Presence


def _fresh_since() -> datetime:
    return timezone.now() - timedelta(seconds=settings.CHAP_HEARTBEAT_S * 2.5)


def online(session_id: UUID) -> list[str]:
    rows = Presence.objects.filter(session_id=session_id, last_seen__gte=_fresh_since())
    return sorted(set(rows.values_list("participant", flat=True)))


def join(session_id: UUID, participant: str, channel_name: str) -> None:
    before = online(session_id)
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"session_id": session_id, "participant": participant}
    )
    _announce_if_changed(session_id, before)


def leave(session_id: UUID, channel_name: str) -> None:
    before = online(session_id)
    Presence.objects.filter(channel_name=channel_name).delete()
    _announce_if_changed(session_id, before)


def seen(session_id: UUID, channel_name: str, last_known: list[str] | None) -> list[str]:
    """A heartbeat: refresh this connection, and announce who is online if that changed since
    ``last_known`` — this is how the connections of a crashed process are seen to go offline."""
    Presence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())
    now_online = online(session_id)
    if last_known is not None and now_online != last_known:
        send_on_commit(session_id, {"type": CHAP_PRESENCE, "online": now_online})
    return now_online


def _announce_if_changed(session_id: UUID, before: list[str]) -> None:
    after = online(session_id)
    if after != before:
        send_on_commit(session_id, {"type": CHAP_PRESENCE, "online": after})
