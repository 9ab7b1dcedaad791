from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import Agent
from sessions.membership import agent_join, session_create


class Command(BaseCommand):
    help = "Create a session owned by USER, with agents taking part, and print its id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", required=True)
        parser.add_argument("--title", required=True)
        parser.add_argument("--agent", action="append", default=[], metavar="NAME")

    def handle(self, *args: Any, owner: str, title: str, agent: list[str], **options: Any) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user {owner!r}")
        agents = list(Agent.objects.filter(name__in=agent))
        missing = sorted(set(agent) - {a.name for a in agents})
        if missing:
            raise CommandError(f"no agent {', '.join(missing)} (create one with: manage.py agent_token NAME)")
        session = session_create(owner=user, title=title)
        for participant in agents:
            agent_join(session=session, agent=participant)
        self.stdout.write(str(session.pk))
