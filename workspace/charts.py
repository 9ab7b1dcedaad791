"""Charts drawn off the request path: a page names a chart by its spec's hash, and the chart's own
URL draws it in a process of its own, once, under a CPU, memory and wall-clock limit.

The spec (once checked by ``chart_bounds``) and what became of it are kept by that hash in the data
directory, which every server process shares: ``<hash>.json`` the spec, ``<hash>.svg`` the drawing,
``<hash>.refused.json`` why it was not drawn. So a spec planted in a stored message costs at most
one bounded drawing, whoever views it and however often. A chart's URL carries an HMAC of the
session and the hash, so it draws only on the pages of a session whose page showed it.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import os
import sys
import tempfile
import weakref
from dataclasses import dataclass, replace
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from sessions.access import SessionId
from workspace.live import Once

TOO_LARGE = "Chart too large to draw — its data is in the table above."
_MAC_SALT = "workspace.charts"


@dataclass(frozen=True)
class Outcome:
    """What drawing a spec came to: its SVG, or the reason it was not drawn (too large, or a notice)."""

    svg: str = ""
    reason: str = ""
    too_large: bool = False
    final: bool = True  # kept for good; not so after a wall-clock kill on a busy machine
    from_spare: bool = False  # drawn by a child warmed up before it was asked for (never kept)

    def image(self) -> str:
        """The drawing, or an image that says why there is none (a page already showing the chart's
        ``<img>`` learns it there; the next render of the page shows the plain figure instead)."""
        if self.svg:
            return self.svg
        said = TOO_LARGE if self.too_large else "Chart not drawn."
        lines = "".join(
            f'<text x="12" y="{24 + 20 * row}">{html.escape(text)}</text>'
            for row, text in enumerate((said, self.reason))
        )
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="560" height="64" font-family="sans-serif" '
            f'font-size="13" fill="#555"><rect width="100%" height="100%" fill="#fff" stroke="#ccc"/>{lines}</svg>'
        )


def chart_key(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def chart_url(session_id: SessionId, key: str) -> str:
    return reverse("workspace:chart", args=[session_id, key, _mac(session_id, key)])


def chart_mac_matches(session_id: SessionId, key: str, mac: str) -> bool:
    return constant_time_compare(mac, _mac(session_id, key))


def _mac(session_id: SessionId, key: str) -> str:
    return salted_hmac(_MAC_SALT, f"{session_id}:{key}").hexdigest()[:32]


def _store() -> Path:
    return Path(settings.DATA_DIR) / "charts"


def remember_spec(key: str, source: str) -> None:
    """Keep the spec for its chart's URL (written once, whole: a reader never sees half a file)."""
    if not (_store() / f"{key}.json").exists():
        _write(f"{key}.json", source)


def stored_outcome(key: str) -> Outcome | None:
    """What drawing the spec came to, if it has been drawn."""
    drawn, refused = _store() / f"{key}.svg", _store() / f"{key}.refused.json"
    if drawn.exists():
        return Outcome(svg=drawn.read_text())
    if refused.exists():
        return Outcome(**json.loads(refused.read_text()))
    return None


async def chart_outcome(key: str) -> Outcome | None:
    """The chart's outcome, drawn now if it never was (None: no such spec was ever shown)."""
    outcome = stored_outcome(key)
    if outcome is not None:
        return outcome
    spec = _store() / f"{key}.json"
    if not spec.exists():
        return None
    result: Outcome = await _drawings.get(key, lambda: _draw_and_keep(key, spec.read_bytes()))
    return result


_drawings = Once(size=256)
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


async def _draw_and_keep(key: str, spec: bytes) -> Outcome:
    loop = asyncio.get_running_loop()
    slots = _slots.setdefault(loop, asyncio.Semaphore(settings.CHART_RENDERS_AT_ONCE))
    async with slots:
        kept = stored_outcome(key)  # another process may have drawn it meanwhile
        outcome = kept or await draw(spec)
    if kept or not outcome.final:
        return outcome
    if outcome.svg:
        _write(f"{key}.svg", outcome.svg)
    else:
        _write(f"{key}.refused.json", json.dumps({"reason": outcome.reason, "too_large": outcome.too_large}))
    return outcome


