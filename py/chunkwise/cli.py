"""Command line: python -m chunkwise [FILE ...] > chunks.jsonl"""
from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import textwrap
from pathlib import Path

from .corpus import arguments as corpus  # (corpus mode's options; its run, a process pool's imports, when asked for)
from .io import export
from .io import stats
from .argtypes import whole_number
from .about import CONTEXT_HELP, DEFAULTS, FORMATS, OVERLAP_RULE, OVERLAP_UNIT_HELP, describe
from .packing.packer import chunk_document
from .packing.settings import default_overlap
from .tokenizer.hf.files import register_file
from .code.languages import LANGUAGES, choose, resolve
from .types import CONTEXT_MODES, ENCODINGS, OVERLAP_UNITS
from .packing.strategies import STRATEGIES
from .presets import PRESETS, model_settings, truncation_warning
from .io.decode import check_encoding
from .documents import DocumentError, read_input

EXAMPLES = """\
examples:
  python -m chunkwise notes.md > notes.chunks.jsonl
  python -m chunkwise --max-tokens 256 --overlap 32 --strategy markdown docs/*.md -o chunks.jsonl
  cat app.log | python -m chunkwise --strategy lines --format text
  python -m chunkwise src/parser.py --max-tokens 256        # read as Python
  pbpaste | python -m chunkwise --language auto             # detect pasted code
"""


def epilog() -> str:
    """Examples, then the strategies and the record fields, as describe() states them."""
    d = describe()
    lines = [EXAMPLES, "strategies:"]
    for s in d["strategies"]:
        name = s["name"] + (" (default)" if s["name"] == d["defaults"]["strategy"] else "")
        body = textwrap.wrap(s["help"], 56)
        lines.append(f"  {name:<20}{body[0]}")
        lines += [" " * 22 + line for line in body[1:]]
    lines.append("In every strategy a piece that is still too big is split by `smart`")
    lines.append("(but langchain-recursive, LangChain's splitter as it is: its own recursion).")
    lines.append("A file whose extension names a language (.py, .ts, .go, .rs, .yaml...) is read")
    lines.append("as code: smart then cuts like `code`, chunks start at a line start (indentation")
    lines.append("kept), '#' comments are never headings, and headings is the definition path.")
    lines.append("")
    lines.append("models (--model NAME: its tokenizer, and --max-tokens what it embeds whole):")
    for m in d["models"]:
        lines.append(f"  {m['name']:<24}{m['max_input_tokens']} tokens ({m['special_tokens']} special): {m['label']}")
    lines.append("--tokenizer PATH counts in a Hugging Face tokenizer.json (WordPiece, BPE, Unigram);")
    lines.append("token_count leaves out the special tokens the model adds.")
    lines.append("")
    lines.append("boundary (why a chunk ends there): " + ", ".join(f"{b['name']} ({b['help']})" for b in d["boundaries"]) + ".")
    lines.append("")
    lines.append(
        "Each JSONL record: " + ", ".join(d["record_fields"]) + " (start and end are code point offsets"
        " into the input), and source (the file name, with several files)."
    )
    return "\n".join(textwrap.fill(line, 78, subsequent_indent="  ") if line.startswith(("boundary", "Each")) else line for line in lines) + "\n"


