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

Here: the run itself (main). Its parts: arguments.py (the options), inputs.py
(files and tasks), worker.py (one task's work), pool.py (the processes),
writers.py (the output, the progress bar); rows.py (what a document's rows hold).
"""
from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures.process import BrokenProcessPool

from ..io.decode import check_encoding
from ..tokenizer.hf.files import registered_files
from .arguments import OUTPUT_FORMATS, add_arguments, check, output_format, wanted  # the CLI's hooks, with main
from .inputs import TASK_BYTES, ReadError, display, input_kind, sources, tasks, total_size
from .pool import Workers
from .rows import ID_FIELD, TEXT_FIELD, RowMaker, RowSettings
from .worker import Options
from .writers import JsonlWriter, Output, ParquetWriter, Progress, silence_stdout, uninterrupted

SHOWN_FAILURES = 10  # failed documents named on stderr (all of them are in the output)


def main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    fmt = output_format(args, parser)
    if args.input_encoding is not None:
        try:
            check_encoding(args.input_encoding)
        except ValueError as error:
            parser.error(f"--input-encoding: {error}")
    if fmt == "parquet" or any(input_kind(p) == "parquet" for p in args.files):
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:  # not imported yet: its threads would be forked
            parser.error("Parquet needs pyarrow: pip install 'chunkwise[parquet]'")
    settings = RowSettings(
        max_tokens=args.max_tokens, overlap=args.overlap, strategy=args.strategy, encoding=args.encoding,
        overlap_unit=args.overlap_unit, context=args.context, id_field=args.id_field or ID_FIELD, text_field=args.text_field or TEXT_FIELD,
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
    total = total_size(found)
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
        parser.error(f"cannot write {display(args.output)!r}: {error.strerror}")
    progress = Progress(total)
    docs = chunks = failed = nonfinite = 0
    shown = []
    status, code = None, 1
    try:
        for done in workers.ordered_results(tasks(found)):
            with uninterrupted():  # so the counts say what the output holds
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
        silence_stdout()
        return 1
    except BrokenProcessPool:
        status = "a worker process died (out of memory?)"
    except ReadError as error:
        status = str(error)
    except OSError as error:
        status = f"cannot write {repr(display(args.output)) if args.output else 'to standard output'}: {error.strerror or error}"
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
