"""A long session: what a fresh process spends to open it, and whether posts survive while it does.

    python bench/long_session.py [--messages 10000] [--small 200] [--agents 20] [--profile]
    (SQLite; DATABASE_URL=postgres://… and REDIS_URL=redis://… for PostgreSQL and Redis)

Two sessions of the realistic mix of bench/context_graph.py written through ``message_post`` (the
milestone checkpoints the write path adds included in the count), of ``--small`` and ``--messages``
messages. For each, a FRESH process signs in and opens the workspace page (the server loads the
session's context graph there): its resident memory growth (the peak, over the process as it was
after opening a three-message session), the page's time and size, then the page again warm. Then a
fresh Daphne serves the long session's page while ``--agents`` agents post over the agent socket:
every post must be acknowledged and stored exactly once. Targets (issue 41): at 10,000 messages the
memory growth under 500 MB, the page under 2 s, nothing lost; the ratios to the small session are
printed. ``--profile`` prints where the long page's time (cProfile) and memory (tracemalloc) go.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.context_graph import realistic_mix, setup_django, teardown_django  # noqa: E402
from bench.ws_fanout import SERVER_SECRET_KEY, free_port, percentile, start_server  # noqa: E402

MAX_GROWTH_MB = 500
MAX_PAGE_S = 2.0
POSTS_PER_AGENT = 5


def grow(owner: str, total: int):
    """A session of ``total`` messages (or one more: a milestone's checkpoint follows its message)."""
    from django.contrib.auth import get_user_model

    from agents.models import Agent
    from sessions.access import caller_for_agent, caller_for_user
    from sessions.log import message_post
    from sessions.membership import agent_join, session_create

    user = get_user_model().objects.create_user(owner, password="x")
    session = session_create(owner=user, title=owner)
    callers = {("human", "alice"): caller_for_user(user)}
    for name in ("planner", "analyst"):
        agent, _ = Agent.objects.get_or_create(name=name)
        agent_join(session=session, agent=agent)
        callers[("agent", name)] = caller_for_agent(agent)
    checksum, head = session.head_checksum, 0
    for message in realistic_mix(10**9):
        if head >= total:
            break
        caller = callers.get((message["sender"]["type"], message["sender"]["id"]), callers[("human", "alice")])
        message.update(session_id=str(session.pk), context_checksum=checksum, sender=caller.sender)
        ack = message_post(session_id=session.pk, caller=caller, envelope=message)
        checksum, head = ack.head, ack.seq + bool(ack.checkpoint_checksum)
    return session


def log_size(session) -> tuple[int, int]:
    """The log's envelopes in bytes (as the database returns them) and its checkpoints."""
    import json as _json

    rows = session.messages.values_list("envelope", flat=True).iterator(chunk_size=500)
    size = sum(len(_json.dumps(envelope)) for envelope in rows)
    return size, session.messages.filter(payload_type="checkpoint").count()


def open_fresh(session_id, warm_id, profile: bool) -> dict:
    """``--open`` in a new process: what opening the session's page costs there."""
    argv = [sys.executable, __file__, "--open", str(session_id), str(warm_id)] + (["--profile"] if profile else [])
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    *report, last = done.stdout.strip().splitlines()
    if report:
        print("\n".join(report))
    return json.loads(last)


def opened(session_id: str, warm_id: str, profile: bool) -> dict:
    """Runs in the fresh process: sign in, open a tiny session (imports, templates), then the session."""
    import resource

    import django
    import psutil

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from sessions.models import WorkSession

    session, warm = (WorkSession.objects.select_related("created_by").get(pk=pk) for pk in (session_id, warm_id))
    client = Client(SERVER_NAME="localhost")
    client.force_login(warm.created_by)
    assert client.get(reverse("workspace:detail", args=[warm_id])).status_code == 200
    client.force_login(session.created_by)
    before = psutil.Process().memory_info().rss
    url = reverse("workspace:detail", args=[session_id])
    profiler = None
    if profile:
        import cProfile
        import tracemalloc

        tracemalloc.start()
        profiler = cProfile.Profile()
        profiler.enable()
    started = time.perf_counter()
    queries = []

    def counted(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        page = client.get(url)
    cold = time.perf_counter() - started
    if profiler is not None:
        _print_profile(profiler)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started = time.perf_counter()
    client.get(url)
    warm = time.perf_counter() - started
    assert page.status_code == 200, page.status_code
    return {
        "cold_s": cold,
        "warm_s": warm,
        "bytes": len(page.content),
        "queries": len(queries),
        "growth_mb": (peak - before) / 2**20,
        "kept_mb": (psutil.Process().memory_info().rss - before) / 2**20,
    }


def _print_profile(profiler) -> None:
    import io
    import pstats
    import tracemalloc

    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(r"/(workspace|sessions|agents)/", 30)
    print(out.getvalue())
    for stat in tracemalloc.take_snapshot().statistics("lineno")[:12]:
        print(f"  {stat.size / 2**20:8.1f} MB {stat.count:>9} blocks {stat.traceback}")
    tracemalloc.stop()


def agents_for(session, count: int) -> list[tuple[str, str]]:
    """``count`` agents taking part in ``session``: (name, token)."""
    from agents.models import Agent
    from agents.tokens import token_issue
    from sessions.membership import agent_join

    made = []
    for n in range(count):
        agent = Agent.objects.create(name=f"poster{n}")
        agent_join(session=session, agent=agent)
        made.append((agent.name, token_issue(agent=agent)))
    return made


def page_cookie(session) -> str:
    from django.test import Client

    client = Client()
    client.force_login(session.created_by)
    return f"sessionid={client.cookies['sessionid'].value}"


async def post_while_loading(port: int, session, agents, cookie: str) -> dict:
    """The agents connect, the page is asked for (the server loads the graph), and each agent posts
    ``POSTS_PER_AGENT`` statuses meanwhile: acks and their latencies, the page's time."""
    from websockets.asyncio.client import connect

    sockets = [
        await connect(
            f"ws://127.0.0.1:{port}/ws/agents/", additional_headers={"Authorization": f"Bearer {token}"}, max_size=2**24
        )
        for _, token in agents
    ]
    for ws in sockets:
        assert json.loads(await ws.recv())["type"] == "hello"
    page = asyncio.create_task(asyncio.to_thread(_get_page, port, session.pk, cookie))
    await asyncio.sleep(0.05)  # the page's request is in: the agents post while the graph loads
    results = await asyncio.gather(
        *(_post(ws, name, session, i) for i, (ws, (name, _)) in enumerate(zip(sockets, agents, strict=True)))
    )
    page_s, page_status = await page
    for ws in sockets:
        await ws.close()
    acked = [message_id for result in results for message_id, _ in result["acked"]]
    return {
        "sent": sum(result["sent"] for result in results),
        "acked": acked,
        "latencies": [latency for result in results for _, latency in result["acked"]],
        "closed": [result["closed"] for result in results if result["closed"]],
        "page_s": page_s,
        "page_status": page_status,
    }


def _get_page(port: int, session_id, cookie: str) -> tuple[float, int]:
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}/sessions/{session_id}/", headers={"Cookie": cookie})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as answer:
        answer.read()
        return time.perf_counter() - started, answer.status


async def _post(ws, name: str, session, index: int) -> dict:
    """Post this agent's statuses one after the other, each waiting for its ack (as an agent does)."""
    from tests.sessions import envelopes

    acked, closed, sent = [], "", 0
    for n in range(POSTS_PER_AGENT):
        envelope = envelopes.envelope(
            "agent_status",
            {"activity": f"working {n}", "progress": {"done": n, "total": POSTS_PER_AGENT}},
            message_id=f"load-{name}-{n}",
            sender=("agent", name),
            session_id=session.pk,
            context_checksum=session.head_checksum,
        )
        started = time.perf_counter()
        try:
            await ws.send(json.dumps(envelope))
            sent += 1
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=300))
                if frame.get("type") == "ack" and frame.get("message_id") == envelope["message_id"]:
                    acked.append((envelope["message_id"], time.perf_counter() - started))
                    break
                if frame.get("type") == "error":
                    raise RuntimeError(frame)
        except Exception as error:  # a closed socket or a refusal: what was in flight is counted lost
            closed = f"{name}: {type(error).__name__} {error}"[:200]
            break
    return {"acked": acked, "closed": closed, "sent": sent}


