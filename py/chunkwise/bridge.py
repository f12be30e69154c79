"""Glue between the page's worker (app/worker.js) and the package. It runs inside
Pyodide; pytest runs it on CPython too (tests/hosts/test_bridge.py).

The worker keeps one Session: the current Document, prepared once, and the
file's bytes when it came from a file. A settings change starts a new job on
the same Document, so the text never crosses to Python again; a text edit
replaces the Document.

Everything crosses to JavaScript as JSON text or bytes, which keeps the
JS <-> Python conversion simple and cheap. Chunk records have the field names
of Chunk.to_dict() without the text (the page slices its own copy), and their
start and end are UTF-16 offsets, the page's string indices.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_left

from ._version import __version__
from .io import export
from .io import stats
from .about import DEFAULTS, describe
from .packing.document import Document
from .packing.packer import ChunkJob, chunk_document
from .tokenizer.hf.files import provide_preset, register_text
from .code.languages import LANGUAGES, choose, from_filename
from .presets import truncation_warning
from .io.decode import decode_bytes
from .documents import DocumentError, kind, read_input, read_text, with_pages
from .tokenizer.registry import get_tokenizer

VERSION = __version__
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _settings(s: dict) -> dict:
    """The engine's settings from the page's JSON; what it leaves out is the engine's default."""
    return {
        "max_tokens": s.get("max_tokens", DEFAULTS["max_tokens"]),
        "overlap": s.get("overlap"),
        "strategy": s.get("strategy", DEFAULTS["strategy"]),
        "encoding": s.get("encoding", DEFAULTS["encoding"]),
        "overlap_unit": s.get("overlap_unit") or DEFAULTS["overlap_unit"],
        "context": s.get("context") or DEFAULTS["context"],
        "parent_tokens": s.get("parent_tokens") or None,
    }


def describe_json() -> str:
    return _json(describe())


def warm_up() -> None:
    """Build what a first run needs before any text arrives (the default encoding's
    tokenizer), so that the worker's saved interpreter state (app/snapshot.js)
    holds it. No text is encoded: nothing here depends on the user's input."""
    get_tokenizer(DEFAULTS["encoding"])


