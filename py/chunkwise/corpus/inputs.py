"""Corpus mode's inputs: the files a command line names (directories walked, patterns
expanded, FIFOs found by a walk skipped), each file's kind, and the whole input cut into
tasks of whole lines, Parquet rows or files, read lazily in the main process.
"""
from __future__ import annotations

import argparse
import glob
import os
import stat
import sys
from typing import Iterator, NamedTuple

TASK_BYTES = 1 << 20  # input per task: big enough to amortize the hand-over, small enough to bound memory
TASK_DOCS = 512
PARQUET_BATCH_ROWS = 256  # documents read from a Parquet input at a time
STDIN = "-"


def input_kind(path: str) -> str:
    """jsonl, parquet or text, from the extension."""
    lower = path.lower()
    if lower.endswith(".jsonl"):
        return "jsonl"
    if lower.endswith(".parquet"):
        return "parquet"
    return "text"


class Source(NamedTuple):
    kind: str  # jsonl, parquet or text
    path: str  # STDIN for standard input


def display(path: str) -> str:
    """A path as text that can be written: undecodable bytes of a file name as \\x.. escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _special(path: str) -> str | None:
    """What a path found in a directory or by a pattern is when it is not a regular file
    nor a directory: a FIFO, a socket or a device. None for a path that cannot be
    examined: reading it gives its error row."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"


def _files(paths: list[str]) -> list[str]:
    """The regular files among paths found by walking or matching. A FIFO, socket or
    device is skipped with a note: it may never end (or never start) and nobody named
    it; a path named on the command line is read whatever it is (<(zcat docs.gz))."""
    kept = []
    for path in paths:
        if what := _special(path):
            print(f"chunkwise: skipped {display(path)!r}: {what}, not a regular file", file=sys.stderr)
        elif not os.path.isdir(path):
            kept.append(path)
    return kept


def sources(paths: list[str], parser: argparse.ArgumentParser) -> list[Source]:
    """Every input file, in order: directories walked (sorted, hidden names skipped),
    patterns expanded (sorted); each file's kind from its extension."""
    found = []
    for path in paths or [STDIN]:
        if path == STDIN:
            found.append(Source("jsonl", STDIN))
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [Source(input_kind(f), f) for f in _files([os.path.join(root, f) for f in sorted(files) if not f.startswith(".")])]
        elif os.path.exists(path):
            found.append(Source(input_kind(path), path))
        elif glob.has_magic(path):
            matches = _files(sorted(glob.glob(path, recursive=True)))
            if not matches:
                parser.error(f"no file matches {display(path)!r}")
            found += [Source(input_kind(p), p) for p in matches]
        else:
            parser.error(f"cannot read {display(path)!r}: no such file")
    return found


class Task(NamedTuple):
    """Work for one worker call: a slice of one input, read in the main process."""

    kind: str  # jsonl (bytes: whole lines), parquet (a record batch), text (paths)
    source: str
    first: int  # line or row number of the first item (1-based)
    items: object
    size: int  # input bytes this task stands for (for the progress bar)


def line_blocks(stream, read_bytes: int = TASK_BYTES, most_lines: int = TASK_DOCS) -> Iterator[bytes]:
    """The stream in blocks of whole lines: `most_lines` lines or about `read_bytes`, whichever
    is less (the last block may lack its final newline). Only newlines are looked for here."""
    parts = []  # bytes read that do not end a line yet
    while block := stream.read(read_bytes):
        if b"\n" not in block:  # inside a line longer than a block
            parts.append(block)
            continue
        data, parts, start = b"".join([*parts, block]), [], 0
        while end := _lines_end(data, start, most_lines):
            yield data[start:end]
            start = end
        if start < len(data):
            parts.append(data[start:])
    if parts:
        yield b"".join(parts)


def _lines_end(data: bytes, start: int, most_lines: int) -> int:
    """Just after the `most_lines`-th newline from `start`, or after the last one; 0 when none."""
    end = start
    for _ in range(most_lines):
        found = data.find(b"\n", end)
        if found < 0:
            break
        end = found + 1
    return end if end > start else 0


class ReadError(Exception):
    """An input that cannot be read on (a read error, a file that is not Parquet): the run ends, naming it."""


def _jsonl_tasks(source: str) -> Iterator[Task]:
    name = "standard input" if source == STDIN else repr(display(source))
    try:
        stream = sys.stdin.buffer if source == STDIN else open(source, "rb")
    except OSError as error:
        raise ReadError(f"cannot read {name}: {error.strerror or error}") from None
    try:
        first = 1
        for lines in line_blocks(stream):
            yield Task("jsonl", source, first, lines, len(lines))
            first += lines.count(b"\n")
    except OSError as error:  # a read error names no file: say which input
        raise ReadError(f"cannot read {name}: {error.strerror or error}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _parquet_tasks(source: str) -> Iterator[Task]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(source) as parquet:
            total_rows = parquet.metadata.num_rows or 1
            file_size = os.path.getsize(source)
            first = 1
            for batch in parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS):
                yield Task("parquet", source, first, batch, file_size * batch.num_rows // total_rows)
                first += batch.num_rows
    except (OSError, pa.ArrowException) as error:  # not Parquet, a corrupt page, a schema nested too deeply
        raise ReadError(f"cannot read {display(source)!r}: {getattr(error, 'strerror', None) or error}") from None


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def tasks(found: list[Source]) -> Iterator[Task]:
    """The whole input as tasks, lazily: one input file is open at a time."""
    paths, size = [], 0
    for source in found:
        if source.kind == "text":
            paths.append(source.path)
            size += _size(source.path)
            if size >= TASK_BYTES or len(paths) >= TASK_DOCS:
                yield Task("text", "", 0, paths, size)
                paths, size = [], 0
            continue
        if paths:
            yield Task("text", "", 0, paths, size)
            paths, size = [], 0
        yield from (_jsonl_tasks if source.kind == "jsonl" else _parquet_tasks)(source.path)
    if paths:
        yield Task("text", "", 0, paths, size)


def total_size(found: list[Source]) -> int | None:
    if any(s.path == STDIN for s in found):
        return None
    return sum(_size(s.path) for s in found)

