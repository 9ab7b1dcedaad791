import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.models import Agent
from agents.scheduling.leases import DEFAULT_LEASE_S
from agents.worker import Worker, default_worker_name


class Command(BaseCommand):
    help = "Run the tasks of built-in agents; start several, on several machines, to share the queue."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default=None, help="this worker's name in leases (default host:pid)")
        parser.add_argument("--agent", action="append", default=None, metavar="NAME", help="only these agents")
        parser.add_argument("--lease", type=float, default=DEFAULT_LEASE_S, help="lease length in seconds")
        parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks at an empty queue")
        parser.add_argument("--once", action="store_true", help="run until no task is ready, then exit")

    def handle(
        self,
        *args: Any,
        name: str | None,
        agent: list[str] | None,
        lease: float,
        poll: float,
        once: bool,
        **options: Any,
    ) -> None:
        if lease <= 0 or poll <= 0:
            raise CommandError("--lease and --poll must be positive")
        agent_ids = None
        if agent:
            found = dict(Agent.objects.filter(name__in=agent).values_list("name", "pk"))
            missing = sorted(set(agent) - set(found))
            if missing:
                raise CommandError(f"no agent {', '.join(missing)}")
            agent_ids = list(found.values())
        worker = Worker(name or default_worker_name(), lease_s=lease, agent_ids=agent_ids)
        self.stderr.write(
            f"worker {worker.name}: lease {lease:g} s, agents {', '.join(agent) if agent else 'all built-in'}"
        )
        if once:
            count = 0
            while worker.run_once():
                count += 1
            self.stdout.write(f"{count} task(s) run")
            return
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        worker.run_forever(stop, poll_s=poll)
