"""System checks of the agents app: the behaviours it imports, and the datasets' isolation on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.db import connections
from django.db.backends.utils import CursorWrapper
from django.db.migrations.recorder import MigrationRecorder

from sessions.checks import dotted_path_errors

ROLE_ESCAPE = "pg_catalog.set_config(text,text,boolean)"
REVOKE = f"REVOKE EXECUTE ON FUNCTION {ROLE_ESCAPE} FROM PUBLIC"
REVOKING_MIGRATION = ("agents", "0005_datasets_role_escape")


@checks.register()
def behaviours_import(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[checks.CheckMessage]:
    """A behaviour named in CHAP_BEHAVIOURS is imported when its agent is first given a task."""
    return dotted_path_errors(
        "CHAP_BEHAVIOURS",
        settings.CHAP_BEHAVIOURS.values(),
        check_id="chap_agents.E001",
        hint="CHAP_BEHAVIOURS is name=module.function,name2=module.function2 (agents/behaviours/registry.py).",
    )


@checks.register(checks.Tags.database, checks.Tags.security)
def datasets_isolated_on_postgresql(
    app_configs: Sequence[AppConfig] | None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """Dataset queries run as the session's own role; without these two a query could return to
    the application's role (``set_config('role', 'none', …)``) or no such role could be made."""
    connection = connections["datasets"]
    # Only where the database is asked for (migrate, check --database): the datasets share it on PostgreSQL.
    if connection.vendor != "postgresql" or not databases:
        return []
    errors: list[checks.CheckMessage] = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT has_function_privilege('public', %s, 'EXECUTE')", [ROLE_ESCAPE])
        if cursor.fetchone()[0] and not _migrate_will_revoke(cursor):
            errors.append(
                checks.Error(
                    "set_config() is executable by every role, so a dataset query could leave its session's role.",
                    hint=f"As a superuser, once per database: {REVOKE};",
                    id="chap_datasets.E001",
                )
            )
        cursor.execute("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")
        if not cursor.fetchone()[0]:
            errors.append(
                checks.Error(
                    "The workbench's database role cannot create the per-session dataset reader roles.",
                    hint="ALTER ROLE <the workbench's role> CREATEROLE;",
                    id="chap_datasets.E002",
                )
            )
    return errors


def _migrate_will_revoke(cursor: CursorWrapper) -> bool:
    """On a fresh database ``migrate`` checks before it migrates: the revoking migration has not run
    yet and will succeed, since it runs as a superuser. Once it has run, only the REVOKE counts."""
    cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    superuser = bool(cursor.fetchone()[0])
    recorder = MigrationRecorder(connections["default"])
    return superuser and (not recorder.has_table() or REVOKING_MIGRATION not in recorder.applied_migrations())
