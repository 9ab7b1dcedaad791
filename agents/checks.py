from django.core import checks
from django.db import connections

ROLE_ESCAPE = "pg_catalog.set_config(text,text,boolean)"
REVOKE = f"REVOKE EXECUTE ON FUNCTION {ROLE_ESCAPE} FROM PUBLIC"


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
        if cursor.fetchone()[0]:
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
