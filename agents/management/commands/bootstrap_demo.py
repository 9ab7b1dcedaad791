import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from agents.behaviours.registry import builtin_agents_ensure
from agents.demo import demo_seed
from sessions.models import WorkSession

DEMO_USERNAME = "demo"


class Command(BaseCommand):
    help = (
        "Create the built-in agents, the demo user and a demo session of real work when missing; print how to sign in."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="where the workbench will be served")

    def handle(self, *args: Any, url: str, **options: Any) -> None:
        credentials = settings.DATA_DIR / "demo-credentials.txt"
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            # A fresh random password per installation: nothing guessable ships in the repo.
            password = secrets.token_urlsafe(12)
            user = User.objects.create_superuser(DEMO_USERNAME, email="", password=password)
            credentials.write_text(f"{DEMO_USERNAME}\n{password}\n")
            credentials.chmod(0o600)
        builtins = builtin_agents_ensure()
        if not WorkSession.objects.exists():
            session = demo_seed(owner=user, agents=builtins)
            self.stdout.write(f"The demo session {session.title!r} holds {session.head_seq} messages of real work.")
        if credentials.exists():
            username, password = credentials.read_text().split()[:2]
            self.stdout.write(f"Sign in at {url} as {username!r} with password {password!r}")
        else:
            self.stdout.write(f"The demo user {DEMO_USERNAME!r} already existed; its password was not set here.")