async def draw(spec: bytes) -> Outcome:
    """Draw in a child process of its own under the configured limits: this event loop's spare,
    warmed up since the chart before (``_Child``), else a new one. A child that dies (out of memory,
    past its CPU time) means the chart is too large, for good; one still running at the wall-clock
    limit is killed too, but only a busy machine gets there before the CPU limit, so that spec is
    drawn again next time. A spare that died before it read the spec (killed, crashed) tells nothing
    of the spec: a new child draws it. The next spare starts once this chart is drawn, so that its
    warm-up never takes a core from the chart someone waits for."""
    timeout = settings.CHART_RENDER_TIMEOUT_S
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    spare = _spares.pop(loop, None)
    try:
        drawn = await spare.draw(spec, deadline) if spare else None
        if drawn is None:  # no spare, or it died before it read the spec
            spare, drawn = None, await (await _Child.start()).draw(spec, deadline)
        outcome = replace(_outcome(drawn), from_spare=spare is not None)
    except TimeoutError:
        outcome = Outcome(reason=f"drawing it took over {timeout:g} s.", too_large=True, final=False)
    if loop not in _spares:
        new = await _Child.start()
        if _spares.setdefault(loop, new) is not new:  # another chart started one meanwhile
            new.task.cancel()
    return outcome


def _outcome(drawn: tuple[int, bytes] | None) -> Outcome:
    if drawn is None:  # a new child that died before the spec: the machine's doing, not the spec's
        return Outcome(reason="the drawing process ended before it read the spec.", final=False)
    returncode, output = drawn
    if returncode != 0:
        return Outcome(reason="drawing it ran out of memory or CPU time.", too_large=True)
    answer = json.loads(output)
    return Outcome(svg=answer["svg"]) if "svg" in answer else Outcome(reason=answer["error"])


class _Child:
    """One drawing's child process (``workspace.chart_process``), started before its spec is known: it
    loads vl-convert and draws a tiny chart, then waits on stdin. Each chart still gets a process of
    its own, used once. From its start on, the child's life is one task, which kills and reaps it
    however that ends (drawn, killed at the wall clock, the event loop ending while it waits), so no
    spare outlives its event loop or is left a zombie; if the server dies, its stdin closes and it ends."""

    def __init__(self, child: asyncio.subprocess.Process) -> None:
        self.loop, self.child = asyncio.get_running_loop(), child
        self.spec: asyncio.Future[bytes] = self.loop.create_future()
        self.warm: asyncio.Future[int | None] = self.loop.create_future()  # its pid once warm; None if it died
        self.task = self.loop.create_task(self._life())
        self.task.add_done_callback(self._ended)

    @classmethod
    async def start(cls) -> _Child:
        """Awaited by ``draw()`` itself, never in a task of its own nor under a timeout: Python 3.11
        waits for good on a child whose pipes were still connecting when its task was cancelled (an
        event loop ending cancels every task)."""
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "workspace.chart_process",
            str(settings.CHART_RENDER_MEMORY_MB),
            str(settings.CHART_RENDER_CPU_S),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=settings.BASE_DIR,
        )
        return cls(child)

    async def draw(self, spec: bytes, deadline: float) -> tuple[int, bytes] | None:
        self.spec.set_result(spec)
        async with asyncio.timeout_at(deadline):
            return await self.task

    async def _life(self) -> tuple[int, bytes] | None:
        """Its exit status and its answer; None if it ended before it read a spec."""
        child = self.child
        try:
            assert child.stdout is not None
            if await child.stdout.readline() != b"ready\n":
                return None
            self.warm.set_result(child.pid)
            output, _ = await child.communicate(await self.spec)
            said, _, answer = output.partition(b"\n")
            return (await child.wait(), answer) if said == b"drawing" else None
        finally:
            if not self.warm.done():
                self.warm.set_result(None)
            if child.returncode is None:
                child.kill()
            await child.wait()

    def _ended(self, _: asyncio.Task[tuple[int, bytes] | None]) -> None:
        """Off the spares; and killed, if the task was cancelled before it began (so its ``finally``
        never ran: the child watcher still reaps it)."""
        if _spares.get(self.loop) is self:
            del _spares[self.loop]
        if self.child.returncode is None:
            self.child.kill()


_spares: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Child] = weakref.WeakKeyDictionary()


async def spare_pid() -> int | None:
    """The process id of this event loop's spare once it has warmed up; None if there is none or it
    died warming up. The tests and the benchmark wait for the spare here."""
    spare = _spares.get(asyncio.get_running_loop())
    return None if spare is None else await asyncio.shield(spare.warm)


def _write(name: str, text: str) -> None:
    store = _store()
    store.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=store, delete=False, suffix=".part", encoding="utf-8") as part:
        part.write(text)
    os.replace(part.name, store / name)