def agents_run(session, count: int) -> dict:
    """A fresh Daphne, ``count`` agents posting while it loads ``session``: nothing may be lost."""
    import psutil

    from sessions.models import Message

    agents = agents_for(session, count)
    cookie = page_cookie(session)
    port = free_port()
    server = start_server(port, "workbench.asgi:application", DEBUG="1", ALLOWED_HOSTS="127.0.0.1,localhost")
    try:
        before = psutil.Process(server.pid).memory_info().rss
        result = asyncio.run(post_while_loading(port, session, agents, cookie))
        result["server_growth_mb"] = (psutil.Process(server.pid).memory_info().rss - before) / 2**20
    finally:
        server.kill()
        server.wait(timeout=30)
    stored = list(Message.objects.filter(session=session, message_id__startswith="load-").values_list("message_id"))
    result["stored"] = len(stored)
    result["stored_once"] = len({message_id for (message_id,) in stored}) == len(stored)
    return result


def run(args) -> int:
    from django.db import connection

    layer = "redis" if os.environ.get("REDIS_URL") else "in-memory"
    print(f"database: {connection.vendor}, {layer} layer")
    warm = grow("warmup", 3)
    found = {}
    for size in (args.small, args.messages):
        started = time.perf_counter()
        session = grow(f"long{size}", size)
        built = time.perf_counter() - started
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # what autovacuum does soon after such a burst (bench/history.py)
                cursor.execute("VACUUM ANALYZE chap_sessions_message")
        log_bytes, checkpoints = log_size(session)
        found[size] = r = open_fresh(session.pk, warm.pk, args.profile and size == args.messages)
        r["session"] = session
        print(
            f"{session.messages.count():>6} messages ({checkpoints} checkpoints, log {log_bytes / 2**20:7.1f} MB, "
            f"built in {built:6.1f} s) | fresh process: page {r['cold_s']:7.2f} s cold, {r['warm_s'] * 1e3:7.1f} ms "
            f"warm, {r['bytes'] / 1024:8.1f} KB, {r['queries']} queries, memory growth {r['growth_mb']:7.1f} MB "
            f"peak ({r['kept_mb']:.1f} MB kept)",
            flush=True,
        )
    small, large = found[args.small], found[args.messages]
    print(
        f"{args.messages} / {args.small}: page cold {large['cold_s'] / small['cold_s']:.1f}x, warm "
        f"{large['warm_s'] / small['warm_s']:.1f}x, size {large['bytes'] / small['bytes']:.1f}x, memory growth "
        f"{large['growth_mb'] / max(small['growth_mb'], 1):.1f}x"
    )
    posted = agents_run(large["session"], args.agents)
    lost = posted["sent"] - len(posted["acked"])
    safe = not lost and not posted["closed"] and posted["stored"] == len(posted["acked"]) and posted["stored_once"]
    once = "each once" if posted["stored_once"] else "SOME TWICE"
    print(
        f"{args.agents} agents x {POSTS_PER_AGENT} posts while a fresh Daphne loads the page: "
        f"{len(posted['acked'])} of {posted['sent']} acknowledged, {posted['stored']} stored ({once}), "
        f"ack p50 {percentile(posted['latencies'] or [0], 0.5) * 1e3:.0f} ms, max "
        f"{max(posted['latencies'] or [0]) * 1e3:.0f} ms | page {posted['page_s']:.2f} s ({posted['page_status']}) | "
        f"server memory growth {posted['server_growth_mb']:.0f} MB"
        + (f" | closed: {posted['closed'][:3]}" if posted["closed"] else "")
    )
    checks = [
        (f"memory growth at {args.messages} (MB)", large["growth_mb"], MAX_GROWTH_MB),
        (f"page cold at {args.messages} (s)", large["cold_s"], MAX_PAGE_S),
        ("posts lost or stored twice", 0 if safe else max(lost, 1), 0),
    ]
    ok = True
    for label, value, target in checks:
        ok &= value <= target
        print(f"{label}: {value:.2f} (target <= {target}) {'OK' if value <= target else 'MISSED'}")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--open", nargs=2, metavar=("SESSION", "WARM"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.open:
        print(json.dumps(opened(*args.open, args.profile)))
        return 0
    os.environ.setdefault("WORKBENCH_DATA_DIR", tempfile.mkdtemp(prefix="chap-long-"))
    os.environ["SECRET_KEY"] = SERVER_SECRET_KEY  # the server must read the sign-in made here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
    setup_django()
    try:
        return run(args)
    finally:
        teardown_django()


if __name__ == "__main__":
    sys.exit(main())
