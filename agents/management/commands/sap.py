import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from agents.models import Agent
from agents.sap_service import sap_run
from protocol.errors import ProtocolError
from sessions.access import caller_for_agent, caller_for_user


class Command(BaseCommand):
    help = "Run a SAP stream from stdin in a session, as an agent or a member, and print the response blocks."

    def add_arguments(self, parser):
        parser.add_argument("session_id")
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--agent", help="run with this agent's permissions")
        who.add_argument("--user", help="run as this member")
        parser.add_argument("--message", help="the CHAP message that asked for these operations")

    def handle(self, *args, session_id, agent, user, message, **options):
        if agent:
            found = Agent.objects.filter(name=agent).first()
            caller = caller_for_agent(found) if found else None
        else:
            found = get_user_model().objects.filter(username=user).first()
            caller = caller_for_user(found) if found else None
        if caller is None:
            raise CommandError(f"no such {'agent' if agent else 'user'}: {agent or user}")
        try:
            blocks = sap_run(session_id=session_id, caller=caller, text=sys.stdin.read(), request_message_id=message)
            for block in blocks:
                self.stdout.write(block, ending="")
        except ProtocolError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
