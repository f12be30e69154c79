"""Corpus mode of the command line: many documents in, chunk rows out, on every core.

Inputs: JSONL (one JSON object per line), Parquet (one row per document), and
text files, given as paths, directories (walked, sorted) or glob patterns; a
text file's path is its id. Output: JSONL or Parquet rows (see corpus/rows.py).

The main process only finds where tasks begin and writes what they give back.
It cuts the input into tasks of whole lines, rows or files (at most about a
megabyte; a task is the same whatever --jobs is); worker processes (each with
one Chunker: forked after the tokenizer is loaded, or loading it once) parse,
chunk and serialize a task to output bytes, and the results are written in
input order with a bounded number of tasks in flight: the output is the same
bytes for any --jobs, and memory does not grow with the corpus.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import errno
import glob
import os
import signal
import stat
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Iterator, NamedTuple

from ..tokenizer.hf.files import registered_files
from ..code.languages import choose
from .rows import ID_FIELD, TEXT_FIELD, TOO_DEEP, Doc, RowMaker, RowSettings, error_row, file_doc, jsonl_line, to_arrow
from ..io.decode import check_encoding, decode_strict

OUTPUT_FORMATS = ("jsonl", "parquet")
TASK_BYTES = 1 << 20  # input per task: big enough to amortize the hand-over, small enough to bound memory
TASK_DOCS = 512
PARQUET_BATCH_ROWS = 256  # documents read from a Parquet input at a time
ROW_GROUP_ROWS = 16_384  # chunk rows per Parquet row group in the output
IN_FLIGHT_PER_JOB = 3  # tasks queued or running per worker: enough to keep it busy
MAX_JOBS = 256  # a process each: more than this is a typo, not a machine
SHOWN_FAILURES = 10  # failed documents named on stderr (all of them are in the output)
STDIN = "-"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "corpus mode",
        "used when an input is a .jsonl or .parquet file, a directory or a glob pattern, when the output"
        " is Parquet, or with --corpus; each record gains doc_id, chunk_id, metadata and chunker",
    )
    group.add_argument("--corpus", action="store_true", help="corpus mode for plain text files too (standard input is read as JSONL)")
    group.add_argument("--id-field", metavar="NAME", type=_field_name,
                       help=f"JSONL/Parquet field holding the document id (default {ID_FIELD})")
    group.add_argument("--text-field", metavar="NAME", type=_field_name,
                       help=f"JSONL/Parquet field holding the text (default {TEXT_FIELD})")
    group.add_argument("--jobs", metavar="N", type=_whole(MAX_JOBS), help="worker processes (default: every core)")
    group.add_argument("--max-chars", metavar="N", type=_whole(None), help="a longer document becomes an error row instead of chunks")
    group.add_argument("--language-field", metavar="NAME", type=_field_name,
                       help="JSONL/Parquet field naming each document's language (python, Go...) or file name (src/a.py);"
                            " where it is missing or unknown, --language decides")


def _whole(most: int | None):
    """An argparse type: a whole number from 1 to `most`."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value[:40]!r}") from None
        if number < 1:
            raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
        if most is not None and number > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}")
        return number

    return parse


