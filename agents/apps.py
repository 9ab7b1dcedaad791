from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "Agents"

    def ready(self):
        from agents import checks, reactions  # noqa: F401 (checks register themselves)
        from agents.models import AgentToken
        from agents.sap_service import risky_step_wait
        from agents.task_templates import templates_ensure
        from agents.tokens import token_deleted
        from sessions.retrospectives import metric_contribute

        post_migrate.connect(templates_ensure, sender=self)
        post_delete.connect(token_deleted, sender=AgentToken, dispatch_uid="chap.token_deleted")
        reactions.connect()
        metric_contribute("risky_step_wait_s", risky_step_wait)
