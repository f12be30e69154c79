"""What extraction gives: the text chunk offsets index, and where its parts came from."""
from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from dataclasses import dataclass

_WORD = re.compile(r"\S+")


class DocumentError(ValueError):
    """A document that cannot be read (corrupt, encrypted, no text): one sentence for the user."""


def words(text: str) -> int:
    return sum(1 for _ in _WORD.finditer(text))


def page_range(page_starts, start: int, end: int) -> tuple[int, int] | None:
    """[first, last] 1-based page of text[start:end], given where each page starts; None without pages."""
    if not page_starts:
        return None
    return bisect_right(page_starts, start), bisect_right(page_starts, max(start, end - 1))


def with_pages(chunks: list, page_starts) -> list:
    """The chunks with `pages` set from the page starts (as they are when there are none)."""
    if not page_starts:
        return chunks
    return [dataclasses.replace(c, pages=page_range(page_starts, c.start, c.end)) for c in chunks]


@dataclass(frozen=True)
class Extracted:
    """A document's text as chunkwise reads it, with its provenance.

    text: Markdown-ish text (ATX headings, blank-line blocks, pipe tables, fenced code),
        the text every chunk's start and end index.
    format: "html", "pdf" or "docx".
    notice: one line for the user: what was extracted and what was dropped.
    page_starts: for a PDF, the offset in `text` where each page's text begins (page 1
        first); a page without text starts where the next one does. Empty otherwise.
    """

    text: str
    format: str
    notice: str
    page_starts: tuple[int, ...] = ()

    @property
    def pages(self) -> int:
        return len(self.page_starts)

    def page_of(self, offset: int) -> int:
        """The 1-based page holding text[offset] (0 when the document has no pages)."""
        return bisect_right(self.page_starts, offset)

    def page_range(self, start: int, end: int) -> tuple[int, int] | None:
        """[first, last] page of text[start:end], or None when the document has no pages."""
        return page_range(self.page_starts, start, end)

    def with_pages(self, chunks: list) -> list:
        """The chunks with `pages` set, when the document has pages (else as they are)."""
        return with_pages(chunks, self.page_starts)

    def chunk(self, **settings):
        """chunkwise.chunk_document on the text (prose: the structure is Markdown now),
        its chunks with their pages. -> a Result."""
        from .. import chunk_document  # (the top level: wherever the engine lives)

        result = chunk_document(self.text, **settings)
        result.chunks = self.with_pages(result.chunks)
        result.parents = self.with_pages(result.parents)
        return result

    def info(self) -> dict:
        """A summary as JSON can carry it: format, notice, pages and where each begins."""
        return {"format": self.format, "notice": self.notice, "pages": self.pages, "page_starts": list(self.page_starts)}


def pipe_table(rows: list[list[str]]) -> str:
    """Rows of cell texts as a GitHub pipe table, one row a line (cut between rows:
    text/tables.py). A pipe table needs a header row: the first row is taken as one, as
    wide as the widest row. The other rows keep their own cells: GFM reads a short row as
    filled with empty cells, and padding each to the widest made a long row times many
    short ones quadratic (28 kB of HTML became 12 MB)."""
    width = max(map(len, rows))
    header = rows[0] + [""] * (width - len(rows[0]))
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    lines.extend("| " + " | ".join(row) + " |" for row in rows[1:])
    return "\n".join(lines)
