"""Fan-out through the full CHAP path against a bare Channels group broadcast, same server and layer.

    python bench/ws_fanout.py [--subscribers 50] [--messages 600] [--rate 30]

One sender and N subscribers on one session. Full path: the sender posts CHAP envelopes (validate,
store, chain, graph, broadcast after commit); every subscriber receives each as a message frame.
Baseline: the same frames relayed by a consumer that only does group_send. Two phases each:
saturation (the sender keeps up to 8 frames in flight) for messages/s, and a fixed offered rate for
send-to-receipt latency at every subscriber (p50/p99). Targets (issue 29): full-path throughput at
least 0.8x the bare one, full-path p99 at most 1.5x the bare p99. Uses the configured DATABASE_URL and
REDIS_URL (a fresh data directory, and a fresh PostgreSQL database when DATABASE_URL is set).
"""

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.context_graph import setup_django, teardown_django  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SERVER_SECRET_KEY = "bench-" + "x" * 40


def start_server(port: int, app: str = "bench.fanout_asgi:application", **overrides: str) -> subprocess.Popen:
    """A Daphne serving ``app`` on ``port``; ``overrides`` go into its environment last."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": SERVER_SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "CHAP_WS_RATE_PER_S": "100000",
        "CHAP_WS_BURST": "100000",
        "LOG_LEVEL": "WARNING",
        **overrides,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90  # a busy machine takes a while to import the workbench
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("daphne did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run_phase(url: str, headers: dict, subscribers: int, messages: int, make_frame, *, rate=None, acked=False):
    """Returns (messages/s until every subscriber had every message, latencies in seconds)."""
    from websockets.asyncio.client import connect

    sent_at: dict[str, float] = {}
    latencies: list[float] = []
    done = asyncio.Event()
    remaining = {"count": subscribers * messages}

    async def subscribe(ready):
        async with connect(url, additional_headers=headers, max_size=2**22) as ws:
            ready.set_result(None)
            async for raw in ws:
                frame = json.loads(raw)
                key = frame.get("envelope", {}).get("message_id") if acked else frame.get("id")
                if key in sent_at:
                    latencies.append(time.perf_counter() - sent_at[key])
                    remaining["count"] -= 1
                    if remaining["count"] == 0:
                        done.set()

    tasks, readies = [], []
    for _ in range(subscribers):
        ready = asyncio.get_running_loop().create_future()
        readies.append(ready)
        tasks.append(asyncio.create_task(subscribe(ready)))
    await asyncio.gather(*readies)
    await asyncio.sleep(0.5)
    window = asyncio.Semaphore(8)
    async with connect(url, additional_headers=headers, max_size=2**22) as sender:
        if acked:
            await sender.recv()  # hello

        async def read_acks():
            async for raw in sender:
                if json.loads(raw).get("type") in ("ack", "error"):
                    window.release()

        reader = asyncio.create_task(read_acks()) if acked else None
        started = time.perf_counter()
        for n in range(messages):
            key = f"b{n}-{time.time_ns()}"
            if acked:
                await window.acquire()
            sent_at[key] = time.perf_counter()
            await sender.send(json.dumps(make_frame(key)))
            if rate:
                await asyncio.sleep(max(0.0, started + (n + 1) / rate - time.perf_counter()))
        await asyncio.wait_for(done.wait(), timeout=300)
        elapsed = time.perf_counter() - started
        if reader:
            reader.cancel()
    for task in tasks:
        task.cancel()
    return messages / elapsed, latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=50)
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--rate", type=float, default=30.0, help="offered messages/s in the latency phase")
    args = parser.parse_args()
    os.environ.setdefault("WORKBENCH_DATA_DIR", tempfile.mkdtemp(prefix="chap-fanout-"))
    setup_django()
    server = None
    try:
        from django.db import connection

        from agents.tokens import token_issue
        from sessions.membership import agent_join
        from tests.factories import make_agent, make_session
        from tests.sessions import envelopes

        session = make_session(title="fan-out")
        agent = make_agent("sender")
        agent_join(session=session, agent=agent)
        headers = {"Authorization": f"Bearer {token_issue(agent=agent)}"}
        genesis = session.head_checksum
        port = free_port()
        server = start_server(port)
        layer = "redis" if os.environ.get("REDIS_URL") else "in-memory"
        print(f"{connection.vendor} + {layer} layer, one Daphne; {args.subscribers} subscribers")
        chap_url = f"ws://127.0.0.1:{port}/ws/sessions/{session.pk}/chap/"
        bare_url = f"ws://127.0.0.1:{port}/ws/bench/bare/"

        def chap_frame(key):
            return envelopes.envelope(
                "summary",
                {"text": "fan-out " + "x" * 200},
                message_id=key,
                sender=("agent", "sender"),
                session_id=session.pk,
                context_checksum=genesis,
            )

        def bare_frame(key):
            return {"id": key, "text": "fan-out " + "x" * 200}

        results = {}
        for name, url, make, acked in (("bare", bare_url, bare_frame, False), ("chap", chap_url, chap_frame, True)):
            throughput, _ = asyncio.run(run_phase(url, headers, args.subscribers, args.messages, make, acked=acked))
            count = int(args.rate * 10)
            _, latencies = asyncio.run(
                run_phase(url, headers, args.subscribers, count, make, rate=args.rate, acked=acked)
            )
            results[name] = (throughput, percentile(latencies, 0.5), percentile(latencies, 0.99))
            print(
                f"{name:>4}: {throughput:7.1f} messages/s to all | at {args.rate:.0f}/s: p50 "
                f"{results[name][1] * 1e3:6.1f} ms, p99 {results[name][2] * 1e3:6.1f} ms"
            )
        ratio = results["chap"][0] / results["bare"][0]
        p99 = results["chap"][2] / results["bare"][2]
        ok = ratio >= 0.8 and p99 <= 1.5
        print(
            f"full path / bare: throughput {ratio:.2f}x (target >= 0.8), p99 {p99:.2f}x (target <= 1.5) "
            f"{'OK' if ok else 'MISSED'}"
        )
        return 0 if ok else 1
    finally:
        if server is not None:
            server.kill()
        teardown_django()


if __name__ == "__main__":
    sys.exit(main())
