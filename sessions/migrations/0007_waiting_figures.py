"""What waits for a person, kept on the session row (open questions, plans still proposed) so that
the sessions list reads it without replaying logs; sessions written before get it from one replay."""

from django.db import migrations, models


def backfill(apps, schema_editor):
    from sessions.chap.history import replay

    WorkSession = apps.get_model("chap_sessions", "WorkSession")
    Message = apps.get_model("chap_sessions", "Message")
    alias = schema_editor.connection.alias
    for session in WorkSession.objects.using(alias).filter(head_seq__gt=0).iterator():
        rows = Message.objects.using(alias).filter(session=session).order_by("seq").values_list("seq", "envelope")
        graph = replay(str(session.pk), rows.iterator(), until=session.head_seq)
        session.open_questions = len(graph.open_asks)
        session.proposed_plans = sorted(graph.proposed_plans)
        session.save(update_fields=["open_questions", "proposed_plans"])


class Migration(migrations.Migration):
    dependencies = [("chap_sessions", "0006_message_latest_by_sender")]

    operations = [
        migrations.AddField(
            model_name="worksession",
            name="open_questions",
            field=models.PositiveIntegerField(
                default=0, help_text="clarifications and report questions nobody has answered yet"
            ),
        ),
        migrations.AddField(
            model_name="worksession",
            name="proposed_plans",
            field=models.JSONField(
                blank=True, default=list, help_text="message ids of the plans nobody has approved or corrected yet"
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
