"""A chart is drawn by a child process warmed up before it was asked for (vl-convert loaded, a tiny
chart drawn), each event loop keeping one such spare: still one process per chart, used once, under
the same limits; a spare that dies is replaced, and none outlives its event loop."""

import json
import os
import signal

import pytest
from asgiref.sync import async_to_sync

from tests.charts import NORMAL, SLOW
from workspace.charts import draw, spare_pid

# The spec that once stalled the server: an impute over a string stop, drawn here with no pre-check.
IMPUTE = NORMAL | {"transform": [{"impute": "cases", "key": "region", "keyvals": {"start": 0, "stop": "1e9"}}]}


def spec_of(chart):
    return json.dumps(chart).encode()


def gone(pid):
    """Whether the process is no more, reaped too: a zombie would still answer the signal."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_chart_drawn_right_after_another_gets_a_child_warmed_up_for_it():
    async def two_charts():
        first = await draw(spec_of(NORMAL))
        second = await draw(spec_of(NORMAL | {"title": "Second"}))
        return first, second, await spare_pid()

    first, second, spare = async_to_sync(two_charts)()
    assert not first.from_spare and ">north</text>" in first.svg  # a new event loop has no spare yet
    assert second.from_spare and ">Second</text>" in second.svg and ">north</text>" in second.svg
    assert spare is not None and gone(spare)  # one waited for a third chart, and ended with its event loop


def test_a_killed_spare_is_replaced_and_the_next_chart_still_draws():
    async def kill_the_spare():
        await draw(spec_of(NORMAL))
        killed = await spare_pid()
        os.kill(killed, signal.SIGKILL)
        after = await draw(spec_of(NORMAL | {"title": "After"}))
        replaced = await spare_pid()
        return killed, after, replaced, await draw(spec_of(NORMAL | {"title": "Then"}))

    killed, after, replaced, then = async_to_sync(kill_the_spare)()
    assert ">After</text>" in after.svg and after.final and not after.from_spare  # a new child drew it
    assert replaced not in (None, killed)
    assert then.from_spare and ">Then</text>" in then.svg


@pytest.mark.parametrize(
    ("chart", "cpu_s"),
    [(IMPUTE, 5), (SLOW, 1)],
    ids=["out of memory or CPU time", "past its CPU time, within every bound"],
)
def test_a_warm_spare_still_refuses_a_spec_that_spins_or_blows_memory(settings, chart, cpu_s):
    """The CPU limit bounds the drawing itself, not the warm-up before it."""
    settings.CHART_RENDER_CPU_S, settings.CHART_RENDER_TIMEOUT_S = cpu_s, 300  # the child's limits decide

    async def hostile_on_a_spare():
        await draw(spec_of(NORMAL))
        await spare_pid()
        return await draw(spec_of(chart))

    outcome = async_to_sync(hostile_on_a_spare)()
    assert outcome.from_spare and outcome.too_large and outcome.final and not outcome.svg
    assert outcome.reason == "drawing it ran out of memory or CPU time."


def test_a_child_that_cannot_even_warm_up_leaves_the_chart_to_be_drawn_again(settings):
    settings.CHART_RENDER_MEMORY_MB = 16  # too little for V8 to start: the machine's doing, not the spec's
    outcome = async_to_sync(draw)(spec_of(NORMAL))
    assert not outcome.final and not outcome.too_large and not outcome.svg
    assert outcome.reason == "the drawing process ended before it read the spec."
