from django.db import migrations

from agents.checks import REVOKE


def revoke_role_escape(apps, schema_editor):
    """Dataset queries run as their session's role; set_config('role', ...) would let one leave it.
    Only the function's owner (a superuser) can revoke it; otherwise PostgreSQL merely warns and
    the chap_datasets.E001 check says what to run."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REVOKE)


class Migration(migrations.Migration):
    dependencies = [("agents", "0004_task_templates")]

    operations = [migrations.RunPython(revoke_role_escape, migrations.RunPython.noop)]
