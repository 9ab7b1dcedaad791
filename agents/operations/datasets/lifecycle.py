"""Datasets end with their session, and with the database: no schema, file or reader role outlives them.

A session's datasets live beside the workbench's tables (a file of its own on SQLite; a schema and a
cluster-wide reader role on PostgreSQL), so deleting the session's row removes nothing of them.
"""

from __future__ import annotations

import uuid
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections, transaction

from agents.operations.context import SessionId
from agents.operations.datasets.store import ALIAS, PostgresStore, open_store


def datasets_drop_with_session(sender: type[Any], instance: Any, **kwargs: Any) -> None:
    """``post_delete`` of a session (the admin, a bulk delete, the shell: every path deletes the row):
    its datasets go once the deletion commits, and stay if it rolls back."""
    transaction.on_commit(partial(session_datasets_drop, instance.pk))


def session_datasets_drop(session_id: SessionId) -> None:
    with open_store(session_id) as store:
        store.drop()


def every_dataset_drop() -> list[str]:
    """Every session's datasets in this database, before it is dropped; returns the sessions' ids.

    On PostgreSQL the reader roles belong to the cluster and would outlive ``DROP DATABASE``.
    """
    if connections[ALIAS].vendor == "postgresql":
        with connections[ALIAS].cursor() as cursor:
            cursor.execute("SELECT substr(nspname, 9) FROM pg_namespace WHERE nspname LIKE 'session\\_%' ORDER BY 1")
            hexes = [row[0] for row in cursor.fetchall()]
        for session_hex in hexes:
            PostgresStore(session_hex).drop()
        return [str(uuid.UUID(session_hex)) for session_hex in hexes]
    files = sorted((Path(settings.DATA_DIR) / "datasets").glob("*.sqlite3"))
    for path in files:
        session_datasets_drop(path.stem)
    return [str(uuid.UUID(path.stem)) for path in files]
