"""Chunk rows: what corpus mode (JSONL, Parquet) and the Ray Data adapter emit per chunk.

One document in, its rows out: the chunk's record (as the page's JSONL has it)
plus `doc_id`, a stable `chunk_id`, the document's other fields as `metadata`,
and `chunker` (chunkwise version, tokenizer and the settings used). A document
that cannot be chunked gives one row whose `error` says why, and nothing else.
"""
from __future__ import annotations

import hashlib
import json
import math
from typing import Any, NamedTuple

from ..about import DEFAULTS
from ..chunker import Chunker
from ..tokenizer.hf.files import register_file, register_text, registered_files
from ..code.languages import choose, from_filename, resolve
from ..types import Settings

# The row's fields, in output order. Chunk rows leave `error` empty; an error
# row has only doc_id (when known), metadata, chunker and error.
COLUMNS = (
    "doc_id", "chunk_id", "index", "text", "start", "end", "token_count", "overlap_tokens",
    "boundary", "headings", "pages", "embed_text", "embed_tokens", "metadata", "chunker", "error",
)
ID_FIELD = "id"
TEXT_FIELD = "text"
# Metadata may nest this deep (a list in a dict is 2). Deeper, most JSON readers refuse the
# row (serde_json at 128 levels) and Python's own json fails at about 1,000, at any stack depth.
MAX_DEPTH = 100


class Doc(NamedTuple):
    """One corpus document: its id and text, or the reason it has none."""

    doc_id: str | None
    text: str | None
    metadata: dict
    error: str | None = None
    language: str | None = None  # what the text is read as: a code/languages.py id, or None for prose
    nonfinite: int = 0  # NaN and Infinity values in the metadata, written as null
    page_starts: tuple = ()  # a PDF's: where each page's text starts (chunk rows get `pages`)


def file_doc(doc_id: str, data: bytes, name: str, *, language: str | None = None, encoding: str | None = None,
             metadata: dict | None = None) -> Doc:
    """A file's bytes as a document, read as chunkwise.documents.read_input reads every input:
    HTML, PDF and DOCX extracted (their text is prose), other text decoded strictly, read as
    `language` or its extension says; an error Doc with the reason when it cannot be read."""
    from ..documents import read_input

    try:
        text, _, document = read_input(data, name, language=language, encoding=encoding, strict=True)
    except ValueError as error:  # DocumentError, or text that does not decode
        return Doc(doc_id, None, metadata or {}, str(error))
    if document is not None:
        return Doc(doc_id, text, metadata or {}, page_starts=document.page_starts)
    return Doc(doc_id, text, metadata or {}, language=choose(language, name, text)[0])


def chunker_label(settings: Settings) -> str:
    """Which chunkwise, tokenizer and settings made a chunk: one short string."""
    from .._version import __version__

    s = settings
    return (
        f"chunkwise {__version__} encoding={s.encoding} max_tokens={s.max_tokens} overlap={s.overlap}"
        f" strategy={s.strategy} overlap_unit={s.overlap_unit}" + (f" context={s.context}" if s.context != "none" else "")
    )


