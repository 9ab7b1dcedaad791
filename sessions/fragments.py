"""The workspace's live fragments, rendered for one recipient: the views and the UI socket share them."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse

from sessions import selectors
from sessions.models import WorkSession


def map_urls(session_id) -> dict:
    return {
        "map_url": reverse("sessions:map", args=[session_id]),
        "details_url": reverse("sessions:map-node", args=[session_id]),
    }


def live_update(*, session: WorkSession, seq: int, envelope: dict, checksum: str, role: str) -> str:
    """Out-of-band swaps for one new message: its thread entry, its map nodes, the statuses it changed,
    and the version the page now shows (``checksum``), which the forms send."""
    shown = selectors.thread_entry(seq, envelope)
    context = {
        "checksum": checksum,
        "message": shown,
        "update": selectors.decision_map_update(session=session, message_id=envelope["message_id"]),
        "role": role,
        **map_urls(session.pk),
    }
    return render_to_string("sessions/partials/live_update.html", context)
