"""Document once, settings many: what depends only on the text is a Document,
prepared lazily and kept (outline, candidate cuts, a token index per tokenizer);
chunking it with other settings only packs again (packer.py).
"""
from __future__ import annotations

from typing import Callable

from . import topics
from ..cached import cached_property
from ..tokenizer.chars import CharIndex
from ..tokenizer.index import TokenIndex
from ..code.scan import scan
from ..code.cuts import CodeOutline, CodeSeparators
from ..text.fenced import separators_for
from ..code.languages import CODE_LANGUAGES, TABLE_DELIMITERS, detect, resolve
from ..text.markdown import Outline, TableOutline
from ..types import DEFAULT_CONTEXT, DEFAULT_ENCODING, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_UNIT, DEFAULT_STRATEGY, Result
from ..text.separators import Separators, skip_space, trim_end
from ..io.decode import replace_surrogates
from ..tokenizer.registry import get_tokenizer
from ..types import LINE, PARAGRAPH, SENTENCE

_SENTENCE_STARTS = (PARAGRAPH, LINE, SENTENCE)

class Document:
    """Everything that depends only on the text, computed on first use and kept:
    the text with lone surrogates repaired, its Markdown outline, its candidate
    cuts, and one token index per encoding. Chunk it as often as you like with
    different settings; only the packing runs again.

    `language` says what the text is: None (or "text") for prose and Markdown,
    a code language ("python", "go"... see code/languages.py) for source code, or
    "auto" to decide from strong signals in the text (`language_note` says why).
    In code, '#' lines are no headings, `headings` is the definition path, the
    smart strategy cuts by the code ladder and chunks start at a line start."""

    def __init__(self, text: str, language: str | None = None):
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        self.text, surrogates = replace_surrogates(text)
        self.warnings = [f"{surrogates} lone surrogate code point(s) were replaced by U+FFFD."] if surrogates else []
        self._indexes: dict[tuple, TokenIndex | CharIndex] = {}  # by Tokenizer.key
        self.language_note = ""
        if language == "auto":
            language, self.language_note = detect(self.text)
        elif language is not None:
            language = resolve(language)
            self.language_note = "given"
        self.language = None if language == "text" else language

    @property
    def is_code(self) -> bool:
        return self.language in CODE_LANGUAGES

    @cached_property
    def structure(self):
        """The code structure (code/scan.py); plain lines for a text that is not code."""
        return scan(self.text, self.language if self.is_code else "text")

    @cached_property
    def outline(self) -> Outline | CodeOutline:
        if self.is_code:
            return CodeOutline(self.structure)
        if self.language in TABLE_DELIMITERS:
            return TableOutline(self.text, TABLE_DELIMITERS[self.language])
        return Outline(self.text)

    @cached_property
    def separators(self) -> Separators:
        """The prose cuts; fenced blocks of a known language are cut as their code (text/fenced.py)."""
        return separators_for(self.text, self.outline)

    @cached_property
    def cohesion(self) -> topics.Cohesion:
        """The content words, for where the topic shifts (the topics strategy)."""
        return topics.Cohesion(self.text)

    @cached_property
    def code_separators(self) -> CodeSeparators:
        """The code ladder's cuts (the code strategy; smart, for code)."""
        outline = self.outline if self.is_code else CodeOutline(self.structure)
        return CodeSeparators(self.text, outline, self.structure)

    def read_as(self, language: str | None) -> "Document":
        """The same text as another language: a new Document that keeps this one's
        token indexes (they depend on the text only)."""
        doc = Document(self.text, language or "text")
        doc.warnings = list(self.warnings)
        doc._indexes = self._indexes
        return doc

    @cached_property
    def chunk_start(self) -> Callable[[int], int]:
        """Where the chunk after a cut starts, a function of the cut: prose skips the
        whitespace; code (and a fenced block of code) starts at the line start,
        keeping the indentation. (The separators' own method: the packer asks often.)"""
        return (self.code_separators if self.is_code else self.separators).chunk_start

    @cached_property
    def stop(self) -> int:
        """The end of the last non-whitespace character."""
        return trim_end(self.text, 0, len(self.text))

    @cached_property
    def first(self) -> int:
        """Where the first chunk starts: the first non-whitespace character (code:
        the start of its line). In prose that is chunk_start(0) without the separators
        it would build: no fenced block's body can hold it (its opening fence is before)."""
        if not self.stop:
            return 0
        return self.chunk_start(0) if self.is_code else skip_space(self.text, 0)

    def starts_sentence(self, i: int) -> bool:
        """The one judge of "starts mid-sentence" (the stats, the page's flag, the tests and the
        benchmark ask it): does a sentence start at i, after a sentence end, a paragraph or a
        line break that is not a soft wrap (text/separators.py), a heading or a table row? In
        code, any line start starts one. An offset in the spaces before a line's text is
        judged where that text starts (a chunk may keep a line's indentation)."""
        seps = self.code_separators if self.is_code else self.separators
        text, j = self.text, i
        while j < len(text) and text[j] in " \t":
            j += 1
        return seps.is_unit_start(i, _SENTENCE_STARTS) or (j > i and seps.is_unit_start(j, _SENTENCE_STARTS))

    def has_index(self, tokenizer) -> bool:
        """Whether this tokenizer's index is built (a run before this one built it)."""
        return tokenizer.key in self._indexes

    def index(self, encoding: str) -> TokenIndex | CharIndex:
        """The token index of this encoding (with the current backend), kept for the next run."""
        return self.index_of(get_tokenizer(encoding))

    def index_of(self, tokenizer) -> TokenIndex | CharIndex:
        """The token index of this tokenizer, kept for the next run."""
        index = self._indexes.get(tokenizer.key)
        if index is None:
            index = self._indexes[tokenizer.key] = tokenizer.index(self.text)
        return index

    def chunk(
        self, *, max_tokens=DEFAULT_MAX_TOKENS, overlap=None, strategy=DEFAULT_STRATEGY, encoding=DEFAULT_ENCODING,
        overlap_unit=DEFAULT_OVERLAP_UNIT, context=DEFAULT_CONTEXT, parent_tokens=None,
    ) -> Result:
        """All chunks of this document with these settings (the language is the Document's)."""
        from .packer import ChunkJob  # (the packer imports Document)

        return ChunkJob(
            self, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding, overlap_unit=overlap_unit,
            context=context, parent_tokens=parent_tokens,
        ).result()
