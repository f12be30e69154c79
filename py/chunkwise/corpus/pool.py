"""Corpus mode's worker pool: processes forked (or spawned) once, each with its own
RowMaker, fed tasks with a bounded number in flight, results given back in input order.
"""
from __future__ import annotations

import collections
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator

from .inputs import Task
from .worker import Done, Options, run_task, start_worker

IN_FLIGHT_PER_JOB = 3  # tasks queued or running per worker: enough to keep it busy


def _start_pool_worker(options: Options) -> None:
    # Ctrl-C reaches the whole process group: the main process stops the run and says how far
    # it got; a worker finishes its task quietly (else each printed a KeyboardInterrupt traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    start_worker(options)


class Workers:
    """The worker processes of a run (none for --jobs 1), started before this process
    reads anything. On Linux they are forked from it once it has built its Chunker, so
    each starts with the tokenizer loaded and the modules imported; forking first also
    means no thread of this process (pyarrow's, tqdm's) exists yet to be copied mid-lock.
    Elsewhere they are spawned and load their own."""

    def __init__(self, options: Options, jobs: int, method: str | None = None):
        start_worker(options)
        self.pool = None
        if jobs > 1:
            import multiprocessing

            method = method or ("fork" if sys.platform.startswith("linux") else "spawn")
            self.pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method),
                                            initializer=_start_pool_worker, initargs=(options,))
            self.pool.submit(int).result()  # a fork pool starts every process at its first task: now
        self.in_flight = IN_FLIGHT_PER_JOB * jobs

    def ordered_results(self, work: Iterator[Task]) -> Iterator[Done]:
        """run_task over every task, results in input order. With worker processes, at
        most in_flight tasks are pending, so neither the input nor the output piles up."""
        if self.pool is None:
            yield from map(run_task, work)
            return
        pending = collections.deque()
        for task in work:
            pending.append(self.pool.submit(run_task, task))
            if len(pending) >= self.in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
