import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import Agent


class Command(BaseCommand):
    help = "Store measured capability profiles ({agent name: {figure: value}}, from bench/agents_eval.py --save)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a JSON file, or - for standard input")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            profiles = json.loads(sys.stdin.read() if file == "-" else Path(file).read_text())
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the profiles: {exc}") from None
        if not isinstance(profiles, dict) or not all(isinstance(p, dict) for p in profiles.values()):
            raise CommandError("the profiles must be a JSON object of objects: {agent name: {figure: value}}")
        for name, profile in profiles.items():
            updated = Agent.objects.filter(name=name).update(measured_profile=profile)
            self.stdout.write(f"{name}: {'stored' if updated else 'no such agent, skipped'}")