def chunk_id(doc_id: str, settings: Settings, start: int, end: int, text: str) -> str:
    """32 hex digits of sha256 over the document id, the settings used and the chunk's
    offsets and text: the same run gives the same ids (re-ingestion upserts), and any
    change to the settings or the document gives new ones. The version is left out:
    a release that cuts the same chunks keeps their ids."""
    s = settings
    key = [doc_id, s.encoding, s.max_tokens, s.overlap, s.strategy, s.overlap_unit, start, end, text]
    if s.context != "none":  # (a run without one keeps the ids it always had)
        key.append(s.context)
    key = json.dumps(key, ensure_ascii=False)
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def compact_json(value: Any) -> str:
    """Compact JSON that can be written as UTF-8 (values JSON cannot hold, like dates,
    become strings). A lone surrogate (a \\ud800 escape in the input) has no UTF-8:
    then the whole value is written with \\u escapes, which read back the same."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)
    return text


def metadata_json(metadata: dict) -> str:
    """Metadata as compact JSON (for Parquet's metadata column)."""
    return compact_json(metadata)


def _valid_text(text: str) -> bool:
    """No lone surrogate: the text can be written as UTF-8 (and stored as a Parquet string)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class TooDeep(ValueError):
    """A record nested deeper than MAX_DEPTH (or than json.loads can read)."""


TOO_DEEP = f"the record is nested more than {MAX_DEPTH} levels deep"


def json_safe(value: Any, depth: int = 0) -> tuple[Any, int]:
    """The value as every JSON reader takes it, and how many NaN and Infinity values it had:
    they become None (JSON has neither; JSON.parse, jq, serde and Go refuse a bare NaN).
    Raises TooDeep past MAX_DEPTH levels of lists and objects."""
    if isinstance(value, float):
        return (value, 0) if math.isfinite(value) else (None, 1)
    if not isinstance(value, (dict, list, tuple)):
        return value, 0
    if depth == MAX_DEPTH:
        raise TooDeep(TOO_DEEP)
    items = value.items() if isinstance(value, dict) else enumerate(value)
    safe, found = {}, 0
    for key, item in items:
        safe[key], n = json_safe(item, depth + 1)
        found += n
    if not found:
        return value, 0
    return (safe if isinstance(value, dict) else list(safe.values())), found


def doc_from_record(record: Any, id_field: str = ID_FIELD, text_field: str = TEXT_FIELD) -> Doc:
    """A document from a JSON object or a table row: id and text fields, the rest metadata
    (made JSON-safe: see json_safe; too deep, the document is an error with none)."""
    if not isinstance(record, dict):
        return Doc(None, None, {}, f"not a JSON object but {type(record).__name__}")
    doc = _fields(record, id_field, text_field)
    try:
        metadata, nonfinite = json_safe({k: v for k, v in record.items() if k not in (id_field, text_field)})
    except TooDeep as error:
        return Doc(doc.doc_id, None, {}, doc.error or str(error))
    return doc._replace(metadata=metadata, nonfinite=nonfinite)


def _fields(record: dict, id_field: str, text_field: str) -> Doc:
    """The id and text of a record, or why it has none (no metadata yet)."""
    if id_field not in record:
        return Doc(None, None, {}, f"no {id_field!r} field")
    doc_id = record[id_field]
    if doc_id is None:  # pandas and Parquet write a missing value as null: the field is there
        return Doc(None, None, {}, f"the {id_field!r} field is null, not a string or a whole number")
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        doc_id = str(doc_id)
    elif not isinstance(doc_id, str):
        return Doc(None, None, {}, f"the {id_field!r} field must be a string or a whole number, not {type(doc_id).__name__}")
    elif not _valid_text(doc_id):  # an id must be a key every store takes, and the same in JSONL and Parquet
        return Doc(None, None, {}, f"the {id_field!r} field {ascii(doc_id)} is not valid Unicode (a lone surrogate)")
    if text_field not in record:
        return Doc(doc_id, None, {}, f"no {text_field!r} field")
    text = record[text_field]
    if text is None:
        return Doc(doc_id, None, {}, f"the {text_field!r} field is null, not a string")
    if not isinstance(text, str):
        return Doc(doc_id, None, {}, f"the {text_field!r} field must be a string, not {type(text).__name__}")
    return Doc(doc_id, text, {})


def record_language(doc: Doc, record: Any, language: str | None, language_field: str | None) -> Doc:
    """A record's document with the language it is read as: its `language_field` names a
    language or a file name; where that is missing or says nothing known, `language`
    decides ("auto" detects); else prose."""
    if doc.text is None:
        return doc
    named = record.get(language_field) if language_field and isinstance(record, dict) else None
    if isinstance(named, str) and named.strip():
        try:
            found = resolve(named)
        except ValueError:
            found = from_filename(named)
        if found is not None:
            return doc._replace(language=None if found == "text" else found)
    return doc._replace(language=choose(language, None, doc.text)[0])


class RowSettings(NamedTuple):
    """Everything that decides a document's rows: the one settings object of corpus mode
    (the CLI) and of ChunkRows (Ray Data, Spark, Dask). Plain values, so it travels to a
    worker process or an actor as it is."""

    max_tokens: int = DEFAULTS["max_tokens"]
    overlap: int | None = None  # None: an eighth of max_tokens
    strategy: str = DEFAULTS["strategy"]
    encoding: str = DEFAULTS["encoding"]
    overlap_unit: str = DEFAULTS["overlap_unit"]
    context: str = DEFAULTS["context"]  # "headings": rows carry embed_text and embed_tokens
    id_field: str = ID_FIELD
    text_field: str = TEXT_FIELD
    max_chars: int | None = None  # a longer document is an error row
    language: str | None = None  # a language id, "text" or "auto" ("auto" detects); None: prose
    language_field: str | None = None  # a record's field naming its language (python, Go) or file name (src/a.py)
    tokenizer_files: tuple = ()  # (name, tokenizer.json text): registered wherever rows are made

    def with_tokenizer(self, source: str) -> RowSettings:
        """Counting in a Hugging Face tokenizer.json (a path, or the JSON text itself):
        registered here, and carried to every process that makes rows."""
        name = register_file(source)
        return self._replace(encoding=name, tokenizer_files=((name, dict(registered_files())[name]),))

    def chunker_arguments(self) -> dict:
        return dict(max_tokens=self.max_tokens, overlap=self.overlap, strategy=self.strategy, encoding=self.encoding,
                    overlap_unit=self.overlap_unit, context=self.context)


class RowMaker:
    """Records in, rows out, with one RowSettings: its tokenizer files registered and its
    Chunker built (the tokenizer loaded) once, in the process that makes the rows."""

    def __init__(self, settings: RowSettings):
        for name in ("id_field", "text_field", "language_field"):
            field = getattr(settings, name)
            if field is None and name == "language_field":
                continue  # none: `language` decides
            if not (isinstance(field, str) and field):  # "" would find nothing in any record, silently
                raise ValueError(f"{name} must name a field, not {field!r}")
        have = dict(registered_files())
        for name, text in settings.tokenizer_files:  # a fresh process (a spawned worker, an actor) has none
            if have.get(name) != text:
                register_text(text, name)
        self.settings = settings
        self.chunker = Chunker(**settings.chunker_arguments())
        self.label = chunker_label(self.chunker.settings)

    def doc(self, record: Any) -> Doc:
        """A JSON object or table row as a document, read in its language. A row of a file's
        `bytes` and `path` (ray.data.read_binary_files(..., include_paths=True)) and no text
        field is that file, read as the CLI reads it (HTML, PDF, DOCX extracted); its path is its id."""
        s = self.settings
        if (isinstance(record, dict) and s.text_field not in record and isinstance(record.get("path"), str)
                and isinstance(record.get("bytes"), (bytes, bytearray))):
            try:
                metadata, _ = json_safe({k: v for k, v in record.items() if k not in ("path", "bytes")})
            except TooDeep as error:
                return Doc(record["path"], None, {}, str(error))
            return file_doc(record["path"], bytes(record["bytes"]), record["path"], language=s.language, metadata=metadata)
        return record_language(doc_from_record(record, s.id_field, s.text_field), record, s.language, s.language_field)

    def table_docs(self, table) -> list[Doc]:
        """A pyarrow Table or RecordBatch as documents. A row with a value Python cannot
        hold (a date past 9999) is an error of its own: the other rows are read."""
        try:
            records = table.to_pylist()
        except Exception:  # one value spoils the whole conversion: read row by row, field by field
            records = [self._table_row(table, i) for i in range(table.num_rows)]
        return [r if isinstance(r, Doc) else self.doc(r) for r in records]

    def _table_row(self, table, i: int) -> dict | Doc:
        record, bad = {}, None
        for name in table.column_names:
            try:
                record[name] = table.column(name)[i].as_py()
            except Exception as error:
                bad = bad or f"the {name!r} field cannot be read: {error}"
        if bad is None:
            return record
        return Doc(doc_from_record(record, self.settings.id_field, self.settings.text_field).doc_id, None, {}, bad)

    def rows(self, doc: Doc) -> list[dict]:
        return rows(self.chunker, doc, max_chars=self.settings.max_chars, label=self.label)


def error_row(doc: Doc, label: str, reason: str) -> dict:
    return dict.fromkeys(COLUMNS) | {"doc_id": doc.doc_id, "metadata": doc.metadata, "chunker": label, "error": reason}


def rows(chunker: Chunker, doc: Doc, *, max_chars: int | None = None, label: str | None = None) -> list[dict]:
    """The rows of one document (COLUMNS order; metadata as a dict). Never raises
    for a bad document: it becomes one error row."""
    label = label or chunker_label(chunker.settings)
    if doc.error is not None:
        return [error_row(doc, label, doc.error)]
    if max_chars is not None and len(doc.text) > max_chars:
        return [error_row(doc, label, f"{len(doc.text):,} characters, over the limit of {max_chars:,} (--max-chars)")]
    try:
        chunks = chunker.chunk_document(doc.text, doc.language).chunks
    except Exception as error:  # a bug must not end the run: report it in the row
        return [error_row(doc, label, f"chunking failed: {type(error).__name__}: {error}")]
    if doc.page_starts:
        from ..documents import with_pages

        chunks = with_pages(chunks, doc.page_starts)
    settings = chunker.settings
    out = []
    for chunk in chunks:
        out.append({
            "doc_id": doc.doc_id,
            "chunk_id": chunk_id(doc.doc_id, settings, chunk.start, chunk.end, chunk.text),
            **chunk.to_dict(),
            "metadata": doc.metadata,
            "chunker": label,
            "error": None,
        })
    return out


def jsonl_line(row: dict) -> str:
    """A row as one JSONL record: chunk rows are the page's record plus doc_id,
    chunk_id, metadata and chunker; error rows carry doc_id, error, metadata, chunker."""
    if row["error"] is None:
        record = {k: v for k, v in row.items() if k != "error"}
    else:
        record = {"doc_id": row["doc_id"], "error": row["error"], "metadata": row["metadata"], "chunker": row["chunker"]}
    return compact_json(record) + "\n"


# -- Arrow / Parquet ------------------------------------------------------------
def arrow_schema():
    """The typed columns of a Parquet output and of the Ray adapter's batches."""
    import pyarrow as pa

    return pa.schema([
        ("doc_id", pa.string()),
        ("chunk_id", pa.string()),
        ("index", pa.int32()),
        ("text", pa.string()),
        ("start", pa.int64()),
        ("end", pa.int64()),
        ("token_count", pa.int32()),
        ("overlap_tokens", pa.int32()),
        ("boundary", pa.string()),
        ("headings", pa.list_(pa.string())),
        ("pages", pa.list_(pa.int32())),  # [first, last] for a document with pages (a PDF), else null
        ("embed_text", pa.string()),  # with a context (--context headings), else null
        ("embed_tokens", pa.int32()),
        ("metadata", pa.string()),  # JSON: documents in one corpus may have different fields
        ("chunker", pa.string()),
        ("error", pa.string()),
    ])


def to_arrow(batch: list[dict]):
    """Rows (as rows() gives them) as a pyarrow RecordBatch with arrow_schema()."""
    import pyarrow as pa

    columns = {name: [row.get(name) for row in batch] for name in COLUMNS}  # (only a PDF's rows have pages)
    columns["metadata"] = [metadata_json(m) for m in columns["metadata"]]
    return pa.RecordBatch.from_pydict(columns, schema=arrow_schema())
