"""PDF -> text, page by page, from the text layer (pypdf: pure Python, BSD-3-Clause).

How the page texts become one text:
- Pages are joined by a blank line: a page break is at least a paragraph boundary.
- Soft wraps are joined. Within a page, a line at least SOFT_WRAP of the page's
  typical line length (its 80th percentile, in characters) ran into the margin: the
  next line continues it, after a space (no space after a hyphen that ends a word
  part: "well-" + "known"). The next line is not joined when it starts like a list
  item (a bullet, "1.", "(a)"). A shorter line ends there: with a blank line after it
  when it ends a sentence (. ! ? :), else a line break (headings, list items, code).
- Running headers and footers are dropped: a first or last line of a page that is
  the first or last line of at least half the pages (and 3 or more), digits aside
  (so page numbers match), is left out on every page that has it; so is one with a
  number in it on 3 pages or more (a chapter's title and the page number, which
  change by chapter). The notice counts them.
- Word gaps: a TJ offset of at least WORD_GAP thousandths of an em is a space, as
  pdftotext reads it. pypdf alone takes half the font's space width, and fonts
  whose code 32 is a wide glyph (TeX's T1 fonts: a visible space) lost the gaps
  of every justified line ("Afteraperiodofdevelopment").
"""
from __future__ import annotations

import contextlib
import io
import logging
import re
import warnings
from collections import Counter

from .model import DocumentError, Extracted, words

SOFT_WRAP = 0.8
WORD_GAP = 100  # thousandths of the font size
HEADER_SHARE = 0.5
_LIST_START = re.compile(r"^\s*(?:[•●◦▪■□–—*-]\s|\(?[0-9]{1,3}[.)]\s|\(?[a-zA-Z][.)]\s)")
_SENTENCE_END = re.compile(r"[.!?:][\"'’”)\]]*$")
_HYPHENATED = re.compile(r"[^\W\d_]-$")
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")


