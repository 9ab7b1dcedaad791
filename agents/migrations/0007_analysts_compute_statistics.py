"""Agents that may query datasets may also compute statistics over them (the stats.* operations read
the same session tables dataset.query reads)."""

from django.db import migrations


def grant_statistics(apps, schema_editor):
    Agent = apps.get_model("agents", "Agent")
    for agent in Agent.objects.all():
        allowed = list(agent.allowed_operations or [])
        if any(p in ("dataset.*", "dataset.query", "*") for p in allowed) and "stats.*" not in allowed:
            agent.allowed_operations = [*allowed, "stats.*"]
            agent.save(update_fields=["allowed_operations"])


class Migration(migrations.Migration):
    dependencies = [("agents", "0006_agent_behaviour_help")]

    operations = [migrations.RunPython(grant_statistics, migrations.RunPython.noop)]
