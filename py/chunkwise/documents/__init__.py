"""Documents in: HTML, PDF and DOCX read into the text chunk offsets index, with their
structure kept as Markdown the engine reads (headings, blocks, lists, tables, fenced
code) and their provenance (PDF pages). One module per format; extract.py chooses."""
from __future__ import annotations

from .extract import EXTENSIONS, binary_kind, extract, is_html_document, kind, read_document, read_input, read_text
from .model import DocumentError, Extracted, page_range, with_pages

__all__ = ["EXTENSIONS", "DocumentError", "Extracted", "page_range", "with_pages", "binary_kind", "extract", "is_html_document", "kind",
           "read_document", "read_input", "read_text"]
