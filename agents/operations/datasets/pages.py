"""One page of a query's rows, within the row, value and page byte limits, on either database.

The limits hold on the database's side of the wire: SQLite refuses to build a value past
``MAX_VALUE_BYTES`` (``SQLITE_LIMIT_LENGTH``) and its rows are counted as they are fetched; on
PostgreSQL the query is wrapped so the server measures the page and sends the rows only when it fits,
so a huge value is never read into the workbench's memory. The user's text is passed with no driver
parameters when it has none, so a ``%`` in it is just a character.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from agents.sap.values import json_safe
from protocol.errors import ProtocolError

MAX_VALUE_BYTES = 10 * 1024 * 1024
# One page of results, its values counted as text: what one answer may carry to an agent or a browser.
MAX_PAGE_BYTES = 10 * 1024 * 1024
Page = tuple[list[str], list[list[Any]], int | None]

# The server measures the page (every row as text; a row longer than a value may be, value by value
# as JSON text) and joins the rows to the verdict only when both fit: too big, and one row of sizes
# is all that comes back. The measuring costs about 2 ms a thousand rows.
# The first three columns are ours; the page's row number orders the rows and marks an empty page.
_POSTGRES_PAGE = """
WITH page AS MATERIALIZED (
    SELECT row_number() OVER () AS chap_row, q.*
    FROM (SELECT * FROM ({sql}) AS limited LIMIT {rows} OFFSET {offset}) AS q
), sized AS (
    SELECT CASE WHEN octet_length(p::text) > {max_value}
                THEN (SELECT max(octet_length(v)) FROM json_each_text(row_to_json(p)) AS e(k, v))
                ELSE 0 END AS value_bytes,
           octet_length(p::text) AS row_bytes
    FROM page AS p
), verdict AS (
    SELECT coalesce(max(value_bytes), 0) AS value_bytes, coalesce(sum(row_bytes), 0) AS page_bytes FROM sized
)
SELECT v.value_bytes, v.page_bytes, p.* FROM verdict AS v
LEFT JOIN page AS p ON v.value_bytes <= {max_value} AND v.page_bytes <= {max_page} ORDER BY 3
"""


def _execute(cursor: Any, sql: str, values: list[Any]) -> None:
    """No parameters when there are none: psycopg then reads no placeholders in the text."""
    if values:
        cursor.execute(sql, values)
    else:
        cursor.execute(sql)


def _total(cursor: Any, sql: str, values: list[Any], rows: list[Any], limit: int) -> int | None:
    """The whole result's row count, asked for only when the page was cut."""
    if len(rows) <= limit:
        return None
    _execute(cursor, f"SELECT COUNT(*) FROM ({sql}) AS counted", values)
    return int(cursor.fetchone()[0])


def sqlite_page(cursor: Any, sql: str, values: list[Any], *, limit: int, offset: int) -> Page:
    """Rows of ``sql`` (one more than ``limit``, to know there are more), counted as they come."""
    _execute(cursor, f"SELECT * FROM ({sql}) AS limited LIMIT {int(limit) + 1} OFFSET {int(offset)}", values)
    names = [d[0] for d in cursor.description]
    rows, page_bytes = [], 0
    while batch := cursor.fetchmany(100):
        page_bytes += sum(_text_bytes(value) for row in batch for value in row)
        if page_bytes > MAX_PAGE_BYTES:
            raise too_big("page", page_bytes, MAX_PAGE_BYTES)
        rows.extend(batch)
    total = _total(cursor, sql, values, rows, limit)
    return names, [[json_safe(v) for v in row] for row in rows[:limit]], total


def postgres_page(cursor: Any, sql: str, values: list[Any], *, limit: int, offset: int) -> Page:
    """As ``sqlite_page``, measured by the server before any row is sent."""
    wrapped = _POSTGRES_PAGE.format(
        sql=sql, rows=int(limit) + 1, offset=int(offset), max_value=MAX_VALUE_BYTES, max_page=MAX_PAGE_BYTES
    )
    _execute(cursor, wrapped, values)
    names = [d[0] for d in cursor.description][3:]
    fetched = cursor.fetchall()
    value_bytes, page_bytes = (int(n) for n in fetched[0][:2])
    if value_bytes > MAX_VALUE_BYTES:
        raise too_big("value", value_bytes, MAX_VALUE_BYTES)
    if page_bytes > MAX_PAGE_BYTES:
        raise too_big("page", page_bytes, MAX_PAGE_BYTES)
    rows = [row[3:] for row in fetched if row[2] is not None]
    total = _total(cursor, sql, values, rows, limit)
    return names, [[json_safe(v) for v in row] for row in rows[:limit]], total


def _text_bytes(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bytes):
        return len(value)
    return len(str(value).encode("utf-8", "replace"))


def too_big(measure: str, size: int | None, limit: int) -> ProtocolError:
    what = "a value" if measure == "value" else "the page of rows"
    return ProtocolError(
        "LIMIT_EXCEEDED",
        f"{what} would be {'more than ' if size is None else f'{size} bytes, more than '}{limit} bytes",
        details={"limit_bytes": limit, "measure": measure, **({"bytes": size} if size is not None else {})},
        suggestion=["select fewer or shorter columns", "ask for fewer rows (limit), then the next (offset)"],
    )


def read_error(text: str) -> ProtocolError:
    """A database's refusal of a query, as the error model says it."""
    if "too big" in text:  # SQLite, past SQLITE_LIMIT_LENGTH
        return too_big("value", None, MAX_VALUE_BYTES)
    if any(word in text for word in ("interrupt", "timeout", "cancel")):
        return ProtocolError(
            "TIMEOUT",
            f"the query ran past {settings.DATASET_QUERY_TIMEOUT_S} s",
            details={"limit_s": settings.DATASET_QUERY_TIMEOUT_S},
            suggestion=["add filters, or aggregate"],
        )
    if any(word in text for word in ("not authorized", "permission denied", "read-only")):
        return ProtocolError(
            "PERMISSION_DENIED",
            "the query reaches beyond this session's tables or calls a function that is not allowed",
            details={"permission": "dataset.query", "database": text.splitlines()[0]},
            suggestion=["read only this session's tables (dataset.list-tables)", "use the structured query fields"],
        )
    return ProtocolError(
        "VALIDATION_FAILED", f"the query failed: {text.splitlines()[0]}", details={"invalid": {"sql": text}}
    )
