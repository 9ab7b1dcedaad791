from django.core import checks
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder

ROLE_ESCAPE = "pg_catalog.set_config(text,text,boolean)"
REVOKE = f"REVOKE EXECUTE ON FUNCTION {ROLE_ESCAPE} FROM PUBLIC"
REVOKING_MIGRATION = ("agents", "0005_datasets_role_escape")


@checks.register(checks.Tags.database, checks.Tags.security)
def datasets_isolated_on_postgresql(app_configs, databases=None, **kwargs):
    """Dataset queries run as the session's own role; without these two a query could return to
    the application's role (``set_config('role', 'none', …)``) or no such role could be made."""
    connection = connections["datasets"]
    # Only where the database is asked for (migrate, check --database): the datasets share it on PostgreSQL.
    if connection.vendor != "postgresql" or not databases:
        return []
    errors = []
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


def _migrate_will_revoke(cursor) -> bool:
    """On a fresh database ``migrate`` checks before it migrates: the revoking migration has not run
    yet and will succeed, since it runs as a superuser. Once it has run, only the REVOKE counts."""
    cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    superuser = bool(cursor.fetchone()[0])
    recorder = MigrationRecorder(connections["default"])
    return superuser and (not recorder.has_table() or REVOKING_MIGRATION not in recorder.applied_migrations())
