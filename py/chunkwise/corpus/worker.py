"""The work of one corpus task, in a worker process or in the main one: each document
parsed (a JSONL line, a Parquet row, a file), chunked into rows, and the rows rendered to
output bytes (JSONL) or a record batch (Parquet); a document that cannot be costs only itself.
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

from .inputs import STDIN, Task, display
from .rows import TOO_DEEP, Doc, RowMaker, RowSettings, error_row, file_doc, jsonl_line, to_arrow


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
        name = "standard input" if task.source == STDIN else display(task.source)
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
        name = display(task.source)
        for number, doc in enumerate(maker.table_docs(task.items), task.first):
            yield doc, f"row {number} of {name}"
    else:
        for path in task.items:
            doc_id = display(path)
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
