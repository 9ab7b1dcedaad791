"""Best-of timings for the benchmarks: the minimum is the run least disturbed by a noisy machine."""

import time


def best(repeat: int, fn) -> float:
    return best_interleaved(repeat, fn)[0]


def best_interleaved(repeat: int, *fns) -> list[float]:
    """The best time of each of ``fns``, run in turn: drift on a noisy machine hits them alike."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, kept in zip(fns, times, strict=True):
            started = time.perf_counter()
            fn()
            kept.append(time.perf_counter() - started)
    return [min(kept) for kept in times]
