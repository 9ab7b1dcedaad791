"""What a live message costs the open workspace pages, on a real Daphne: queries per page per message
and delivery latency, the page socket against a baseline in the same run.

    python bench/workspace_sockets.py [--pages 1 10 50] [--lengths 10 1000 10000] [--corrections 5]

For each session length (messages in the log) and each number N of open pages, N workspace sockets
(``/ws/sessions/<id>/ui/``, signed in as the owner, an editor and viewers) watch the session while its
owner posts corrections over the CHAP socket; each correction goes through the whole path (store,
broadcast, the agents' reactions and the messages they add). Reported: the queries the page sockets
ran per page per message (bench/fanout_asgi.py counts them in the server), and the p50/p99 time
from posting a correction to its fragment at every page. Baseline: the same pages on a socket that
renders the way the workspace socket did before issue 29 (each page reads the message back and
renders all of it for itself). Target (issue 29): at most 6 queries per page per message, at every
length. Uses the configured DATABASE_URL and REDIS_URL like bench/ws_fanout.py.
"""

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.context_graph import setup_django, teardown_django  # noqa: E402
from bench.ws_fanout import SERVER_SECRET_KEY, free_port, percentile, start_server  # noqa: E402

PAGE_SEQ = re.compile(r'id="page-seq" value="(\d+)"')
TARGET = 6
QUIET_S = 1.0  # a correction's reactions are over once the log has been still this long


def grown(length: int):
    """A session of ``length`` messages with a report to correct, its people and their cookies."""
    from django.test import Client

    from sessions.access import caller_for_user
    from tests.factories import agent_in, make_session, make_user, post_message
    from tests.sessions import envelopes

    owner, editor = make_user(), make_user()
    viewers = [make_user() for _ in range(3)]
    session = make_session(owner=owner, members={editor: "editor", **{v: "viewer" for v in viewers}})
    planner, analyst = agent_in(session, "planner"), agent_in(session, "analyst")
    post_message(session, caller_for_user(owner), envelopes.proposal)
    post_message(session, planner, envelopes.declaration)
    for n in range(max(0, length - 3)):
        post_message(session, analyst, envelopes.envelope, "summary", {"text": f"found {n}"})
    report = post_message(session, analyst, envelopes.response)
    cookies = []
    for person in [owner, editor, *viewers]:
        client = Client()
        client.force_login(person)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return session, report.message_id, owner.username, cookies


def head_of(session_id) -> int:
    from sessions.models import WorkSession

    return WorkSession.objects.values_list("head_seq", flat=True).get(pk=session_id)


def checksum_of(session_id) -> str:
    from sessions.models import WorkSession

    return WorkSession.objects.values_list("head_checksum", flat=True).get(pk=session_id)


async def watch(url: str, cookie: str, port: int, ready, seen: dict[int, float], done):
    """One page: the time each sequence number's fragment arrived."""
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"}
    try:
        ws = await connect(url, additional_headers=headers, max_size=2**24)
    except Exception as refused:
        ready.set_exception(refused)
        return
    async with ws:
        ready.set_result(None)
        async for raw in ws:
            found = PAGE_SEQ.search(raw)
            if found:
                seen[int(found.group(1))] = time.perf_counter()
                done.set()


async def corrections(port: int, page_url: str, world, pages: int, count: int):
    """Open ``pages`` pages, post ``count`` corrections: latencies to every page, messages delivered."""
    from asgiref.sync import sync_to_async
    from websockets.asyncio.client import connect

    session, target, owner, cookies = world
    loop = asyncio.get_running_loop()
    seen: list[dict[int, float]] = [{} for _ in range(pages)]
    readies = [loop.create_future() for _ in range(pages)]
    done = asyncio.Event()
    tasks = [
        asyncio.create_task(watch(page_url, cookies[n % len(cookies)], port, readies[n], seen[n], done))
        for n in range(pages)
    ]
    await asyncio.wait_for(asyncio.gather(*readies, *[t for t in tasks if t.done()]), timeout=60)
    latencies, first = [], await sync_to_async(head_of)(session.pk) + 1
    headers = {"Cookie": cookies[0], "Origin": f"http://127.0.0.1:{port}"}
    async with connect(f"ws://127.0.0.1:{port}/ws/sessions/{session.pk}/chap/", additional_headers=headers) as chap:
        hello = json.loads(await chap.recv())
        checksum = hello["context_checksum"]
        for n in range(count):
            envelope = correction(session.pk, target, owner, checksum, f"c{n}-{time.time_ns()}")
            sent = time.perf_counter()
            await chap.send(json.dumps(envelope))
            ack = await next_ack(chap)
            while not all(ack["seq"] in page for page in seen):
                done.clear()
                await asyncio.wait_for(done.wait(), timeout=60)
            latencies += [page[ack["seq"]] - sent for page in seen]
            head = await settled(session.pk)
            while not all(head in page for page in seen):
                done.clear()
                await asyncio.wait_for(done.wait(), timeout=60)
            checksum = await sync_to_async(checksum_of)(session.pk)
    for task in tasks:
        task.cancel()
    last = await sync_to_async(head_of)(session.pk)
    return latencies, (last - first + 1) * pages


