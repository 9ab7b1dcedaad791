from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "Agents"

    def ready(self) -> None:
        from agents import checks, reactions  # noqa: F401 (checks register themselves)
        from agents.models import AgentToken
        from agents.operations.datasets.lifecycle import datasets_drop_with_session
        from agents.sap_service import risky_step_wait
        from agents.scheduling.plans import steps_on_approval
        from agents.task_templates import templates_ensure
        from agents.tokens import token_deleted
        from sessions.log import plan_approved
        from sessions.models import WorkSession
        from sessions.retrospectives import metric_contribute

        post_migrate.connect(templates_ensure, sender=self)
        post_delete.connect(token_deleted, sender=AgentToken, dispatch_uid="chap.token_deleted")
        # Sessions live on the floor below and know nothing of datasets; every way a session's row
        # is deleted sends this, so no schema, file or reader role outlives its session.
        post_delete.connect(datasets_drop_with_session, sender=WorkSession)
        reactions.connect()
        # A person's approval of a plan, by any channel, starts its steps in the approval's transaction.
        plan_approved.connect(steps_on_approval, dispatch_uid="agents.plan_steps")
        metric_contribute("risky_step_wait_s", risky_step_wait)
