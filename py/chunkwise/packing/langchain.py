"""LangChain's RecursiveCharacterTextSplitter, as a reference strategy
("langchain-recursive"): the splitter people use today, run on the same text and
tokenizer as chunkwise's own strategies so that the page's Compare can put the two
side by side. Written here (the page runs in Pyodide, without langchain); tests
prove it equal to langchain-text-splitters 1.1 (tests/packing/test_langchain.py) as

    RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=encoding, chunk_size=max_tokens, chunk_overlap=overlap,
        disallowed_special=())      # (the default raises on "<|endoftext|>" in the text)

(with encoding "chars": RecursiveCharacterTextSplitter(chunk_size=..., chunk_overlap=...),
its default length, len). Its defaults: separators "\\n\\n", "\\n", " ", "";
keep_separator=True (a separator starts the piece after it); strip_whitespace=True.

The algorithm, as LangChain has it: take the first separator that occurs in the
text ("" always does: single characters); split there; pieces shorter than the
budget are merged greedily (a piece's length is its own token count: a chunk's
length is the sum of its pieces', not the count of their join); a piece of the
budget or more is split again with the separators after the one used, or, with
none left, kept whole. After each merged chunk, pieces are dropped from its front
until at most `overlap` tokens remain (and the next piece fits): the next chunk
starts with them. Each merged chunk is stripped of Python's whitespace.

What this module adds is the offsets: every piece is a slice of the text, so each
chunk is one too (`text == source[start:end]`, by construction, not by str.find),
and its token count is exact. The chunks are LangChain's, not chunkwise's:
a chunk may be over the budget (the sum of its pieces' counts fits; the count of
their join can be larger), a chunk may start in the middle of a sentence, and a
chunk may repeat the tail of the one before it; the stats count what goes over.
"""
from __future__ import annotations

from collections import deque
from typing import Iterator

from ..types import Chunk

# RecursiveCharacterTextSplitter's default separators, strongest first, and the
# boundary kind a cut at each is called.
SEPARATORS = ("\n\n", "\n", " ", "")
BOUNDARY = {"\n\n": "paragraph", "\n": "line", " ": "word", "": "token"}
# What LangChain's str.strip() removes: Python's whitespace (str.isspace()), which has
# the information separators U+001C..U+001F too; pinned here (never the running
# Python's tables) so that CPython and Pyodide strip alike. A test checks it.
PYTHON_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class _Splitter:
    """One run: the text, its token index (any slice counted exactly), the settings."""

    def __init__(self, text: str, count, chunk_size: int, chunk_overlap: int):
        self.text = text
        self.count = count  # count(a, b): the tokens of text[a:b]
        self.size = chunk_size
        self.overlap = chunk_overlap

    def pieces(self, a: int, b: int, separator: str) -> list[tuple[int, int]]:
        """text[a:b] split at `separator`, each occurrence starting the piece after it
        (keep_separator=True); empty pieces dropped; "" splits into characters."""
        if not separator:
            return [(i, i + 1) for i in range(a, b)]
        out, start, step = [], a, len(separator)
        at = self.text.find(separator, a, b)
        while at != -1:
            if at > start:
                out.append((start, at))
            start = at
            at = self.text.find(separator, at + step, b)
        if b > start:
            out.append((start, b))
        return out

    def split(self, a: int, b: int, separators: tuple[str, ...], ends_at: str) -> Iterator[tuple[int, int, str]]:
        """LangChain's _split_text on text[a:b]: its chunks as (start, end, boundary),
        stripped. `ends_at`: the boundary of a chunk that ends where text[a:b] does."""
        separator, rest = separators[-1], ()
        for i, s in enumerate(separators):
            if not s:
                separator = s
                break
            if self.text.find(s, a, b) != -1:
                separator, rest = s, separators[i + 1 :]
                break
        here = BOUNDARY[separator]
        good: list[tuple[int, int, int]] = []
        for start, end in self.pieces(a, b, separator):
            tokens = self.count(start, end)
            if tokens < self.size:
                good.append((start, end, tokens))
                continue
            if good:
                yield from self.merge(good, here, here)  # the next piece starts with this separator
                good = []
            after = ends_at if end == b else here
            if not rest:
                yield start, end, after  # kept whole, as it is (LangChain does not strip it)
            else:
                yield from self.split(start, end, rest, after)
        if good:
            yield from self.merge(good, here, ends_at)

    def merge(self, pieces: list[tuple[int, int, int]], here: str, ends_at: str) -> Iterator[tuple[int, int, str]]:
        """LangChain's _merge_splits (the separator is "": keep_separator=True)."""
        size, overlap = self.size, self.overlap
        current: deque[tuple[int, int, int]] = deque()
        total = 0
        for piece in pieces:
            tokens = piece[2]
            if total + tokens > size and current:
                joined = self.join(current, here)
                if joined is not None:
                    yield joined
                while total > overlap or (total + tokens > size and total > 0):
                    total -= current.popleft()[2]
            current.append(piece)
            total += tokens
        joined = self.join(current, ends_at)
        if joined is not None:
            yield joined

    def join(self, current, boundary: str) -> tuple[int, int, str] | None:
        """The pieces as one chunk, stripped (strip_whitespace=True); None if blank."""
        a, b = current[0][0], current[-1][1]
        chunk = self.text[a:b]
        lead = len(chunk) - len(chunk.lstrip(PYTHON_WHITESPACE))
        if lead == len(chunk):
            return None
        return a + lead, a + len(chunk.rstrip(PYTHON_WHITESPACE)), boundary


def split(text: str, index, max_tokens: int, overlap: int, headings_at=None) -> Iterator[Chunk]:
    """The chunks of RecursiveCharacterTextSplitter for `text`, in its order, with exact
    offsets and counts (`index`: the document's token index); the last one's boundary is
    "end". headings_at(offset): the heading path of a chunk starting there."""
    spans = _Splitter(text, index.count, max_tokens, overlap).split(0, len(text), SEPARATORS, "end")
    held, previous = None, None  # a chunk is made once the next is known (the last ends as "end")
    for span in spans:
        if held is not None:
            previous = _chunk(text, index, held, held[2], previous, headings_at)
            yield previous
        held = span
    if held is not None:
        yield _chunk(text, index, held, "end", previous, headings_at)


def _chunk(text: str, index, span, boundary: str, previous: Chunk | None, headings_at) -> Chunk:
    start, end, _ = span
    # the text it repeats of the one before (LangChain's overlap; all of it, for a repeated tail)
    repeated = min(end, previous.end) if previous is not None and start < previous.end else start
    return Chunk(
        index=0 if previous is None else previous.index + 1, text=text[start:end], start=start, end=end,
        token_count=index.count(start, end), overlap_tokens=index.count(start, repeated) if repeated > start else 0,
        boundary=boundary, headings=headings_at(start) if headings_at is not None else (),
    )
