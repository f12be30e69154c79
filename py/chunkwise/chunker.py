"""A reusable chunker: settings checked once, tokenizer loaded once, many documents.

    >>> from chunkwise import Chunker
    >>> chunker = Chunker(max_tokens=256, overlap=32)
    >>> [len(chunks) for chunks in chunker.chunk_batch(["One. Two.", "", "Three."])]
    [1, 0, 1]

Pipelines (the CLI's corpus mode, the Ray Data adapter, a worker process) keep
one Chunker and feed it texts, so no document pays for loading the tokenizer.
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import replace

from .packing.document import Document
from .packing.packer import ChunkJob
from .packing.settings import check_settings
from .types import (
    DEFAULT_CONTEXT, DEFAULT_ENCODING, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_UNIT, DEFAULT_STRATEGY, Chunk, ChunkwiseWarning,
    Result,
)
from .tokenizer.registry import get_tokenizer


class Chunker:
    """Chunks texts with fixed settings; bad settings raise ValueError here, once (in the
    order chunkwise.chunk_document checks them). The tokenizer is loaded here too, with
    the backend CHUNKWISE_BACKEND names now, and every text is counted by it.

    The overlap defaults to an eighth of max_tokens, as in chunkwise.chunk.
    `settings` holds what is actually used (an overlap over half the budget is
    clamped; `adjustments` says what was changed and why). A text may also be a
    chunkwise.Document, prepared once and chunked by several Chunkers.
    """

    def __init__(
        self, *, max_tokens: int = DEFAULT_MAX_TOKENS, overlap: int | None = None, strategy: str = DEFAULT_STRATEGY,
        encoding: str = DEFAULT_ENCODING, overlap_unit: str = DEFAULT_OVERLAP_UNIT, context: str = DEFAULT_CONTEXT,
        parent_tokens: int | None = None,
    ):
        checked = check_settings(max_tokens, overlap, strategy, encoding, overlap_unit, context, parent_tokens)
        self.settings = checked.settings
        self.adjustments = list(checked.warnings)
        self.tokenizer = get_tokenizer(encoding)  # loaded now, not on the first document
        self._checked = replace(checked, tokenizer=self.tokenizer)

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"Chunker(max_tokens={s.max_tokens}, overlap={s.overlap}, strategy={s.strategy!r},"
            f" encoding={s.encoding!r}, overlap_unit={s.overlap_unit!r}, context={s.context!r},"
            f" parent_tokens={s.parent_tokens!r})"
        )

    def chunk_document(self, text: str | Document, language: str | None = None) -> Result:
        """Chunks, the source's token count and warnings, as chunkwise.chunk_document gives
        (`language` as there: None for prose, a code language, or "auto")."""
        return ChunkJob(text, language=language, checked=self._checked).result()

    def chunk(self, text: str | Document) -> list[Chunk]:
        """The chunks of one text; adjusted settings or repaired text warn (ChunkwiseWarning)."""
        result = self.chunk_document(text)
        for message in result.warnings:
            warnings.warn(message, ChunkwiseWarning, stacklevel=2)
        return result.chunks

    def chunk_batch(self, texts: Iterable[str | Document]) -> list[list[Chunk]]:
        """The chunks of each text, in order; settings warnings are given once, not per text."""
        batch = []
        told = set()
        for text in texts:
            result = self.chunk_document(text)
            for message in result.warnings:
                if message not in told:
                    told.add(message)
                    warnings.warn(message, ChunkwiseWarning, stacklevel=2)
            batch.append(result.chunks)
        return batch
