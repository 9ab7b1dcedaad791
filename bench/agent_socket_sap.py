"""The agent socket while SAP requests run: how long a ping takes to be answered on an idle connection,
and on the same connection while as many slow SAP requests as it may run at once are running (each
waits inside an operation until the bench lets it finish), through the ASGI application in this process.

    python bench/agent_socket_sap.py [--pings 300]

Reported: p50/p99 of the ping round trip, idle and busy (idle and busy rounds interleaved, so drift hits
both), and busy/idle. Target (issue 38): at most 1.5x at p50 — the requests run beside the connection on
threads of their own. Before issue 38 the socket awaited each request inline, so a ping sent while one
ran was answered only once it ended (up to CHAP_SAP_MAX_SECONDS). Uses DATABASE_URL and REDIS_URL like
the other benchmarks (a database of its own, dropped afterwards).
"""

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.context_graph import setup_django, teardown_django  # noqa: E402
from bench.ws_fanout import percentile  # noqa: E402

TARGET = 1.5
ROUNDS = 6
PACE_S = 0.025  # between pings, under the socket's rate limit (CHAP_WS_RATE_PER_S, 50 a second)


class Held:
    """test.hold: an operation that runs until the bench lets it finish."""

    def __init__(self) -> None:
        self.free = threading.Event()
        self.running = threading.Semaphore(0)

    def hold(self, call, params):
        self.running.release()
        self.free.wait(600)
        return {"held": call.block.id}


def register(held: Held) -> None:
    from agents import sap_service
    from agents.operations.registry import workbench_registry
    from agents.sap.registry import Operation, Registry

    operation = Operation("test.hold", "query", "Runs until the bench lets it finish.", held.hold)
    sap_service.workbench_registry = lambda: Registry([*workbench_registry(), operation])


async def until(socket, kind: str) -> dict:
    while True:
        frame = await socket.receive_json_from(timeout=60)
        if frame["type"] == kind:
            return frame
        if frame["type"] == "error":
            raise RuntimeError(f"waiting for {kind}: {frame['error']}")


async def pings(socket, count: int) -> list[float]:
    times = []
    for n in range(count):
        started = time.perf_counter()
        await socket.send_json_to({"type": "ping", "ref": f"p{n}"})
        await until(socket, "pong")
        times.append(time.perf_counter() - started)
        await asyncio.sleep(PACE_S)
    return times


async def measure(token: str, session_id: str, held: Held, count: int) -> tuple[list[float], list[float]]:
    from channels.testing import WebsocketCommunicator

    from agents.consumers import MAX_SAP_IN_FLIGHT
    from agents.sap.blocks import format_block
    from workbench.asgi import application

    socket = WebsocketCommunicator(application, "/ws/agents/", headers=[(b"authorization", f"Bearer {token}".encode())])
    await socket.connect()
    await until(socket, "hello")
    idle: list[float] = []
    busy: list[float] = []
    await pings(socket, 20)  # warm: connections opened, code paths run once
    for round_ in range(ROUNDS):
        idle += await pings(socket, count // ROUNDS)
        held.free.clear()
        for n in range(MAX_SAP_IN_FLIGHT):
            text = format_block("query", "test.hold", {}, f"r{round_}x{n}")
            await socket.send_json_to({"type": "sap", "ref": f"r{round_}x{n}", "session_id": session_id, "text": text})
        for _ in range(MAX_SAP_IN_FLIGHT):
            await asyncio.to_thread(held.running.acquire)
        busy += await pings(socket, count // ROUNDS)
        held.free.set()
        for _ in range(MAX_SAP_IN_FLIGHT):
            await until(socket, "sap.result")
    await socket.disconnect()
    return idle, busy


def run(count: int) -> int:
    from asgiref.sync import async_to_sync

    from tests.people import clerk_world

    world = clerk_world(allowed_operations=["test.*"])
    held = Held()
    register(held)
    idle, busy = async_to_sync(measure)(world["token"], str(world["session"].pk), held, count)
    held.free.set()
    ratio = percentile(busy, 0.5) / percentile(idle, 0.5)
    print(f"pings: {len(idle)} idle, {len(busy)} while the connection's SAP requests run")
    for name, times in (("idle", idle), ("busy", busy)):
        print(f"  {name}: p50 {percentile(times, 0.5) * 1000:.2f} ms, p99 {percentile(times, 0.99) * 1000:.2f} ms")
    print(f"busy/idle at p50: {ratio:.2f}x (target <= {TARGET}x)")
    return 0 if ratio <= TARGET else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pings", type=int, default=300)
    args = parser.parse_args()
    setup_django()
    try:
        return run(args.pings)
    finally:
        teardown_django()


if __name__ == "__main__":
    sys.exit(main())
