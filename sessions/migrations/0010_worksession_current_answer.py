"""The report that is a session's answer now, kept on the session row beside what waits in it, so the
sessions list tells a session that ended with an answer from one that ended without; sessions written
before get it from one replay."""

from django.db import migrations, models


def backfill(apps, schema_editor):
    from sessions.chap.graph import CURRENT_ANSWER
    from sessions.chap.history import replay

    WorkSession = apps.get_model("chap_sessions", "WorkSession")
    Message = apps.get_model("chap_sessions", "Message")
    alias = schema_editor.connection.alias
    for session in WorkSession.objects.using(alias).filter(head_seq__gt=0).iterator():
        rows = Message.objects.using(alias).filter(session=session).order_by("seq").values_list("seq", "envelope")
        graph = replay(str(session.pk), rows.iterator(), until=session.head_seq)
        session.current_answer = str(graph.graph.graph.get(CURRENT_ANSWER) or "")
        session.save(update_fields=["current_answer"])


class Migration(migrations.Migration):
    dependencies = [("chap_sessions", "0009_reactions_in_the_worker")]

    operations = [
        migrations.AddField(
            model_name="worksession",
            name="current_answer",
            field=models.CharField(
                blank=True, help_text="message id of the report that is the session's answer now", max_length=128
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
