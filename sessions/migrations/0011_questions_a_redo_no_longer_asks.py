"""What waits in a session counts no more the questions a later report of their agent no longer asks
(``sessions.chap.dependencies.waits``): the session rows written before are counted again from one
replay, as 0007 counted them first."""

from importlib import import_module

from django.db import migrations

backfill = import_module("sessions.migrations.0007_waiting_figures").backfill


class Migration(migrations.Migration):
    dependencies = [("chap_sessions", "0010_worksession_current_answer")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
