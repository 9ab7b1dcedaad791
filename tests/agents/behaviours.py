"""Behaviours for the worker fault tests (CHAP_BEHAVIOURS=slow=tests.agents.behaviours.slow,…)."""

import time


def slow(run):
    """Posts a first part, works for a while (the window to kill its worker in), then finishes."""
    run.post("part1", "summary", {"text": f"part 1 of task {run.task.pk}"})
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline:
        run.check()
        time.sleep(0.1)
    run.post("part2", "summary", {"text": f"part 2 of task {run.task.pk}"})
    return run.post("result", "summary", {"text": f"task {run.task.pk} done"})


def quick(run):
    time.sleep(0.1)
    return run.post("result", "summary", {"text": f"task {run.task.pk} done"})


def broken(run):
    """A behaviour with a bug: it reads a column the data does not have."""
    return {"radius": 1.0}["mean_area"]


def timing_out(run):
    """A behaviour whose model never answers in time (a failure a retry may pass)."""
    from agents.runtime import TaskFailure
    from protocol.errors import ProtocolError

    raise TaskFailure(ProtocolError("TIMEOUT", "the model did not answer within 180 seconds"))
