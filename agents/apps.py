from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "Agents"

    def ready(self):
        from agents import checks, reactions  # noqa: F401 (checks register themselves)
        from agents.task_templates import templates_ensure

        post_migrate.connect(templates_ensure, sender=self)
        reactions.connect()
