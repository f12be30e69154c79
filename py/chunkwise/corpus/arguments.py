"""Corpus mode's command-line options: their argparse types, whether a command line asks
for corpus mode, and the output format it asks for.
"""
from __future__ import annotations

import argparse
import glob
import os

from ..argtypes import whole_number
from .inputs import display, input_kind
from .rows import ID_FIELD, TEXT_FIELD

OUTPUT_FORMATS = ("jsonl", "parquet")
MAX_JOBS = 256  # a process each: more than this is a typo, not a machine


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
    group.add_argument("--jobs", metavar="N", type=whole_number(1, MAX_JOBS), help="worker processes (default: every core)")
    group.add_argument("--max-chars", metavar="N", type=whole_number(1), help="a longer document becomes an error row instead of chunks")
    group.add_argument("--language-field", metavar="NAME", type=_field_name,
                       help="JSONL/Parquet field naming each document's language (python, Go...) or file name (src/a.py);"
                            " where it is missing or unknown, --language decides")


def _field_name(value: str) -> str:
    """An argparse type: a record's field name. An empty one would find nothing (it fell back to the default)."""
    if not value:
        raise argparse.ArgumentTypeError("must name a field, not an empty string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # bytes the OS handed over as surrogate escapes: no JSON key or column is that
        raise argparse.ArgumentTypeError(f"{display(value)!r} is not valid UTF-8") from None
    return value


CORPUS_ONLY = ("id_field", "text_field", "jobs", "max_chars", "language_field")


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command line asks for corpus mode."""
    if args.corpus or args.format == "parquet" or (args.output and input_kind(args.output) == "parquet"):
        return True
    for path in args.files:
        if input_kind(path) != "text" or os.path.isdir(path) or (glob.has_magic(path) and not os.path.exists(path)):
            return True
    return False


def check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Outside corpus mode, corpus options are a mistake worth saying."""
    for name in CORPUS_ONLY:
        if getattr(args, name) is not None:
            parser.error(f"--{name.replace('_', '-')} applies to corpus mode (a .jsonl or .parquet input, a directory, a pattern, or --corpus)")


def output_format(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    fmt = args.format or (input_kind(args.output) if args.output and input_kind(args.output) != "text" else "jsonl")
    if fmt not in OUTPUT_FORMATS:
        parser.error(f"corpus mode writes jsonl or parquet, not {fmt}")
    if args.headers is not None:
        parser.error("--headers and --no-headers only apply to --format text")
    if args.stats:
        parser.error("--stats applies to plain files; corpus mode ends with a summary on standard error")
    if fmt == "parquet" and not args.output:
        parser.error("Parquet output needs a file: -o OUT.parquet")
    return fmt