@contextlib.contextmanager
def _quiet():
    """pypdf reports what it repairs through logging and warnings: on a terminal that is noise
    about a file the user cannot change; what matters reaches the notice or the error."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


def _reader(data: bytes):
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        _decrypt(reader)
    return reader


def _decrypt(reader) -> None:
    """Only RC4 with an empty password: pure Python can do that (AES needs a compiled
    library in pypdf, which the page does not have; the CLI refuses it too, to agree)."""
    from pypdf import PasswordType

    encrypt = reader.trailer["/Encrypt"].get_object()
    filters = {str(f.get_object().get("/CFM", "/V2")) for f in (encrypt.get("/CF") or {}).values()}
    if int(encrypt.get("/V", 0)) >= 5 or filters & {"/AESV2", "/AESV3"}:
        raise DocumentError("encrypted with AES: chunkwise reads only PDFs encrypted with RC4 and an empty password"
                            " (decrypt it first, e.g. qpdf --decrypt IN OUT)")
    if reader.decrypt("") == PasswordType.NOT_DECRYPTED:
        raise DocumentError("encrypted: needs a password")


def _word_gaps(operator, operands, cm, tm) -> None:
    """A visitor that makes each word-sized gap of a TJ array one pypdf reads as a space:
    the gap becomes a huge one (a space) and the rest of it back, so the pen ends where it did."""
    if operator != b"TJ" or not operands or not isinstance(operands[0], list):
        return
    from pypdf.generic import FloatObject

    parts = []
    for item in operands[0]:
        if isinstance(item, (int, float)) and item <= -WORD_GAP:
            parts += [FloatObject(-10_000), FloatObject(10_000 + item)]
        else:
            parts.append(item)
    operands[0][:] = parts


def _reason(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def page_texts(data: bytes, progress=None) -> tuple[list[str], list[int]]:
    """Each page's text as pypdf extracts it (with the word gaps above), and the pages whose
    content could not be read (their text is empty; the others are kept)."""
    with _quiet():
        try:
            reader = _reader(data)
            pages = reader.pages
            total = len(pages)
        except DocumentError:
            raise
        except Exception as error:  # pypdf raises many kinds on a broken file: one line, no traceback
            raise DocumentError(f"not a readable PDF ({_reason(error)})") from None
        texts, failed, first_error = [], [], None
        for number in range(1, total + 1):
            try:
                texts.append(pages[number - 1].extract_text(visitor_operand_before=_word_gaps) or "")
            except Exception as error:  # one broken page costs only itself
                texts.append("")
                failed.append(number)
                first_error = first_error or error
            if progress:
                progress(number, total)
        if total and len(failed) == total:
            raise DocumentError(f"not a readable PDF ({_reason(first_error)})")
        return texts, failed


def _key(line: str) -> str:
    return _SPACES.sub(" ", _DIGITS.sub("#", line)).strip()


def _running_lines(pages: list[list[str]]) -> set[str]:
    """The keys of lines that head or foot at least half the pages (see the module's docstring)."""
    if len(pages) < 3:
        return set()
    seen = Counter()
    for lines in pages:
        if lines:
            seen.update({_key(lines[0]), _key(lines[-1])})
    least = max(3, HEADER_SHARE * len(pages))
    # a line with a number in it (a page number beside a chapter's title) on 3 pages is a running one too
    return {key for key, n in seen.items() if key and (n >= least or (n >= 3 and "#" in key))}


def _join(lines: list[str]) -> str:
    """One page's lines as text: soft wraps joined, paragraphs separated by blank lines."""
    lengths = sorted(len(line) for line in lines if line)
    if not lengths:
        return ""
    full = SOFT_WRAP * lengths[int(0.8 * (len(lengths) - 1))]
    body = []  # [line, whether a blank line follows it]
    for line in lines:
        if line:
            body.append([line, False])
        elif body:
            body[-1][1] = True
    out = []
    for (line, blank), (following, _) in zip(body, body[1:] + [["", False]]):
        out.append(line)
        if not following:
            break
        if blank:
            out.append("\n\n")
        elif len(line) >= full and not _LIST_START.match(following):
            out.append("" if _HYPHENATED.search(line) and following[:1].islower() else " ")
        elif _SENTENCE_END.search(line):
            out.append("\n\n")
        else:
            out.append("\n")
    return "".join(out).strip()


def extract_pdf(data: bytes, progress=None) -> Extracted:
    """A PDF's text layer with page offsets; DocumentError when it has none or cannot be read."""
    texts, failed = page_texts(data, progress)
    pages = [_trim([line.strip() for line in text.splitlines()]) for text in texts]
    running = _running_lines(pages)
    dropped = 0
    parts, starts, offset, empty = [], [], 0, []
    for number, lines in enumerate(pages, 1):
        if not lines:
            empty.append(number)  # no text at all (a page with only its header is just blank)
        if lines and _key(lines[0]) in running:
            lines = _trim(lines[1:])
            dropped += 1
        if lines and _key(lines[-1]) in running:
            lines = _trim(lines[:-1])
            dropped += 1
        text = _join(lines)
        if parts and text:
            parts.append("\n\n")
            offset += 2
        starts.append(offset)
        if text:
            parts.append(text)
            offset += len(text)
    if len(empty) == len(pages):
        raise DocumentError(f"no text layer on any of its {len(pages):,} pages (OCR is not part of chunkwise)"
                            if pages else "a PDF without pages")
    text = "".join(parts)
    notice = f"PDF: {len(pages):,} pages, {words(text):,} words"
    if dropped:
        notice += f"; dropped {dropped:,} running header and footer lines"
    if failed:
        notice += f"; {len(failed):,} page{'s' if len(failed) > 1 else ''} could not be read ({_pages(failed)})"
        unreadable = set(failed)  # (once: a set a page was quadratic in the pages)
        empty = [n for n in empty if n not in unreadable]
    if empty:
        notice += f"; {len(empty):,} page{'s' if len(empty) > 1 else ''} without a text layer ({_pages(empty)})"
    return Extracted(text, "pdf", notice, tuple(starts))


def _pages(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")


def _trim(lines: list[str]) -> list[str]:
    """Without the empty lines at either end."""
    kept = [i for i, line in enumerate(lines) if line]
    return lines[kept[0] : kept[-1] + 1] if kept else []
