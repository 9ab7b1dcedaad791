from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TypeAlias

from sessions.access import Access, Caller

# A session's id as the model holds it, or as its text (a dataset file's or schema's name).
SessionId: TypeAlias = uuid.UUID | str


@dataclass(frozen=True)
class SapContext:
    """Who runs SAP operations, in which session: the ``context`` every handler receives."""

    caller: Caller
    access: Access
    request_message_id: str | None = None  # the CHAP message that asked for these operations

    @property
    def session_id(self) -> uuid.UUID:
        return self.access.session_id
