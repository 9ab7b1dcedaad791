"""The tamper-evident version chain: checksum_n = H(checksum_{n-1} || canonical JSON of message n).

What is hashed is the envelope as it is stored and as every reader gets it back, on SQLite and on
PostgreSQL alike. PostgreSQL's ``jsonb`` keeps numbers as exact decimals, so ``1e16`` came back as the
integer ``10000000000000000`` and ``-0.0`` as ``0.0``, and the hash of what was read no longer matched.
So the one write path gives numbers that form before anything hashes them (validate_envelope:
protocol.strict_json.canonical), rather than keeping a second, textual copy of every message beside the
``jsonb``: one representation, which the graph, the API, exports and ``verify_session`` all read, and no
migration. Verification hashes rows as read, never re-canonicalised, so a session that verified before
verifies still, on its database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

CHECKSUM_LENGTH = 16


def canonical_json(envelope: dict[str, Any]) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the same message always hashes the same."""
    return json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis_checksum(session_id: str) -> str:
    """The version of an empty session: what its first message states as context_checksum."""
    return hashlib.sha256(f"chap-session:{session_id}".encode()).hexdigest()[:CHECKSUM_LENGTH]


def next_checksum(previous: str, envelope: dict[str, Any], *, canonical: str | None = None) -> str:
    """``canonical``, when given, is ``canonical_json(envelope)`` already made (the append path needs it twice)."""
    text = canonical if canonical is not None else canonical_json(envelope)
    return hashlib.sha256((previous + text).encode()).hexdigest()[:CHECKSUM_LENGTH]


def content_hash(envelope: dict[str, Any], *, canonical: str | None = None) -> str:
    """Identity of a message's content, for telling an idempotent retry from a reused message_id."""
    text = canonical if canonical is not None else canonical_json(envelope)
    return hashlib.sha256(text.encode()).hexdigest()


def first_break(session_id: str, rows: Iterable[tuple[int, dict[str, Any], str]]) -> int | None:
    """The sequence number of the first message whose stored checksum does not match the chain.

    ``rows`` yields ``(seq, envelope, stored_checksum)`` in sequence order, starting at 1.
    """
    checksum = genesis_checksum(session_id)
    expected_seq = 1
    for seq, envelope, stored in rows:
        if seq != expected_seq:
            return expected_seq
        checksum = next_checksum(checksum, envelope)
        if checksum != stored:
            return seq
        expected_seq += 1
    return None
