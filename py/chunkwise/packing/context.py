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
        self.limit = int(max_tokens * CONTEXT_SHARE)
        self.shortened = 0  # chunks whose context was shortened to fit
        self._known: dict[str, int] = {}

    def _tokens(self, text: str) -> int:
        tokens = self._known.get(text)
        if tokens is None:
            tokens = self._known[text] = self.count(text)
        return tokens

    def _headings(self, a: int) -> list[str]:
        doc = self.document
        if doc.is_code:
            structure = doc.structure
            d = structure.innermost(a)
            labels = []
            while d is not None and len(labels) < PATH_DEPTH:  # (as the chunk's own path)
                definition = structure.definitions[d]
                if definition.start < a:
                    labels.append(definition.label)
                d = definition.parent if definition.parent >= 0 else None
            if d is not None:
                labels.append(PATH_CUT)
            return [" > ".join(reversed(labels))] if labels else []
        return ["#" * h.level + " " + h.title for h in doc.outline.chain_at(a) if h.start < a and h.title]

    def at(self, a: int) -> Prefix:
        """The context of a chunk that starts at a, shortened to fit CONTEXT_SHARE."""
        headings = self._headings(a)
        tables = getattr(self.document.outline, "tables", None)
        header = tables.header_for(a) if tables else None
        tried = [(headings[i:], header) for i in range(len(headings))]  # the outermost dropped first
        if header:
            tried += [(headings[-1:], None)] if headings else []
            tried.append(([], header))
        tried.append(([], None))
        for n, (kept, table_header) in enumerate(tried):
            text = _join(kept, table_header)
            tokens = self._tokens(text) if text else 0
            if tokens <= self.limit:
                if n:
                    self.shortened += 1
                return Prefix(text, tokens) if text else NO_PREFIX
        return NO_PREFIX


def _join(headings: list[str], header: str | None) -> str:
    parts = "\n".join(headings) + "\n\n" if headings else ""
    return parts + header + "\n" if header else parts
