"""Real processes on the test database (Daphne servers, agent workers, manage.py) and what a client of
them sends, for browser and end-to-end tests."""

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

import psutil
import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
# CI runs the SQLite and PostgreSQL suites side by side on two cores: a server starting among them is slow.
START_SECONDS = 90


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def child_env(**overrides: str) -> dict[str, str]:
    """The environment for a child process: ours, without the browser tests' async override."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {**env, **overrides}


def database_url_of_test_db() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = quote(db["USER"]) + (":" + quote(db["PASSWORD"]) if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_for(condition, timeout=60, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class ChildProcess:
    """A child process of the test on the test database, its stderr in a file (a pipe nobody reads
    fills up, and then the child blocks on its own logging)."""

    name = "child"

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.log = None

    def spawn(self, argv: list[str], **env: str) -> None:
        self._drop_log()
        self.log = tempfile.NamedTemporaryFile(prefix=f"{self.name}-", suffix=".log", delete=False)  # noqa: SIM115 - open for the child's whole life
        environment = child_env(
            DATABASE_URL=database_url_of_test_db(), WORKBENCH_DATA_DIR=str(settings.DATA_DIR), DEBUG="1", **env
        )
        self.process = subprocess.Popen(argv, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=self.log)

    def log_text(self) -> str:
        return Path(self.log.name).read_text()[-3000:] if self.log else ""

    def kill(self) -> None:
        """SIGKILL: the process dies mid-step, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._report_errors()
        self._drop_log()

    def _report_errors(self) -> None:
        """The child's errors on the test's stderr: pytest shows them beside a failure, and only then."""
        text = self.log_text()
        if "Traceback" in text or " ERROR " in text:
            sys.stderr.write(f"--- the last of {self.name}'s log ---\n{text}\n")

    def _drop_log(self) -> None:
        if self.log is not None:
            self.log.close()
            Path(self.log.name).unlink(missing_ok=True)
            self.log = None


class DaphneServer(ChildProcess):
    def __init__(self, port: int | None = None, **env: str):
        super().__init__()
        self.env = env
        self.port = port or free_port()
        self.name = f"daphne-{self.port}"
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> "DaphneServer":
        limit = str(settings.DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE)  # as the README runs it
        argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        argv += ["--websocket-max-message-size", limit, "--websocket-max-frame-size", limit]
        argv.append("workbench.asgi:application")
        self.spawn(argv, **self.env)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"daphne did not start listening within {START_SECONDS} s")


class WorkerProcess(ChildProcess):
    """``manage.py run_agents`` as its own process."""

    def __init__(self, name: str, *, lease_s: float = 2.0, **env: str):
        super().__init__()
        self.name, self.lease_s, self.env = name, lease_s, env

    def start(self) -> "WorkerProcess":
        argv = [
            sys.executable,
            "manage.py",
            "run_agents",
            "--name",
            self.name,
            "--lease",
            str(self.lease_s),
            "--poll",
            "0.1",
        ]
        self.spawn(argv, **self.env)
        return self


def scale_configured() -> bool:
    """Several servers share one log only through PostgreSQL and Redis."""
    return connection.vendor == "postgresql" and bool(os.environ.get("REDIS_URL"))


requires_scale = pytest.mark.skipif(
    not scale_configured(), reason="several servers need DATABASE_URL=postgres://… and REDIS_URL (see .ci/run)"
)


def signed_in(user) -> str:
    """The Cookie header of a browser signed in as ``user`` (the session lives in the shared database)."""
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def ws_url(server):
    return server.url.replace("http://", "ws://")


async def open_socket(server, path, **headers):
    socket = await websockets.connect(ws_url(server) + path, additional_headers=headers)
    return socket


def run_manage(*args, **env):
    """``manage.py args`` in a fresh process, with ``env`` over our environment."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


class PeakMemory:
    """The peak growth of a process's resident memory over a ``with`` block, sampled every 10 ms."""

    def __init__(self, pid: int):
        self.process = psutil.Process(pid)
        self.baseline = self.peak = self.process.memory_info().rss
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.01)

    def __enter__(self):
        self._sampler.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._sampler.join()

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.baseline) / (1024 * 1024)


def generated(total: int, piece=1024 * 1024, digest=None):
    """``total`` bytes of CSV-like text, generated a piece at a time (never whole in this process)."""
    row = b"north,1234.5,2024-01-01,some words to fill the line\n"
    block = (row * (piece // len(row) + 1))[:piece]
    sent = 0
    while sent < total:
        chunk = block[: min(piece, total - sent)]
        if digest is not None:
            digest.update(chunk)
        sent += len(chunk)
        yield chunk
