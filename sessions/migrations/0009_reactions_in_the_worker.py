"""Reactions to the log move from the request to the worker, which reacts to the messages after each
session's ``handled_seq``; sessions written before had their reactions at once, so they start at
their head (nothing old is reacted to twice)."""

from django.db import migrations, models


def start_at_the_head(apps, schema_editor):
    WorkSession = apps.get_model("chap_sessions", "WorkSession")
    WorkSession.objects.using(schema_editor.connection.alias).update(handled_seq=models.F("head_seq"))


class Migration(migrations.Migration):
    dependencies = [("chap_sessions", "0008_sessionagent_agent_model_setting")]

    operations = [
        migrations.AddField(
            model_name="worksession", name="handled_seq", field=models.PositiveIntegerField(default=0, editable=False)
        ),
        migrations.RunPython(start_at_the_head, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="worksession",
            index=models.Index(
                condition=models.Q(("handled_seq__lt", models.F("head_seq"))),
                fields=["last_activity_at"],
                name="session_unhandled",
            ),
        ),
    ]
