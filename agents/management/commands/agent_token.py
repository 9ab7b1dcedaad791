from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from agents.models import Agent, AgentKind
from agents.tokens import token_issue


class Command(BaseCommand):
    help = "Create the agent when missing and print a new bearer token for it (as the last line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--kind", choices=AgentKind.values, default=AgentKind.EXTERNAL)
        parser.add_argument("--allow", action="append", default=[], metavar="PATTERN", help="SAP operations it may run")
        parser.add_argument(
            "--approve", action="append", default=[], metavar="PATTERN", help="operations needing approval"
        )
        parser.add_argument("--label", default="", help="a note to tell this token from the agent's others")

    def handle(
        self, *args: Any, name: str, kind: str, allow: list[str], approve: list[str], label: str, **options: Any
    ) -> None:
        agent, created = Agent.objects.get_or_create(name=name, defaults={"kind": kind})
        if allow or approve:
            agent.allowed_operations = sorted(set(agent.allowed_operations) | set(allow))
            agent.approval_operations = sorted(set(agent.approval_operations) | set(approve))
            agent.save(update_fields=["allowed_operations", "approval_operations"])
        self.stderr.write(
            f"{'created' if created else 'existing'} agent {agent.name} ({agent.kind}); the token is shown once:"
        )
        self.stdout.write(token_issue(agent=agent, label=label))