async def next_ack(chap) -> dict:
    while True:
        frame = json.loads(await chap.recv())
        if frame.get("type") == "ack":
            return frame
        if frame.get("type") == "error":
            raise RuntimeError(frame)


async def settled(session_id) -> int:
    """The head once the log stopped growing (the correction's reactions have been stored)."""
    from asgiref.sync import sync_to_async

    head = await sync_to_async(head_of)(session_id)
    while True:
        await asyncio.sleep(QUIET_S)
        now = await sync_to_async(head_of)(session_id)
        if now == head:
            return head
        head = now


def correction(session_id, target: str, owner: str, checksum: str, message_id: str) -> dict:
    from tests.sessions import envelopes

    return envelopes.feedback(
        target,
        message_id=message_id,
        session_id=session_id,
        sender=("human", owner),
        context_checksum=checksum,
    )


def page_queries(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/queries/", timeout=10) as answer:
        return int(answer.read())


def measure(port: int, world, pages: int, count: int, path: str) -> tuple[float, float, float]:
    """(queries per page per message, p50 s, p99 s) of ``count`` corrections watched by ``pages``."""
    url = f"ws://127.0.0.1:{port}/{path.format(session=world[0].pk)}"
    before = page_queries(port)
    latencies, delivered = asyncio.run(corrections(port, url, world, pages, count))
    return (page_queries(port) - before) / delivered, percentile(latencies, 0.5), percentile(latencies, 0.99)


def run(args) -> bool:
    from django.db import connection

    ok = True
    port = free_port()
    os.environ["BENCH_PAGE_QUERIES"] = "1"
    server = start_server(port)
    try:
        layer = "redis" if os.environ.get("REDIS_URL") else "in-memory"
        print(f"{connection.vendor} + {layer} layer, one Daphne; {args.corrections} corrections a row")
        for length in args.lengths:
            world = grown(length)
            measure(port, world, 1, 1, "ws/sessions/{session}/ui/")  # the server's graph of the session, warm
            for pages in args.pages:
                live = measure(port, world, pages, args.corrections, "ws/sessions/{session}/ui/")
                old = measure(port, world, pages, args.corrections, "ws/bench/per-viewer/{session}/")
                ok &= live[0] <= TARGET
                print(
                    f"{length:>6} messages, {pages:>2} pages | page socket: {live[0]:5.2f} queries/page/message, "
                    f"p50 {live[1] * 1e3:6.1f} ms, p99 {live[2] * 1e3:6.1f} ms | per-page render: "
                    f"{old[0]:5.2f}, p50 {old[1] * 1e3:6.1f} ms, p99 {old[2] * 1e3:6.1f} ms | "
                    f"{'OK' if live[0] <= TARGET else 'MISSED'}"
                )
    finally:
        server.kill()
        server.wait(timeout=30)  # its database connections close before the database is dropped
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--lengths", type=int, nargs="+", default=[10, 1_000, 10_000])
    parser.add_argument("--corrections", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("WORKBENCH_DATA_DIR", tempfile.mkdtemp(prefix="chap-pages-"))
    os.environ["SECRET_KEY"] = SERVER_SECRET_KEY  # the server must read the sign-ins made here
    setup_django()
    try:
        ok = run(args)
    finally:
        teardown_django()
    print(
        f"at most {TARGET} queries per page per message at every length and number of pages: {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
