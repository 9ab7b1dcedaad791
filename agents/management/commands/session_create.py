from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import Agent
from agents.staffing import session_start, task_proposal
from protocol.errors import ProtocolError
from sessions.membership import agent_join, session_create

CONSTRAINTS = ("format", "length", "deadline", "audience")


class Command(BaseCommand):
    help = (
        "Create a session owned by USER, with agents taking part, and print its id; with --goal it starts "
        "as the new-session form starts one, with a task proposal of every field given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", required=True)
        parser.add_argument("--title", required=True)
        parser.add_argument("--agent", action="append", default=[], metavar="NAME")
        parser.add_argument("--goal", default="", help="the task proposal's goal (the session starts with it)")
        parser.add_argument("--template", default="", help="the kind of task (a task template's slug)")
        for constraint in CONSTRAINTS:
            parser.add_argument(f"--{constraint}", default="")
        parser.add_argument("--background", action="append", default=[], metavar="TEXT")
        parser.add_argument("--criterion", action="append", default=[], metavar="TEXT", help="a success criterion")
        parser.add_argument("--role", action="append", default=[], metavar="ROLE", help="an expected agent role")

    def handle(self, *args: Any, owner: str, title: str, agent: list[str], goal: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user {owner!r}")
        agents = list(Agent.objects.filter(name__in=agent))
        missing = sorted(set(agent) - {a.name for a in agents})
        if missing:
            raise CommandError(f"no agent {', '.join(missing)} (create one with: manage.py agent_token NAME)")
        if goal.strip():
            _check_date(options["deadline"])
            proposal = task_proposal(
                goal=goal,
                template=options["template"],
                constraints={key: options[key] for key in CONSTRAINTS},
                background=options["background"],
                success_criteria=options["criterion"],
                roles=options["role"],
            )
            try:
                session = session_start(owner=user, title=title, proposal=proposal, agents=agents)
            except ProtocolError as refused:  # a field the task proposal's schema refuses (a deadline not a date)
                raise CommandError(refused.message) from refused
        else:
            session = session_create(owner=user, title=title)
            for participant in agents:
                agent_join(session=session, agent=participant)
        self.stdout.write(str(session.pk))


def _check_date(text: str) -> None:
    """A deadline the task proposal takes (YYYY-MM-DD), checked before the session is made."""
    try:
        if text:
            date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--deadline {text!r} is not a date (YYYY-MM-DD)") from None
