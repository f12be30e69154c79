"""chunkwise: token-budgeted, structure-first chunking with exact token counts.

    >>> import chunkwise
    >>> [c.text for c in chunkwise.chunk("One. Two.", max_tokens=512)]
    ['One. Two.']
"""
from __future__ import annotations

import warnings

from ._version import __version__
from .about import describe
from .chunker import Chunker
from .documents import DocumentError, Extracted, read_document
from .packing.document import Document
from .packing.packer import chunk_document
from .packing.settings import default_overlap
from .tokenizer.hf.files import register_file as register_tokenizer
from .code.languages import LANGUAGES
from .types import (
    BOUNDARIES, CONTEXT_MODES, DEFAULT_CONTEXT, DEFAULT_ENCODING, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_UNIT, DEFAULT_STRATEGY,
    ENCODINGS, OVERLAP_UNITS, Chunk, ChunkwiseWarning, Result, Settings,
)
from .packing.strategies import STRATEGIES

__all__ = [
    "BOUNDARIES",
    "CONTEXT_MODES",
    "ENCODINGS",
    "LANGUAGES",
    "OVERLAP_UNITS",
    "STRATEGIES",
    "Chunk",
    "Chunker",
    "ChunkwiseWarning",
    "Document",
    "DocumentError",
    "Extracted",
    "Result",
    "Settings",
    "chunk",
    "chunk_document",
    "default_overlap",
    "describe",
    "read_document",
    "register_tokenizer",
]


def __getattr__(name: str):
    """chunkwise.export and chunkwise.stats (the formats and the numbers of a result,
    in io/), imported when first asked for: the page's engine import stays small."""
    if name in ("export", "stats"):
        import importlib

        return importlib.import_module(f"chunkwise.io.{name}")
    raise AttributeError(f"module 'chunkwise' has no attribute {name!r}")


def chunk(
    text: str | Document,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    overlap: int | None = None,
    strategy: str = DEFAULT_STRATEGY,
    encoding: str = DEFAULT_ENCODING,
    language: str | None = None,
    overlap_unit: str = DEFAULT_OVERLAP_UNIT,
    context: str = DEFAULT_CONTEXT,
    parent_tokens: int | None = None,
) -> list[Chunk]:
    """Split `text` into chunks of at most `max_tokens` tokens (overlap included).

    The overlap defaults to an eighth of max_tokens (default_overlap: 64 for 512).
    `text` may be a Document, prepared once and chunked with many settings.
    `language` reads it as source code ("python", "go", ...: chunkwise.LANGUAGES),
    "auto" detects code from strong signals, None is prose and Markdown.
    overlap_unit "unit" starts the overlap where a sentence starts (a line for
    `lines`, a paragraph for `paragraphs`), 0.5x-1.5x of `overlap` or a shorter
    whole sentence; where none starts within half the budget, prose strategies
    give the chunk no overlap rather than half a sentence (`lines` and `code`
    start at a word); "word" takes the longest tail of whole words within `overlap`.
    context "headings" gives each chunk `embed_text` (its heading path and any table
    header, then its text) and `embed_tokens`, within max_tokens. parent_tokens=N
    also makes parents of N tokens (chunk_document's `parents`), each chunk in one.

    Settings that make no sense are adjusted and reported as ChunkwiseWarning;
    use chunk_document() to get those messages and the source's token count.
    """
    result = chunk_document(
        text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding, language=language,
        overlap_unit=overlap_unit, context=context, parent_tokens=parent_tokens,
    )
    for message in result.warnings:
        warnings.warn(message, ChunkwiseWarning, stacklevel=2)
    return result.chunks
