"""chunkwise: token-budgeted, structure-first chunking with exact token counts.

    >>> import chunkwise
    >>> [c.text for c in chunkwise.chunk("One. Two.", max_tokens=512)]
    ['One. Two.']
"""
from __future__ import annotations

import warnings

from .engine import chunk_document
from .model import BOUNDARIES, ENCODINGS, STRATEGIES, Chunk, ChunkwiseWarning, Result, Settings

__all__ = [
    "BOUNDARIES",
    "ENCODINGS",
    "STRATEGIES",
    "Chunk",
    "ChunkwiseWarning",
    "Result",
    "Settings",
    "chunk",
    "chunk_document",
]
__version__ = "0.1.0"


def chunk(
    text: str,
    *,
    max_tokens: int = 512,
    overlap: int = 64,
    strategy: str = "smart",
    encoding: str = "cl100k_base",
) -> list[Chunk]:
    """Split `text` into chunks of at most `max_tokens` tokens (overlap included).

    Settings that make no sense are adjusted and reported as ChunkwiseWarning;
    use chunk_document() to get those messages and the source's token count.
    """
    result = chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
    for message in result.warnings:
        warnings.warn(message, ChunkwiseWarning, stacklevel=2)
    return result.chunks
