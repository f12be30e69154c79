"""Which reader a file needs, and the one entry point for all of them: the CLI, corpus
mode, the API (chunkwise.read_document), Ray's ChunkRows and the page's worker call
`extract`, so the same bytes give the same text everywhere."""
from __future__ import annotations

import io
import os
import re
import zipfile

from .model import DocumentError, Extracted

EXTENSIONS = {".pdf": "pdf", ".html": "html", ".htm": "html", ".xhtml": "html", ".docx": "docx"}
_HTML_START = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
# Formats that are neither text nor a document chunkwise reads: magic bytes -> what to call them.
BINARY = (
    (b"\x7fELF", "an ELF executable"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"), (b"\x1f\x8b", "a gzip archive"), (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ", "an xz archive"), (b"7z\xbc\xaf", "a 7z archive"), (b"PK\x03\x04", "a zip archive"),
    (b"\xd0\xcf\x11\xe0", "an OLE file (an old .doc or .xls)"), (b"MZ", "a Windows executable"),
    (b"\xca\xfe\xba\xbe", "a Mach-O or Java class file"), (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"RIFF", "a RIFF file (audio or video)"), (b"OggS", "an Ogg file"), (b"ID3", "an MP3 file"),
    (b"\x00asm", "a WebAssembly module"), (b"SQLite format 3\x00", "an SQLite database"),
    (b"PAR1", "a Parquet file"),
)


def _is_docx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def is_html_document(data: bytes | str) -> bool:
    """The one rule for bytes or text that say nothing by a name (standard input, pasted
    text): an HTML document starts, after a BOM, whitespace and comments, with
    <!doctype html> or <html>, in any case. Text is judged by its UTF-8 bytes, as the CLI
    sees it piped in."""
    if isinstance(data, str):
        data = data[:1024].encode("utf-8", "replace")
    return bool(_HTML_START.match(data[:1024]))


def read_text(text: str, language: str | None = None) -> tuple[str, Extracted | None]:
    """Pasted or typed text as the CLI reads the same text on standard input: an HTML
    document (is_html_document) is extracted, unless `language` is "html" (the markup kept,
    chunked as code); other text is as it is. -> (text, the Extracted document or None)"""
    if language == "html" or not is_html_document(text):
        return text, None
    from .html import extract_html

    # (a str is read as it is: no charset to look for; the BOM is the one decode_html drops)
    document = extract_html(text[1:] if text.startswith("\ufeff") else text)
    return document.text, document


def kind(data: bytes, name: str | None = None, *, sniff_html: bool | None = None) -> str | None:
    """"pdf", "html" or "docx" when the file is one (by its extension, else by its first
    bytes), None when it is text. HTML is recognised by its start (<!doctype html>, <html>)
    only where `sniff_html` allows: by default when the name has no extension
    (standard input, pasted text), so a .php or .txt that starts so stays as it is."""
    ext = os.path.splitext(name or "")[1].lower()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    head = data[:1024]
    if b"%PDF-" in head:
        return "pdf"
    if data.startswith(b"PK\x03\x04") and _is_docx(data):
        return "docx"
    if sniff_html is None:
        sniff_html = not ext
    if sniff_html and is_html_document(head):
        return "html"
    return None


def binary_kind(data: bytes) -> str | None:
    """What a file that is neither text nor a document is ("a PNG image"), or None for text.
    Known magic bytes, else NUL bytes among bytes that are not UTF-8 (a text file with a
    NUL is still text; UTF-16 and UTF-32, whose NULs say so, are text too)."""
    for magic, what in BINARY:
        if data.startswith(magic):
            return what
    sample = data[:8192]
    if b"\x00" not in sample:
        return None
    from ..io.decode import _detect

    _, codec, _, bom, guessed = _detect(data)
    if bom or guessed:
        return None
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(sample) - 3:  # (not just a character cut at the sample's end)
            return "binary data (NUL bytes and bytes that are not UTF-8)"
    return None


def extract(data: bytes, name: str | None = None, *, kind_: str | None = None, progress=None) -> Extracted:
    """The document's text and provenance. `kind_` forces a reader ("pdf", "html", "docx");
    else it is chosen by kind(). Raises DocumentError (a ValueError) with one line for the
    user when the file is not a document chunkwise reads, or cannot be read."""
    found = kind_ or kind(data, name)
    if found == "pdf":
        from .pdf import extract_pdf

        if b"%PDF-" not in data[:1024]:
            raise DocumentError("not a PDF (it does not start with %PDF-)")
        return extract_pdf(data, progress)
    if found == "docx":
        from .docx import extract_docx

        return extract_docx(data)
    if found == "html":
        from .html import extract_html

        what = binary_kind(data)
        if what:
            raise DocumentError(f"not HTML but {what}")
        return extract_html(data)
    what = binary_kind(data)
    raise DocumentError(f"not a document chunkwise reads" + (f": {what}" if what else ""))


def read_document(source, name: str | None = None, *, progress=None) -> Extracted:
    """A document (a path, or its bytes with an optional file name) as chunkwise reads it:
    HTML, PDF or DOCX. The text is what chunk offsets index; `page_starts` says where each
    PDF page begins, `notice` what was extracted and dropped. DocumentError (a ValueError)
    when it is not one of those formats or cannot be read."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return extract(bytes(source), name, progress=progress)
    path = os.fspath(source)
    with open(path, "rb") as f:
        data = f.read()
    return extract(data, name or os.path.basename(path), progress=progress)


def read_input(data: bytes, name: str | None, *, language: str | None = None, encoding: str | None = None,
               strict: bool = False, progress=None) -> tuple[str, str | None, Extracted | None]:
    """Any input file as chunkwise reads it, the one rule of the CLI, corpus mode, Ray's
    ChunkRows and the page: a document (HTML, PDF, DOCX, by kind(); `language` "html"
    keeps HTML as markup) is extracted; other bytes are text, decoded as io/decode.py decodes
    them (`strict`: refused rather than repaired, as corpus mode wants), unless they are
    binary (an image, an executable): DocumentError, never text of U+FFFD.
    -> (text, a note for the user or None, the Extracted document or None)"""
    from ..io.decode import decode_bytes, decode_strict

    found = kind(data, name)
    if found and not (found == "html" and language == "html"):
        document = extract(data, kind_=found, progress=progress)
        return document.text, document.notice, document
    what = binary_kind(data) if encoding in (None, "auto") else None
    if what:
        raise DocumentError(f"{what}, not text nor a document chunkwise reads (HTML, PDF, DOCX)")
    if strict:
        return decode_strict(data, encoding), None, None
    text, info = decode_bytes(data, encoding)
    return text, info["message"], None
