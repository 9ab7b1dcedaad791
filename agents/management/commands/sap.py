import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import Agent
from agents.sap_service import sap_run
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user


class Command(BaseCommand):
    help = "Run a SAP stream from stdin in a session, as an agent or a member, and print the response blocks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id")
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--agent", help="run with this agent's permissions")
        who.add_argument("--user", help="run as this member")
        parser.add_argument("--message", help="the CHAP message that asked for these operations")

    def handle(
        self, *args: Any, session_id: str, agent: str | None, user: str | None, message: str | None, **options: Any
    ) -> None:
        if agent:
            found_agent = Agent.objects.filter(name=agent).first()
            caller = caller_for_agent(found_agent) if found_agent else None
        else:
            member = get_user_model().objects.filter(username=user).first()
            caller = caller_for_user(member) if member else None
        if caller is None:
            raise CommandError(f"no such {'agent' if agent else 'user'}: {agent or user}")
        try:
            blocks = sap_run(session_id=session_id, caller=caller, text=sys.stdin.read(), request_message_id=message)
            for block in blocks:
                self.stdout.write(block, ending="")
        except ProtocolError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
