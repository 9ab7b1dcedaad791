import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from protocol.errors import ProtocolError
from sessions.membership import session_import


class Command(BaseCommand):
    help = "Load a session export (GET /api/sessions/<id>/export/) after verifying its checksum chain."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--owner", required=True, help="username who will own the imported session")

    def handle(self, *args: Any, file: str, owner: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"no user {owner!r}")
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
            session = session_import(data=data, owner=user)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except ProtocolError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        self.stdout.write(f"imported {session.pk}: {session.head_seq} messages, chain verified")
