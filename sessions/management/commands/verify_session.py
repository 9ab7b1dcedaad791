from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions.access import SYSTEM, session_access
from sessions.chap.chain import first_break
from sessions.models import Message


class Command(BaseCommand):
    help = "Recompute a session's checksum chain and name the first message that does not match."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id")

    def handle(self, *args: Any, session_id: str, **options: Any) -> None:
        access = session_access(session_id, SYSTEM)
        if access is None:
            raise CommandError(f"no session {session_id}")
        session = access.session
        rows = Message.objects.filter(session=session).order_by("seq").values_list("seq", "envelope", "checksum")
        broken = first_break(str(session.pk), rows.iterator())
        if broken is not None:
            message = Message.objects.filter(session=session, seq=broken).first()
            name = message.message_id if message else "(missing)"
            raise CommandError(f"chain broken at message #{broken} {name}")
        last = rows.last()
        if session.head_seq and (last is None or last[2] != session.head_checksum):
            raise CommandError("the session's head checksum does not match its last message")
        self.stdout.write(f"ok: {session.head_seq} messages, head {session.head_checksum}")