class Session:
    """The worker's state: the current document, its run, and the last finished result."""

    def __init__(self):
        self.document: Document | None = None
        self._astral: list[int] = []  # code point index of every character outside the BMP
        self.job: ChunkJob | None = None
        self.finished = None  # the Result of the last run that finished on this document
        self.files: list[tuple[str, str]] = []  # several files: (name, decoded text)
        self.files_result = None  # their Results for the last settings
        self.model: str | None = None  # the embedding-model preset of the current run
        self.extracted = None  # the current document's Extracted, when it is HTML, PDF or DOCX
        self.files_pages: list = []  # several files: each document's page starts (() but a PDF's), None for text
        # An HTML document (opened or pasted) has two readings, as on the CLI: extracted, and
        # the markup itself (--language html). start() picks one; this gives the markup.
        self._markup = None  # () -> the markup's text, when the source is an HTML document
        self._html = None  # its Extracted reading, kept while the markup is read
        self._given = ""  # the text the page holds (it sent it, or got it from open_file)

    # -- the document --------------------------------------------------------
    def open_file(self, data, encoding: str | None = None, name: str | None = None, progress=None) -> str:
        """A file's bytes (a JS Uint8Array, or bytes) become the document, read exactly as
        the CLI reads files: HTML, PDF and DOCX extracted (by `name`'s extension, else the
        first bytes), text decoded (`encoding`: the codec the user picked, as the CLI's
        --input-encoding; None detects). A binary file (an image, an executable) or a
        document that cannot be read raises DocumentError, a ValueError: one sentence.
        -> JSON {text, info, size, document}: document is null for text, else {format,
        notice, pages, page_starts (UTF-16 offsets)}, and info.message is the notice.
        `progress(done, total)`, when given (a JS function), is called after each PDF page."""
        raw = bytes(data if isinstance(data, (bytes, bytearray)) else data.to_bytes())
        self.document = self.job = self.finished = self.extracted = self._markup = self._html = None
        found = kind(raw, name or None)
        if found is None:
            if encoding is None:
                read_input(raw, name or None)  # refuses binary bytes, as the CLI does
            text, info = decode_bytes(raw, encoding or None)
            self._replace(text)
            self._given = self.document.text
            return _json({"text": self.document.text, "info": info, "size": self.size(), "document": None})
        text, notice, extracted = read_input(raw, name or None, progress=progress)
        self._replace(text)
        self.extracted = self._html = extracted
        if found == "html":  # the CLI's --language html reads the same bytes as text
            self._markup = lambda: read_input(raw, name or None, language="html", encoding=encoding or None)[0]
        self._given = self.document.text
        info = {"replaced": 0, "bom": False, "binary": False, "encoding": None, "message": notice}
        return _json({"text": self.document.text, "info": info, "size": self.size(), "document": self._summary()})

    def _summary(self) -> dict | None:
        """What the page shows of the current reading's document: {format, notice, pages,
        page_starts (UTF-16 offsets)}, None for text (and for HTML read as markup)."""
        if self.extracted is None:
            return None
        return self.extracted.info() | {"page_starts": [self.utf16(p) for p in self.extracted.page_starts]}

    def _pages(self, chunks: list) -> list:
        """The chunks with their pages, when the document has pages (a PDF)."""
        return self.extracted.with_pages(chunks) if self.extracted is not None else chunks

    def set_text(self, text: str) -> str:
        """Pasted or typed text becomes the document, read as the CLI reads it on standard
        input: an HTML document is extracted (start() re-reads it as markup when asked).
        -> JSON {size, warnings}"""
        self._given = text
        read, self.extracted = read_text(text)
        self._html = self.extracted
        self._markup = (lambda: text) if self.extracted is not None else None
        self._replace(read)
        return _json({"size": self.size(), "warnings": self.document.warnings})

    def _read_html(self, markup: bool) -> None:
        """An HTML document read as its markup (the language "html") or extracted."""
        if markup and self.extracted is not None:
            self.extracted = None
            self._replace(self._markup())
        elif not markup and self.extracted is None:
            self.extracted = self._html
            self._replace(self._html.text)

    def _replace(self, text: str) -> None:
        self.document = self.job = self.finished = None  # nothing stale if this fails
        self.document = Document(text)
        text = self.document.text  # (no lone surrogate: UTF-16 encodes it)
        # Most text has no astral character: its UTF-16 length, a copy in C, says so
        # ten times faster than the regex scan that finds them.
        has_astral = len(text.encode("utf-16-le")) > 2 * len(text)
        self._astral = [m.start() for m in _ASTRAL.finditer(text)] if has_astral else []

    def size(self) -> dict:
        """The text's size in characters (code points) and UTF-8 bytes."""
        text = self.document.text
        return {"chars": len(text), "bytes": len(text.encode("utf-8"))}

    # -- runs ----------------------------------------------------------------
    def start(self, settings_json: str) -> str:
        """Start chunking the current document with these settings (JSON:
        max_tokens, overlap, strategy, encoding, overlap_unit; language and filename, see _read_as).
        -> JSON {warnings, settings, language: {name, label, note, detected}, reading}: reading is
        {text, document, html}: the text chunk offsets index when it is not the one the page
        holds (pasted HTML extracted, an HTML file read as markup; else null), the document's
        summary (as open_file gives it) or null, and whether the source is an HTML document
        (whose markup the language "html" chunks)."""
        if self.document is None:
            raise ValueError("there is no document to chunk")
        s = json.loads(settings_json)
        # (self.finished stays until this run finishes: a cancelled run leaves it for the downloads)
        given, filename = s.get("language") or "auto", s.get("filename")
        if self._markup is not None:
            self._read_html(markup=given == "html")
        if self.extracted is not None:  # a document's text is Markdown: prose, whatever its name says
            given, filename = "text", None
        self._read_as(given, filename)
        self.model = s.get("model") or None
        self.job = ChunkJob(self.document, **_settings(s))
        settings = self.job.settings
        lang = self.document.language
        return _json({"warnings": self.job.warnings, "settings": {
            "max_tokens": settings.max_tokens, "overlap": settings.overlap,
            "strategy": settings.strategy, "encoding": settings.encoding,
            "overlap_unit": settings.overlap_unit, "context": settings.context,
            "parent_tokens": settings.parent_tokens},
            "language": {"name": lang or "text", "label": LANGUAGES[lang].label if lang else "prose",
                         "note": self.document.language_note,
                         # decided from the text: the CLI does so only when told (--language)
                         "detected": given == "auto" and lang != from_filename(filename)},
            # (sent on every run, not once: the page drops the replies of runs it superseded)
            "reading": {"text": None if self.document.text == self._given else self.document.text,
                        "document": self._summary(), "html": self._markup is not None,
                        **({} if self.document.text == self._given else {"size": self.size()})}})

    def _read_as(self, language: str, filename: str | None) -> None:
        """Read the document as `language` ("auto": the file name's, else strong
        signals in the text; "text": prose), decided as the CLI decides."""
        chosen, why = choose(language, filename or None, self.document.text)
        if chosen != self.document.language:
            self.document = self.document.read_as(chosen)
        self.document.language_note = why

    def step(self, max_seconds: float) -> str:
        """Run the job for about max_seconds. -> JSON {chunks, done, progress}; when
        done, also the stats panel's numbers."""
        job = self.job
        chunks = self._pages(job.step(max_seconds=max_seconds))
        out = {"chunks": [self.record(c) for c in chunks], "done": bool(job.done), "progress": float(job.progress)}
        if job.done:
            self.finished = job.result()
            self.finished.chunks = self._pages(self.finished.chunks)
            self.finished.parents = self._pages(self.finished.parents)
            out["parents"] = [self.record(p, p.parent_record()) for p in self.finished.parents]
            out["mid_sentence"] = self.finished.mid_sentence  # the engine's judge, for the page's flag
            out["stats"] = stats.compute(self.finished, self.model)
            warning = self.model and truncation_warning(
                self.model, self.finished.settings.max_tokens, [c.token_count for c in self.finished.chunks])
            if warning:
                out["stats"]["warnings"].append(warning)
        return _json(out)

    def record(self, chunk, record: dict | None = None) -> dict:
        """A chunk for the page: Chunk.to_dict() (or the record given) without the text, offsets
        in UTF-16 units; with a context, `context` (what embed_text puts before the text) in
        place of embed_text."""
        record = chunk.to_dict() if record is None else record
        del record["text"]
        embed_text = record.pop("embed_text", None)
        if embed_text is not None:
            record["context"] = embed_text[: len(embed_text) - len(chunk.text)]
        record["start"] = self.utf16(chunk.start)
        record["end"] = self.utf16(chunk.end)
        return record

    def utf16(self, offset: int) -> int:
        """A code point offset as a UTF-16 offset: each astral character before it counts two."""
        return offset + bisect_left(self._astral, offset)

    # -- a second set of settings on the same document (the page's compare view) --
    def compare(self, settings_json: str) -> str:
        """Chunk the current document with other settings, apart from its run.
        -> JSON {records, stats, warnings, comparison}: comparison (stats.comparison: mid-sentence
        starts, chunks over the budget, the cuts that differ) beside the finished run (A), else null."""
        if self.document is None:
            raise ValueError("there is no document to chunk")
        s = json.loads(settings_json)
        result = chunk_document(self.document, **_settings(s))
        result.chunks = self._pages(result.chunks)
        a = self.finished
        return _json({"records": [self.record(c) for c in result.chunks], "stats": stats.compute(result),
                      "warnings": list(result.warnings),
                      "comparison": stats.comparison(a, result) if a is not None else None})

    # -- several files at once (as `python -m chunkwise FILE1 FILE2 ...`) --------
    def set_files(self, names_json: str, contents) -> str:
        """Several files (their names as JSON, their bytes: bytes or JS Uint8Arrays)
        read as the CLI reads them (documents extracted), kept apart from the current document.
        A file that is neither text nor a document is listed with info.refused (the reason)
        and left out of the runs and the download, as the CLI leaves it out.
        -> JSON [{name, chars, info}]"""
        self.files, self.files_pages = [], []
        self.files_result = None
        out = []
        for name, data in zip(json.loads(names_json), contents):
            raw = bytes(data if isinstance(data, (bytes, bytearray)) else data.to_bytes())
            name = str(name)
            try:
                if kind(raw, name) is None:
                    read_input(raw, name)  # refuses binary bytes
                    text, info = decode_bytes(raw)
                    pages = None
                else:
                    text, notice, extracted = read_input(raw, name)
                    info = {"replaced": 0, "bom": False, "binary": False, "encoding": None, "message": notice}
                    pages = extracted.page_starts
            except DocumentError as error:
                self.files.append((name, None))
                self.files_pages.append(None)
                out.append({"name": name, "chars": 0, "info": {"replaced": 0, "bom": False, "binary": True, "encoding": None,
                            "message": f"{name} is left out: {error}", "refused": str(error)}})
                continue
            self.files.append((name, text))
            self.files_pages.append(pages)
            out.append({"name": name, "chars": len(text), "info": info})
        return _json(out)

    def run_files(self, settings_json: str) -> str:
        """Chunk every file with these settings, as the CLI does. -> JSON [stats per file]"""
        s = json.loads(settings_json)
        # Each file read as the CLI reads it: its language from its name unless one is chosen.
        wanted = s.get("language")
        results = []
        for (name, text), pages in zip(self.files, self.files_pages):
            if text is None:  # left out (refused when opened)
                results.append(None)
                continue
            language = "text" if pages is not None else choose(None if wanted in (None, "auto") else wanted, name, text)[0] or "text"
            result = chunk_document(text, **_settings(s), language=language)
            result.chunks = with_pages(result.chunks, pages or ())
            result.parents = with_pages(result.parents, pages or ())
            results.append(result)
        self.files_result = results
        return _json([{"name": name, **stats.compute(r)} if r is not None else
                      {"name": name, "chunk_count": 0, "source_tokens": 0, "refused": True}
                      for (name, _), r in zip(self.files, results)])

    def export_files(self, fmt: str, headers) -> bytes:
        """The bytes `python -m chunkwise FILE1 FILE2 ...` writes: records carry `source`."""
        if not self.files_result:
            raise ValueError("These files have not been chunked with the current settings yet.")
        several = len(self.files) > 1
        groups = [(r.chunks, name if several else None, r.parents)
                  for (name, _), r in zip(self.files, self.files_result) if r is not None]
        return export.render_many(groups, fmt, headers=bool(headers)).encode("utf-8")

    # -- tokenizers ----------------------------------------------------------
    def provide_tokenizer(self, file_id: str, text: str) -> None:
        """A preset's tokenizer file, fetched by the worker from the page's vendor folder."""
        provide_preset(file_id, text)

    def load_tokenizer(self, name: str, text: str) -> str:
        """A tokenizer.json the user opened. -> JSON {encoding, family, special_tokens};
        raises ValueError with a clear message when it cannot be counted exactly."""
        encoding = register_text(text, name=name)
        tokenizer = get_tokenizer(encoding)
        return _json({"encoding": encoding, "family": tokenizer.family,
                      "special_tokens": tokenizer.special_tokens_added})

    def export(self, fmt: str, headers) -> bytes:
        """Exactly the bytes the CLI writes for the same text and settings."""
        if self.finished is None:
            raise ValueError("These chunks are out of date; wait for the current run to finish.")
        return export.render(self.finished.chunks, fmt, headers=bool(headers), parents=self.finished.parents).encode("utf-8")