def _field_name(value: str) -> str:
    """An argparse type: a record's field name. An empty one would find nothing (it fell back to the default)."""
    if not value:
        raise argparse.ArgumentTypeError("must name a field, not an empty string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # bytes the OS handed over as surrogate escapes: no JSON key or column is that
        raise argparse.ArgumentTypeError(f"{_display(value)!r} is not valid UTF-8") from None
    return value


CORPUS_ONLY = ("id_field", "text_field", "jobs", "max_chars", "language_field")


def _kind(path: str) -> str:
    lower = path.lower()
    if lower.endswith(".jsonl"):
        return "jsonl"
    if lower.endswith(".parquet"):
        return "parquet"
    return "text"


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command line asks for corpus mode."""
    if args.corpus or args.format == "parquet" or (args.output and _kind(args.output) == "parquet"):
        return True
    for path in args.files:
        if _kind(path) != "text" or os.path.isdir(path) or (glob.has_magic(path) and not os.path.exists(path)):
            return True
    return False


def check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Outside corpus mode, corpus options are a mistake worth saying."""
    for name in CORPUS_ONLY:
        if getattr(args, name) is not None:
            parser.error(f"--{name.replace('_', '-')} applies to corpus mode (a .jsonl or .parquet input, a directory, a pattern, or --corpus)")


# -- inputs -----------------------------------------------------------------------
class Source(NamedTuple):
    kind: str  # jsonl, parquet or text
    path: str  # STDIN for standard input


def _display(path: str) -> str:
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
            print(f"chunkwise: skipped {_display(path)!r}: {what}, not a regular file", file=sys.stderr)
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
                found += [Source(_kind(f), f) for f in _files([os.path.join(root, f) for f in sorted(files) if not f.startswith(".")])]
        elif os.path.exists(path):
            found.append(Source(_kind(path), path))
        elif glob.has_magic(path):
            matches = _files(sorted(glob.glob(path, recursive=True)))
            if not matches:
                parser.error(f"no file matches {_display(path)!r}")
            found += [Source(_kind(p), p) for p in matches]
        else:
            parser.error(f"cannot read {_display(path)!r}: no such file")
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
    name = "standard input" if source == STDIN else repr(_display(source))
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
        raise ReadError(f"cannot read {_display(source)!r}: {getattr(error, 'strerror', None) or error}") from None


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


def _total_size(found: list[Source]) -> int | None:
    if any(s.path == STDIN for s in found):
        return None
    return sum(_size(s.path) for s in found)


# -- the work of one task (in a worker process, or in this one) -----------------
class Options(NamedTuple):
    rows: RowSettings  # what decides the rows (as ChunkRows takes it)
    fmt: str
    input_encoding: str | None = None  # --input-encoding: the codec of text files (JSON is UTF-8)


_state: dict = {}


def start_worker(options: Options) -> None:
    """Each worker builds its RowMaker (so loads the tokenizer) once."""
    _state["maker"] = RowMaker(options.rows)
    _state["options"] = options


def _docs(task: Task, maker: RowMaker, options: Options) -> Iterator[tuple[Doc, str]]:
    """Each document of a task, with where it came from (for messages)."""
    import json

    if task.kind == "jsonl":
        name = "standard input" if task.source == STDIN else _display(task.source)
        for number, line in enumerate(task.items.split(b"\n"), task.first):
            if not line.strip():  # a blank line, or the end of the block after its last newline
                continue
            where = f"line {number} of {name}"
            try:
                record = json.loads(line)
            except UnicodeDecodeError as error:
                yield Doc(None, None, {}, f"not valid UTF-8 (byte {error.start} of the line)"), where
                continue
            except ValueError as error:
                yield Doc(None, None, {}, f"not JSON: {error}"), where
                continue
            except RecursionError:  # deeper than the metadata may nest anyway
                yield Doc(None, None, {}, TOO_DEEP), where
                continue
            yield maker.doc(record), where
    elif task.kind == "parquet":
        name = _display(task.source)
        for number, doc in enumerate(maker.table_docs(task.items), task.first):
            yield doc, f"row {number} of {name}"
    else:
        for path in task.items:
            doc_id = _display(path)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as error:
                yield Doc(doc_id, None, {}, f"cannot read: {error.strerror}"), doc_id
                continue
            # as plain mode reads it: HTML, PDF and DOCX extracted; text as --language, else its extension says
            yield file_doc(doc_id, data, path, language=options.rows.language, encoding=options.input_encoding), doc_id


class Done(NamedTuple):
    """What a task produced: the rendered rows and what to count."""

    payload: object  # JSONL as UTF-8 bytes, or a pyarrow RecordBatch (None when no rows)
    docs: int
    chunks: int
    failures: list  # (where, doc_id, reason)
    size: int
    nonfinite: int = 0  # documents with NaN or Infinity in their metadata (written as null)


def run_task(task: Task) -> Done:
    maker, options = _state["maker"], _state["options"]
    made = []  # (rows, doc, where) of each document
    for doc, where in _docs(task, maker, options):
        if doc.error is not None and doc.doc_id is None:
            doc = doc._replace(error=f"{where}: {doc.error}")  # the row says where the record is
        made.append((maker.rows(doc), doc, where))
    # rendered here, not in the main process; a document that cannot be costs only itself
    payload = (_jsonl if options.fmt == "jsonl" else _arrow)(made, maker.label)
    failures = [(where, doc.doc_id, rows[0]["error"]) for rows, doc, where in made if rows and rows[0]["error"] is not None]
    chunks = sum(len(rows) for rows, _, _ in made) - len(failures)
    return Done(payload, len(made), chunks, failures, task.size, sum(doc.nonfinite > 0 for _, doc, _ in made))


def _unwritable(made: list, i: int, label: str, error: Exception) -> None:
    """The i-th document's rows could not be rendered: one error row instead, without the
    metadata (the likeliest cause). Nothing known reaches here; it is the last guard."""
    _, doc, where = made[i]
    reason = f"its rows cannot be written: {type(error).__name__}: {error}".encode("utf-8", "backslashreplace").decode()
    made[i] = ([error_row(doc._replace(metadata={}), label, reason)], doc, where)


def _jsonl(made: list, label: str) -> bytes:
    parts = []
    for i, (rows, _, _) in enumerate(made):
        try:
            parts.append("".join(map(jsonl_line, rows)).encode("utf-8"))
        except Exception as error:
            _unwritable(made, i, label, error)
            parts.append(jsonl_line(made[i][0][0]).encode("utf-8"))
    return b"".join(parts)


def _arrow(made: list, label: str):
    if not any(rows for rows, _, _ in made):
        return None
    try:
        return to_arrow([row for rows, _, _ in made for row in rows])
    except Exception:  # find the documents Arrow refuses: one at a time only then (it is slower)
        for i, (rows, _, _) in enumerate(made):
            try:
                to_arrow(rows)
            except Exception as error:
                _unwritable(made, i, label, error)
        return to_arrow([row for rows, _, _ in made for row in rows])


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


# -- outputs ------------------------------------------------------------------------
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
        return _display(self.name if self.target is not None else self.path)


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


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the exit-time flush stays quiet."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def _uninterrupted():
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


def _output_format(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    fmt = args.format or (_kind(args.output) if args.output and _kind(args.output) != "text" else "jsonl")
    if fmt not in OUTPUT_FORMATS:
        parser.error(f"corpus mode writes jsonl or parquet, not {fmt}")
    if args.headers:
        parser.error("--headers only applies to --format text")
    if args.stats:
        parser.error("--stats applies to plain files; corpus mode ends with a summary on standard error")
    if fmt == "parquet" and not args.output:
        parser.error("Parquet output needs a file: -o OUT.parquet")
    return fmt


def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    fmt = _output_format(args, parser)
    if args.input_encoding is not None:
        try:
            check_encoding(args.input_encoding)
        except ValueError as error:
            parser.error(f"--input-encoding: {error}")
    if fmt == "parquet" or any(_kind(p) == "parquet" for p in args.files):
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:  # not imported yet: its threads would be forked
            parser.error("Parquet needs pyarrow: pip install 'chunkwise[parquet]'")
    settings = RowSettings(
        max_tokens=args.max_tokens, overlap=args.overlap, strategy=args.strategy, encoding=args.encoding,
        overlap_unit=args.overlap_unit, id_field=args.id_field or ID_FIELD, text_field=args.text_field or TEXT_FIELD,
        max_chars=args.max_chars, language=args.language, language_field=args.language_field,
        tokenizer_files=registered_files(),  # --tokenizer's file, registered by cli.py
    )
    options = Options(settings, fmt, args.input_encoding)
    try:
        maker = RowMaker(settings)  # settings checked (and the tokenizer loaded) once, here
    except ValueError as error:
        parser.error(str(error))
    for message in maker.chunker.adjustments:
        print(f"chunkwise: warning: {message}", file=sys.stderr)
    found = sources(args.files, parser)
    total = _total_size(found)
    jobs = args.jobs or os.cpu_count() or 1
    if total is not None:  # a small input is not worth a process per core
        jobs = min(jobs, 1 + total // TASK_BYTES)
    workers = Workers(options, jobs)  # first: before this process has threads
    try:
        output = Output(args.output) if args.output else None
        name = output.name if output else None
        writer = ParquetWriter(name, maker.label) if fmt == "parquet" else JsonlWriter(name)
    except OSError as error:
        workers.close()
        parser.error(f"cannot write {_display(args.output)!r}: {error.strerror}")
    progress = Progress(total)
    docs = chunks = failed = nonfinite = 0
    shown = []
    status, code = None, 1
    try:
        for done in workers.ordered_results(tasks(found)):
            with _uninterrupted():  # so the counts say what the output holds
                writer.write(done.payload)
                docs, chunks, failed = docs + done.docs, chunks + done.chunks, failed + len(done.failures)
            nonfinite += done.nonfinite
            shown += done.failures[: SHOWN_FAILURES - len(shown)]
            progress.update(done, docs, chunks, failed)
        writer.close()
        if output:
            output.finish()
    except KeyboardInterrupt:
        status, code = "interrupted", 130
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        _silence_stdout()
        return 1
    except BrokenProcessPool:
        status = "a worker process died (out of memory?)"
    except ReadError as error:
        status = str(error)
    except OSError as error:
        status = f"cannot write {repr(_display(args.output)) if args.output else 'to standard output'}: {error.strerror or error}"
    except Exception as error:  # a bug outside one document's chunking: say it, no traceback
        status = f"internal error: {type(error).__name__}: {error}"
    finally:
        progress.close()
        workers.close()
    if status:
        try:
            writer.close()  # keep what was written readable (a Parquet file needs its footer)
        except Exception:
            pass
        where = f", in {output.partial()!r}" if output else " to standard output"
        print(f"chunkwise: {status}; the output is incomplete: {_counted(docs, 'document')} ({_counted(chunks, 'chunk')})"
              f" written{where}", file=sys.stderr)
        return code
    for where, doc_id, reason in shown:
        print(f"chunkwise: {reason}" if doc_id is None else f"chunkwise: {where} (id {doc_id!r}): {reason}", file=sys.stderr)
    if failed > len(shown):
        print(f"chunkwise: ... and {failed - len(shown)} more (every failed document is an error row in the output)", file=sys.stderr)
    if nonfinite:
        print(f"chunkwise: warning: {_counted(nonfinite, 'document')} had NaN or Infinity in their metadata:"
              " written as null (JSON has neither)", file=sys.stderr)
    print(f"chunkwise: {_counted(docs, 'document')}, {_counted(chunks, 'chunk')}, {failed:,} failed", file=sys.stderr)
    return 1 if failed else 0


def _counted(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"