def _language(value: str) -> str:
    """An argparse type: a language name or alias, "text" or "auto"."""
    if value.strip().lower() == "auto":
        return "auto"
    try:
        return resolve(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


_positive = whole_number(1)
_non_negative = whole_number(0)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """One line on stderr and status 2, for arguments and files alike."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m chunkwise",
        description="Split documents into token-budgeted chunks for retrieval (RAG), with exact token counts.",
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files; - is standard input (the default)")
    parser.add_argument("--max-tokens", type=_positive, default=None, metavar="N",
                        help=f"budget per chunk, overlap included (default {DEFAULTS['max_tokens']},"
                        " or with --model what the model embeds whole)")
    parser.add_argument("--overlap", type=_non_negative, default=None, metavar="N",
                        help=f"tokens repeated from the previous chunk (default: {OVERLAP_RULE}: {default_overlap(DEFAULTS['max_tokens'])}"
                        f" for {DEFAULTS['max_tokens']})")
    parser.add_argument("--overlap-unit", choices=OVERLAP_UNITS, default=DEFAULTS["overlap_unit"],
                        help="where an overlap starts: " + "; ".join(
                            f"{name}: {OVERLAP_UNIT_HELP[name][1]}" for name in OVERLAP_UNITS
                        ) + f" (default {DEFAULTS['overlap_unit']})")
    parser.add_argument("--context", choices=CONTEXT_MODES, default=DEFAULTS["context"],
                        help="what each record adds to embed: " + "; ".join(
                            f"{name}: {CONTEXT_HELP[name][1]}" for name in CONTEXT_MODES
                        ) + f" (default {DEFAULTS['context']})")
    parser.add_argument("--parents", type=_positive, default=None, metavar="N",
                        help="also make parent chunks of N tokens (more than --max-tokens) by the same strategy;"
                        " the chunks tile them and name theirs in parent_id (small-to-big retrieval)")
    parser.add_argument("--strategy", choices=STRATEGIES, default=DEFAULTS["strategy"],
                        help=f"where cuts may fall (default {DEFAULTS['strategy']}; see below)")
    parser.add_argument("--encoding", choices=ENCODINGS, default=None,
                        help=f"tokenizer (default {DEFAULTS['encoding']}; chars counts characters)")
    parser.add_argument(
        "--language", type=_language, default=None, metavar="LANG",
        help="read the input as this language: " + ", ".join(LANGUAGES) + "; text for prose; auto to detect"
        " pasted code (default: from each file's extension, prose for standard input)",
    )
    parser.add_argument(
        "--input-encoding", metavar="ENC",
        help="read text files and standard input with this codec (cp1251, latin-1, utf-16-le, ...) instead of"
        " detecting UTF-8/16/32; auto: detect, and read a file that is not UTF-8 in its likely legacy codec"
        " (said on standard error); JSONL stays UTF-8",
    )
    parser.add_argument("--model", choices=list(PRESETS), metavar="NAME",
                        help="count in this embedding model's tokenizer and fit its limit (see models below)")
    parser.add_argument("--tokenizer", metavar="PATH",
                        help="count in a Hugging Face tokenizer.json (WordPiece, BPE, Unigram)")
    parser.add_argument("--format", choices=(*FORMATS, *(f for f in corpus.OUTPUT_FORMATS if f not in FORMATS)),
                        help=f"output format (default {DEFAULTS['format']}; parquet only in corpus mode)")
    parser.add_argument("--headers", action=argparse.BooleanOptionalAction,
                        help="with --format text: head each chunk with '--- Chunk n/N ---' ('... of FILE' with several"
                        " files), the default; --no-headers: the bare texts, a blank line apart")
    parser.add_argument("--stats", action="store_true", help="print the stats of each input to standard error as JSON")
    parser.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    parser.add_argument("--extract", action="store_true",
                        help="write the text that is chunked instead of chunks: a document's extracted text (HTML, PDF,"
                        " DOCX), a text file's decoded text; start and end index it")
    corpus.add_arguments(parser)
    return parser


def _display_name(path: str) -> tuple[str, bool]:
    """A file name as text: a name that is not valid UTF-8 (bytes the OS handed
    over as surrogate escapes) gets U+FFFD for each bad byte. True when replaced."""
    try:
        path.encode("utf-8")
        return path, False
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", errors="replace"), True


def _check_input(path: str) -> str | None:
    """Why this input cannot be read, or None. FIFOs, /dev/stdin and <(cmd) are read."""
    if path == "-":
        return None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return error.strerror or str(error)
    if stat.S_ISDIR(mode):
        return "is a directory"
    return None


def _check_output(path: str) -> str | None:
    """Why the output cannot be written there, or None (checked before any work)."""
    if os.path.isdir(path):
        return "is a directory"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"no such directory {_display_name(folder)[0]!r}"
    return None


def _read(path: str | None, encoding: str | None = None, language: str | None = None):
    """The text of one input, a note for stderr when something was assumed, replaced or
    extracted, and the Extracted document when it is one (HTML, PDF, DOCX: by its extension,
    else its first bytes; --language html keeps HTML as markup). DocumentError when it is
    neither text nor a document (an image, an executable) or the document cannot be read."""
    if path is None or path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return read_input(data, None if path == "-" else path, language=language, encoding=encoding)


def main(argv: list[str] | None = None) -> int:
    if sys.stderr is None:  # 2>&-: print(file=None) would write notes and --stats among the chunks on stdout
        sys.stderr = open(os.devnull, "w")
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (| head, | true): stop quietly, as Unix tools do.
        # Point stdout at devnull so the interpreter's final flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # A shell can start us with a standard stream closed (>&-, <&-): Python has None there.
    if sys.stdout is None and not args.output:
        parser.error("standard output is closed")
    if sys.stdin is None and (not args.files or "-" in args.files):
        parser.error("standard input is closed")
    if sum(x is not None for x in (args.encoding, args.model, args.tokenizer)) > 1:
        parser.error("choose one of --encoding, --model and --tokenizer")
    encoding, max_tokens = args.encoding or DEFAULTS["encoding"], args.max_tokens
    if args.model:
        encoding, max_tokens = model_settings(args.model, max_tokens)
    elif args.tokenizer is not None:
        if not args.tokenizer:  # (it named no file: the default encoding was used, silently)
            parser.error("--tokenizer needs the path of a tokenizer.json")
        try:
            encoding = register_file(Path(args.tokenizer))  # a path, even one that starts with "{"
        except ValueError as error:
            parser.error(f"--tokenizer {args.tokenizer}: {error}")
    if max_tokens is None:
        max_tokens = DEFAULTS["max_tokens"]
    args.encoding, args.max_tokens = encoding, max_tokens  # what corpus mode reads
    if corpus.wanted(args):
        if args.extract:
            parser.error("--extract applies to plain files, not corpus mode")
        if args.parents:
            parser.error("--parents applies to plain files; corpus mode's rows do not carry parents yet")
        from .corpus import run

        return run.main(args, parser)
    corpus.check(args, parser)
    args.format = args.format or DEFAULTS["format"]
    if args.headers is not None and args.format != "text":
        parser.error("--headers and --no-headers only apply to --format text")
    if args.input_encoding is not None:
        try:
            check_encoding(args.input_encoding)
        except ValueError as error:
            parser.error(f"--input-encoding: {error}")
    paths = args.files or [None]
    names = {}
    for path in args.files:
        name, replaced = _display_name(path)
        names[path] = name
        problem = _check_input(path)
        if problem:
            parser.error(f"cannot read {name!r}: {problem}")
        if replaced:
            print(f"chunkwise: the file name {name!r} is not valid UTF-8; its records name it with U+FFFD"
                  " for each invalid byte", file=sys.stderr)
    if args.output:
        problem = _check_output(args.output)
        if problem:
            parser.error(f"cannot write {_display_name(args.output)[0]!r}: {problem}")
    several = len(paths) > 1
    if args.extract and several:
        parser.error("--extract writes the text of one input: give one file")
    outputs, refused = [], 0
    for path in paths:
        name = "<stdin>" if path in (None, "-") else names[path]
        try:
            text, note, document = _read(path, args.input_encoding, args.language)
        except OSError as error:
            parser.error(f"cannot read {name!r}: {error.strerror or error}")
        except DocumentError as error:  # this input is left out; the others are chunked
            print(f"{parser.prog}: error: cannot read {name!r}: {error}" + ("; it is left out" if several else ""),
                  file=sys.stderr)
            refused += 1
            continue
        if note:
            print(f"chunkwise: {name}: {note}", file=sys.stderr)
        if args.extract:
            outputs.append(text)
            break
        # a document's text is Markdown now: prose, whatever its file name says
        language, why = (None, "a document") if document else choose(args.language, path, text)
        if args.language == "auto" and not document:
            print(f"chunkwise: {name}: read as {LANGUAGES[language].label if language else 'prose'} ({why})", file=sys.stderr)
        try:
            result = chunk_document(
                text, max_tokens=max_tokens, overlap=args.overlap, strategy=args.strategy, encoding=encoding,
                language=language or "text", overlap_unit=args.overlap_unit, context=args.context,
                parent_tokens=args.parents,
            )
        except ValueError as error:  # e.g. a preset's tokenizer file that is not on this machine
            parser.error(str(error))
        if document:
            result.chunks = document.with_pages(result.chunks)
            result.parents = document.with_pages(result.parents)
        if args.model:
            warning = truncation_warning(args.model, max_tokens, [c.token_count for c in result.chunks])
            if warning:
                result.warnings.append(warning)
        for warning in result.warnings:
            print(f"chunkwise: warning: {warning}", file=sys.stderr)
        if args.stats:
            print(json.dumps({"source": name, **stats.compute(result, args.model)}, ensure_ascii=False), file=sys.stderr)
        outputs.append((result.chunks, os.path.basename(name) if several else None, result.parents))
    if not outputs and refused:
        return 2
    if args.extract:
        body = outputs[0].encode("utf-8")
    else:
        body = export.render_many(outputs, args.format, headers=export.TEXT_HEADERS if args.headers is None else args.headers).encode("utf-8")
    if args.output:
        try:
            with open(args.output, "wb") as f:
                f.write(body)
        except OSError as error:
            parser.error(f"cannot write {_display_name(args.output)[0]!r}: {error.strerror or error}")
    else:
        try:
            sys.stdout.buffer.write(body)
            sys.stdout.flush()
        except BrokenPipeError:
            raise  # main() ends quietly
        except OSError as error:  # > /dev/full, a full disk: reported as -o reports it
            parser.error(f"cannot write to standard output: {error.strerror or error}")
    return 2 if refused else 0
