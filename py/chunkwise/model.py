"""The engine's data types: a Chunk, the boundary kinds, the result of a run."""
from __future__ import annotations

from dataclasses import dataclass, field

# Why a chunk ends where it does, strongest first. The order is the separator
# ladder: a lower index is a stronger, more natural place to cut.
BOUNDARIES = ("end", "heading", "paragraph", "line", "sentence", "phrase", "word", "token")
# Cut levels proper (every boundary but "end"), as ranks: 0 is the strongest.
HEADING, PARAGRAPH, LINE, SENTENCE, PHRASE, WORD, TOKEN = range(7)

STRATEGIES = ("smart", "paragraphs", "markdown", "lines", "sentences", "tokens")
ENCODINGS = ("cl100k_base", "o200k_base", "chars")


class ChunkwiseWarning(UserWarning):
    """A setting was adjusted to something that makes sense (e.g. overlap clamped)."""


@dataclass(frozen=True)
class Chunk:
    index: int
    text: str
    start: int
    end: int
    token_count: int
    overlap_tokens: int
    boundary: str
    headings: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        # Field order is part of the output format (JSON/JSONL records).
        return {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "token_count": self.token_count,
            "overlap_tokens": self.overlap_tokens,
            "boundary": self.boundary,
            "headings": list(self.headings),
        }


@dataclass(frozen=True)
class Settings:
    max_tokens: int
    overlap: int
    strategy: str
    encoding: str


@dataclass
class Result:
    """Everything one run produced: the chunks and what the user should know."""

    chunks: list[Chunk]
    source_tokens: int
    settings: Settings
    warnings: list[str] = field(default_factory=list)
