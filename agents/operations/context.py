from __future__ import annotations

from dataclasses import dataclass

from sessions.access import Access, Caller


@dataclass(frozen=True)
class SapContext:
    """Who runs SAP operations, in which session: the ``context`` every handler receives."""

    caller: Caller
    access: Access
    request_message_id: str | None = None  # the CHAP message that asked for these operations

    @property
    def session_id(self):
        return self.access.session_id
