# Sessions point at the agent model through settings.CHAP_AGENT_MODEL, as at the user model through
# AUTH_USER_MODEL: the same column and constraint, now named by the setting with a swappable dependency.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.CHAP_AGENT_MODEL),
        ('chap_sessions', '0007_waiting_figures'),
    ]

    operations = [
        migrations.AlterField(
            model_name='sessionagent',
            name='agent',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='participations', to=settings.CHAP_AGENT_MODEL),
        ),
    ]
