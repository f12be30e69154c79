"""The engine's data types: a Chunk, the boundary kinds, the result of a run."""
from __future__ import annotations

from dataclasses import dataclass, field

# Why a chunk ends where it does, strongest first. The order is the separator
# ladder: a lower index is a stronger, more natural place to cut.
# "definition", "nested" and "statement" are the code ladder's own (between top-level
# definitions, between nested ones such as methods, at a line end outside strings
# and comments); in code, "paragraph" is a blank line outside strings and comments.
# "row" is between two rows of a table (Markdown pipe tables, CSV and TSV).
BOUNDARIES = (
    "end", "heading", "definition", "nested", "paragraph", "row", "statement", "line", "sentence", "phrase", "word",
    "token",
)
# Cut levels proper (every boundary but "end"), as ranks: 0 is the strongest.
HEADING, DEFINITION, NESTED, PARAGRAPH, ROW, STATEMENT, LINE, SENTENCE, PHRASE, WORD, TOKEN = range(11)

ENCODINGS = ("cl100k_base", "o200k_base", "chars")
# Where an overlap may start: "unit", where a unit of the strategy starts (a
# sentence, line or paragraph) near the requested size; "word", at a word start,
# as much as fits the requested size. The first is the default.
OVERLAP_UNITS = ("unit", "word")
DEFAULT_OVERLAP_UNIT = "unit"
# What is put before a chunk's text to embed it (packing/context.py): nothing, or
# its heading path and table header.
CONTEXT_MODES = ("none", "headings")
DEFAULT_CONTEXT = "none"
# The defaults of every host (the API, the CLI, the page: about.DEFAULTS).
DEFAULT_MAX_TOKENS = 512
DEFAULT_STRATEGY = "smart"
DEFAULT_ENCODING = "cl100k_base"


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
    pages: tuple[int, int] | None = None  # [first, last] page, 1-based: only for a source with pages (a PDF)
    parent: int | None = None  # with parents (parent_tokens): the index of the parent it lies in
    embed_text: str | None = None  # with context="headings": the context, then the text
    embed_tokens: int | None = None  # the exact count of embed_text, never over max_tokens

    def to_dict(self) -> dict:
        # Field order is part of the output format (JSON/JSONL records).
        record = {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "token_count": self.token_count,
            "overlap_tokens": self.overlap_tokens,
            "boundary": self.boundary,
            "headings": list(self.headings),
        }
        if self.pages is not None:  # plain-text records stay as they were
            record["pages"] = list(self.pages)
        if self.embed_text is not None:
            record["embed_text"] = self.embed_text
            record["embed_tokens"] = self.embed_tokens
        if self.parent is not None:
            record["id"] = child_id(self.index)
            record["parent_id"] = parent_id(self.parent)
        return record

    def parent_record(self) -> dict:
        """This chunk as a parent's record (parent_tokens): its id, and "kind" to tell it from the chunks."""
        record = self.to_dict()
        record["id"] = parent_id(self.index)
        record["kind"] = "parent"
        return record


# The ids that link a run's chunks to their parents (parent_tokens): "c3" is chunk 3,
# "p0" parent 0. (corpus/rows.chunk_id is another thing: a hash that stays across runs.)
def child_id(index: int) -> str:
    return f"c{index}"


def parent_id(index: int) -> str:
    return f"p{index}"


@dataclass(frozen=True)
class Settings:
    max_tokens: int
    overlap: int
    strategy: str
    encoding: str
    overlap_unit: str = DEFAULT_OVERLAP_UNIT
    context: str = DEFAULT_CONTEXT  # packing/context.py
    parent_tokens: int | None = None


@dataclass
class Result:
    """Everything one run produced: the chunks and what the user should know."""

    chunks: list[Chunk]
    source_tokens: int
    settings: Settings
    warnings: list[str] = field(default_factory=list)
    language: str | None = None  # the code language the text was read as (None: prose)
    parents: list[Chunk] = field(default_factory=list)  # with parent_tokens: the parents the chunks tile
    mid_sentence: list[int] = field(default_factory=list)  # the chunks that start mid-sentence (Document.starts_sentence)
