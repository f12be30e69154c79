"""Corpus mode's outputs: OUT.incomplete renamed to OUT when the run is done, JSONL to a
file or straight to stdout, Parquet in row groups, the progress bar, and writes that a
Ctrl-C does not cut in half.
"""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys

from .inputs import display
from .worker import Done

ROW_GROUP_ROWS = 16_384  # chunk rows per Parquet row group in the output
INCOMPLETE = ".incomplete"


class Output:
    """Where -o writes: OUT.incomplete beside OUT, renamed to OUT when the run is done, so
    a file under the name asked for is always complete; a run that stops early (Ctrl-C, an
    error) leaves what it wrote under the .incomplete name. A path that is not a regular
    file (-o /dev/stdout, a FIFO) is written as it is."""

    def __init__(self, path: str):
        self.path = path
        try:
            special = not stat.S_ISREG(os.stat(path).st_mode)
        except OSError:  # not there yet (or not examinable: opening it will say)
            special = False
        # beside the file a symlink points to, which the rename then replaces
        self.target = None if special else os.path.realpath(path)
        self.name = path if special else self.target + INCOMPLETE  # what is opened
        if self.target and os.path.exists(self.target) and not os.access(self.target, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)  # a rename would replace it anyway

    def finish(self) -> None:
        if self.target is not None:
            os.replace(self.name, self.target)

    def partial(self) -> str:
        """Where the rows of a run that stopped early are, for the message."""
        return display(self.name if self.target is not None else self.path)


class JsonlWriter:
    """To a file, or straight to stdout's descriptor: a large buffered write to a
    pipe can return after part of it, and a closed pipe must be noticed at once."""

    def __init__(self, path: str | None):
        self.file = open(path, "wb") if path else None
        if self.file is None:
            sys.stdout.flush()
            self.fd = sys.stdout.fileno()

    def write(self, payload: bytes) -> None:
        if self.file:
            self.file.write(payload)
            return
        view = memoryview(payload)
        while view:
            view = view[os.write(self.fd, view) :]

    def close(self) -> None:
        if self.file:
            self.file.close()


class ParquetWriter:
    """Row groups of ROW_GROUP_ROWS chunk rows; the file's key-value metadata names
    the chunker too (every row also has it in its `chunker` column)."""

    def __init__(self, path: str, label: str):
        import pyarrow.parquet as pq

        from .rows import arrow_schema

        schema = arrow_schema().with_metadata({"chunkwise": label})
        self.writer = pq.ParquetWriter(path, schema)
        self.schema = schema
        self.pending, self.rows = [], 0

    def write(self, payload) -> None:
        if payload is None:
            return
        self.pending.append(payload)
        self.rows += payload.num_rows
        if self.rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.pending:
            self.writer.write_table(pa.Table.from_batches(self.pending, schema=self.schema), row_group_size=self.rows)
        self.pending, self.rows = [], 0

    def close(self) -> None:
        self._flush()
        self.writer.close()


class Progress:
    """A bar on stderr when it is a terminal and tqdm is installed: bytes read
    (so MB/s and the ETA), documents, chunks and failures."""

    def __init__(self, total: int | None):
        self.bar = None
        if not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1000, file=sys.stderr,
                        desc="chunkwise", dynamic_ncols=True, smoothing=0.1)

    def update(self, done: Done, docs: int, chunks: int, failed: int) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(f"{docs:,} docs, {chunks:,} chunks" + (f", {failed:,} failed" if failed else ""), refresh=False)
            self.bar.update(done.size)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the exit-time flush stays quiet."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def uninterrupted():
    """A Ctrl-C during the block takes effect at its end; a second one at once (a write
    to a pipe nobody reads may never end)."""
    caught = []

    def later(*_):
        if caught:
            raise KeyboardInterrupt
        caught.append(True)

    previous = signal.signal(signal.SIGINT, later)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
