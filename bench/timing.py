"""The one timing rule of the benchmark: the best of several runs."""
from __future__ import annotations

import time


def best_of(fn, runs: int) -> float:
    """The shortest wall time of `runs` calls of fn, in seconds."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best
