"""The context of a chunk (context="headings"): what an embedding model needs to read
the chunk alone, put before its text in `embed_text` and counted inside the budget.

The context of a chunk that starts at offset a is
- its heading path: the headings above a (those the chunk's own text does not
  begin with), one line each as Markdown ATX headings ("## Timeline"); in code,
  the definitions a is inside, on one line ("class Parser > def parse_args");
- then, when a is inside a table past its header, that table's header rows;
and a blank line parts the heading path from what follows it.

It may take at most CONTEXT_SHARE of max_tokens, so the chunk's own text always
gets the rest: where it would take more, the outermost headings are dropped
first, then the table header, then the nearest heading (for the header, if that
fits); a warning counts the chunks. `embed_tokens`, the exact count of context + text, is never over max_tokens.
"""
from __future__ import annotations

from typing import NamedTuple

from ..tokenizer.base import Tokenizer
from ..types import CONTEXT_MODES
from ..code.structure import PATH_CUT, PATH_DEPTH

CONTEXT_SHARE = 0.5  # of max_tokens: the most the context may take


class Prefix(NamedTuple):
    text: str  # put before the chunk's text ("" for none)
    tokens: int  # its exact count (alone)


NO_PREFIX = Prefix("", 0)


def check_context(context) -> str:
    if context not in CONTEXT_MODES:
        raise ValueError(f"unknown context {context!r}; choose one of {', '.join(CONTEXT_MODES)}")
    return context


class Context:
    """The prefixes of one run's chunks (each distinct one counted once)."""

    def __init__(self, document, tokenizer, max_tokens: int):
        self.document = document
        self.count = tokenizer.count
        self._tokenizer = tokenizer
        # A tokenizer that encodes a text after a separable offset as a text of its own
        # (tiktoken's BPE; not a Hugging Face file's, which may mark a text's start)
        # counts prefix + text as the sum of the two wherever the join is separable.
        self._adds_up = type(tokenizer).encode_continued is Tokenizer.encode_continued
        self._joins: dict[str, bool] = {}  # the two characters around a join -> separable there?
        self.limit = int(max_tokens * CONTEXT_SHARE)
        self.shortened = 0  # chunks whose context was shortened to fit
        self._known: dict[str, int] = {}
        self._prefixes: dict[tuple, tuple[Prefix, bool]] = {}  # at's memo: (path, table) -> (prefix, shortened)

    def embed_tokens(self, prefix: Prefix, text: str, text_tokens: int) -> int:
        """The exact count of prefix.text + text, given text's own count: their sum where
        the tokenizer may split there (no second encode of the chunk), else counted whole."""
        if self._adds_up and self._separable_join(prefix.text[-1:] + text[:1]):
            return prefix.tokens + text_tokens
        return self.count(prefix.text + text)

    def _separable_join(self, pair: str) -> bool:
        """Is the offset between these two characters separable (the tokenizer's rule reads
        only the character before an offset and the one after it)?"""
        known = self._joins.get(pair)
        if known is None:
            tokenizer = self._tokenizer
            m = tokenizer.separable.match(tokenizer.as_known(pair), 1) if len(pair) == 2 else None
            known = self._joins[pair] = m is not None and tokenizer.separable_check(pair, m)
        return known

    def _tokens(self, text: str) -> int:
        tokens = self._known.get(text)
        if tokens is None:
            tokens = self._known[text] = self.count(text)
        return tokens

    def _headings(self, a: int):
        """(a key, the heading path's lines) of a chunk that starts at a: the key names what the
        path is made of (definitions' indexes, -1 for a cut; headings' offsets), so that a
        chunk with the path of one before it finds its prefix without the lines being
        joined and hashed again (a 500 kB title or table header, each chunk: quadratic)."""
        doc = self.document
        if doc.is_code:
            structure = doc.structure
            d = structure.innermost(a)
            kept = []
            while d is not None and len(kept) < PATH_DEPTH:  # (as the chunk's own path)
                if structure.definitions[d].start < a:
                    kept.append(d)
                parent = structure.definitions[d].parent
                d = parent if parent >= 0 else None
            if d is not None:
                kept.append(-1)
            labels = lambda: [" > ".join(PATH_CUT if i < 0 else structure.definitions[i].label for i in reversed(kept))]  # noqa: E731
            return tuple(kept), labels if kept else list
        chain = [h for h in doc.outline.chain_at(a) if h.start < a and h.title]
        return tuple(h.start for h in chain), lambda: ["#" * h.level + " " + h.title for h in chain]

    def at(self, a: int) -> Prefix:
        """The context of a chunk that starts at a, shortened to fit CONTEXT_SHARE."""
        path, lines = self._headings(a)
        tables = getattr(self.document.outline, "tables", None)
        table = tables.at(a) if tables else None
        if table is not None and a <= table.header_end:
            table = None  # (a chunk that starts in the header reads it itself)
        key = (path, None if table is None else table.start)
        known = self._prefixes.get(key)
        if known is None:
            header = None if table is None else tables.text[table.start : table.header_end]
            known = self._prefixes[key] = self._fit(lines(), header)
        prefix, shortened = known
        self.shortened += shortened
        return prefix

    def _fit(self, headings: list[str], header: str | None) -> tuple[Prefix, bool]:
        """The longest context of these that fits, and whether it was shortened."""
        tried = [(headings[i:], header) for i in range(len(headings))]  # the outermost dropped first
        if header:
            tried += [(headings[-1:], None)] if headings else []
            tried.append(([], header))
        tried.append(([], None))
        for n, (kept, table_header) in enumerate(tried):
            text = _join(kept, table_header)
            tokens = self._tokens(text) if text else 0
            if tokens <= self.limit:
                return (Prefix(text, tokens) if text else NO_PREFIX), n > 0
        return NO_PREFIX, False


def _join(headings: list[str], header: str | None) -> str:
    parts = "\n".join(headings) + "\n\n" if headings else ""
    return parts + header + "\n" if header else parts
