"""The timing rules of the benchmark: the best of several runs, and for two
things compared with each other, runs in turns."""
from __future__ import annotations

import statistics
import time


def best_of(fn, runs: int) -> float:
    """The shortest wall time of `runs` calls of fn, in seconds."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def times_in_turns(fns: dict, runs: int) -> dict[str, list[float]]:
    """Each function's wall times (seconds) over `runs` turns, every other turn in
    reverse order. Timed in blocks (all of one, then all of the other), the same
    code measured up to 12% slower in the second block on a busy machine (CPython,
    1 MB); in turns each side sees the same conditions. What a call returns is
    freed after its timing."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    items = list(fns.items())
    for turn in range(runs):
        for name, fn in reversed(items) if turn % 2 else items:
            started = time.perf_counter()
            kept = fn()
            times[name].append(time.perf_counter() - started)
            del kept
    return times


def paired_ratio(times: dict[str, list[float]], base: str, other: str) -> float:
    """The median over turns of other's time / base's time: steadier than a ratio
    of two best-ofs when the machine's load moves more than the difference."""
    return statistics.median(b / a for a, b in zip(times[base], times[other]))
