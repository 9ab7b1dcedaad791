"""Full-text search over a session's messages with the database's own engine: PostgreSQL's text
search (websearch syntax, English stemming, ranked) or SQLite's FTS5 (porter stemming, bm25).

The index is kept by the database (a GIN expression index, or FTS5 triggers; migration 0002), so
posting a message costs no extra work here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection

from sessions.chap.text import MATCH_END, MATCH_START, snippet_parts
from sessions.models import Message, WorkSession

MAX_RESULTS = 50
MAX_QUERY = 500

_POSTGRES = f"""
SELECT m.seq, m.message_id, m.payload_type, m.sender_type, m.sender_id,
       ts_headline('english', m.search_text, q,
                   'StartSel={MATCH_START}, StopSel={MATCH_END}, MaxWords=24, MinWords=8, MaxFragments=2')
FROM chap_sessions_message m, websearch_to_tsquery('english', %s) q
WHERE m.session_id = %s AND to_tsvector('english', m.search_text) @@ q
ORDER BY ts_rank(to_tsvector('english', m.search_text), q) DESC, m.seq
LIMIT %s
"""
_SQLITE = f"""
SELECT m.seq, m.message_id, m.payload_type, m.sender_type, m.sender_id,
       snippet(chap_sessions_message_fts, 0, '{MATCH_START}', '{MATCH_END}', '…', 24)
FROM chap_sessions_message_fts JOIN chap_sessions_message m ON m.id = chap_sessions_message_fts.rowid
WHERE chap_sessions_message_fts MATCH %s AND m.session_id = %s
ORDER BY bm25(chap_sessions_message_fts), m.seq
LIMIT %s
"""


@dataclass(frozen=True)
class Hit:
    seq: int
    message_id: str
    payload_type: str
    sender: str
    parts: list[tuple[str, bool]]  # the snippet, its matches marked


def fts5_query(text: str) -> str:
    """The user's words as an FTS5 query that every word must match; FTS5's own operators and
    quotes are never passed through, so no input is a syntax error."""
    return " ".join(f'"{word}"' for word in re.findall(r"\w+", text))


def search_messages(*, session: WorkSession, text: str, limit: int = MAX_RESULTS) -> list[Hit]:
    """The session's messages that match ``text``, best first (an empty query matches nothing)."""
    text = text.replace("\x00", " ").strip()[:MAX_QUERY]  # PostgreSQL refuses NUL in any text
    if connection.vendor == "postgresql":
        sql, query = _POSTGRES, text
    else:
        sql, query = _SQLITE, fts5_query(text)
    if not query.strip():
        return []
    session_id = Message._meta.get_field("session").get_db_prep_value(session.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [query, session_id, limit])
        rows = cursor.fetchall()
    return [
        Hit(seq, message_id, payload_type, f"{sender_type}:{sender_id}", snippet_parts(snippet))
        for seq, message_id, payload_type, sender_type, sender_id, snippet in rows
    ]
