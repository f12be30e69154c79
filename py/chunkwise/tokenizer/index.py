"""Exact token counts of any slice of a document, at the cost of about one
tokenizer pass over the whole document.

Why this is exact: tiktoken first splits text into pre-tokens with a regex that
never looks behind and looks ahead at most one character, then encodes each
pre-token on its own. At a "separable" offset p (tiktoken/encoder.py) the pre-token
before p can neither grow past p nor be changed by what follows, so
encode(s) == encode(s[:p]) + encode(s[p:]) for every string s with the same two
characters around p. The document is therefore tokenized once, in blocks split
at separable offsets, and the count of text[a:b] is

    count(text[a:q1]) + (tokens between q1 and q2) + count(text[q2:b])

where q1 and q2 are the first and last separable offsets inside the slice (q1
is a itself at a line start): two tiny encodes plus a lookup. Where a document
may be split is the tokenizer's to say (base.py); tests check each rule on
random Unicode against the real libraries.

Token ends are kept as character offsets, so lookups never convert between
bytes and characters: a C int a token, or with numpy (tiktoken) two bytes, and
about one in a giant pre-token (token_ends.py).
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from typing import TYPE_CHECKING

from ..unicode.whitespace import CLASS as _SPACE

if TYPE_CHECKING:  # (base.py builds the index: it imports this module)
    from .base import Tokenizer

# Inside a run of whitespace, of letters and digits (\w), or of other characters,
# no offset is separable under tiktoken's rule (separable_between_runs). A long
# stretch without a separable offset (a giant pre-token) is skipped a run at a
# time: re steps over a run in C, where the rule's pattern tries every offset.
_RUN = re.compile(rf"[{_SPACE}]+|\w+|[^\w{_SPACE}]+")
_SCAN = 256  # offsets first_separable tries one by one before it skips runs
_SHORT = 48  # ASCII slices this short are simply encoded
_SEQUENCES = (list, array)  # a block's ends as plain ints (else token_ends' numpy ones)
_BLOCK = 1 << 16  # characters tokenized per step


class TokenIndex:
    """Tokenizes a document lazily, front to back, and counts any slice exactly."""

    def __init__(self, text: str, tokenizer: Tokenizer):
        self.text = text
        self.n = len(text)
        self._encode = tokenizer.encode
        # A tail (text after a separable offset) continues the document: Hugging Face
        # tokenizers that prefix the start of an input (Prepend "▁") encode it without.
        self._encode_tail = tokenizer.encode_continued
        # Where the document may be split: the tokenizer's own rule (base.py).
        self._separable = tokenizer.separable
        self._separable_match = tokenizer.separable_check
        self._skips_runs = tokenizer.separable_between_runs
        # What the separable patterns run over: re's \w as the tokenizer's own tables
        # say (tiktoken's pinned ones, or a Hugging Face file's library's).
        self._known = tokenizer.as_known(text)
        self._char_ends = tokenizer.char_ends
        self.done = 0  # text[:done] is tokenized; done is separable (or the end)
        # The text is tokenized in blocks. For each block: its first character,
        # the tokens before it, and the character offset after each of its tokens.
        self._block_starts: list[int] = []
        self._block_tokens: list[int] = []
        self._block_ends: list = []  # lists or arrays of ints, or with numpy token_ends' (see tokenizers.char_ends)
        # each block's ends as bisect searches them directly: (ends relative to base, base), or
        # (None, 0) where only the block can say (the packer asks a few times a chunk: no method call)
        self._block_search: list[tuple] = []
        self.tokens = 0  # tokens in text[:done]
        self._tokens_before: dict[int, int] = {}  # memo: offset -> tokens before it
        self._head_memo: tuple = (-1, None, 0)  # (a, q1, tokens of text[a:q1])
        self._tail_memo: tuple = (-1, -1, 0)  # (b, q2, tokens of text[q2:b])
        self._piece_counts: dict[str, int] = {}
        self._tail_counts: dict[str, int] = {}

    # -- separable offsets ---------------------------------------------------
    def first_separable(self, lo: int, hi: int) -> int | None:
        """First separable offset p with lo <= p < hi, judged inside text[:hi]."""
        text, known = self.text, self._known
        near = min(hi, lo + _SCAN) if self._skips_runs else hi
        for m in self._separable.finditer(known, lo, near):
            if self._separable_match(text, m):
                return m.start()
        p = near
        while p < hi:  # only where a run ends (each p < hi: judged inside text[:hi] alike)
            if self.is_separable(p):
                return p
            p = _RUN.match(known, p, hi).end()
        return None

    def last_separable(self, lo: int, hi: int) -> int | None:
        """Last separable offset p with lo <= p <= hi, judged in the whole text."""
        # The common cases: a chunk ends before whitespace, or a character or
        # two after a separable offset (a period, a full-width stop).
        for p in range(hi, max(lo, hi - 3) - 1, -1):
            if self.is_separable(p):
                return p
        text = self.text
        end = min(self.n, hi + 1)
        width = 16
        while True:
            start = max(lo, hi - width)
            found = None
            for m in self._separable.finditer(self._known, start, end):
                if m.start() <= hi and self._separable_match(text, m):
                    found = m.start()
            if found is not None or start == lo:
                return found
            width *= 8

    # -- the token index -----------------------------------------------------
    def _extend(self) -> None:
        start = self.done
        stop = min(self.n, start + _BLOCK)
        if stop < self.n:
            stop = self.last_separable(start + 1, stop) or self.first_separable(stop, self.n) or self.n
        ends = self._char_ends(self.text[start:stop], start)
        self._block_starts.append(start)
        self._block_tokens.append(self.tokens)
        self._block_ends.append(ends)
        self._block_search.append((ends, 0) if isinstance(ends, _SEQUENCES) else ends.searchable())
        self.tokens += len(ends)
        self.done = stop

    def ensure(self, pos: int) -> None:
        """Tokenize at least text[:pos]."""
        while self.done < pos and self.done < self.n:
            self._extend()

    def total(self) -> int:
        self.ensure(self.n)
        return self.tokens

    def tokens_before(self, pos: int) -> int:
        """How many document tokens end at or before pos (exact at separable offsets)."""
        known = self._tokens_before.get(pos)
        if known is not None:
            return known
        if pos > self.done:
            self.ensure(pos)
        if len(self._tokens_before) > 64:  # the packer asks about a few recent offsets
            self._tokens_before.clear()
        block = bisect_right(self._block_starts, pos) - 1
        if block < 0:
            return 0
        ends, base = self._block_search[block]
        inside = bisect_right(ends, pos - base) if ends is not None else self._block_ends[block].count_to(pos)
        known = self._tokens_before[pos] = self._block_tokens[block] + inside
        return known

    def tokens_before_each(self, offsets: list[int]) -> list[int]:
        """tokens_before of each of these sorted offsets: one search of the block when
        they share it (the unit starts in a chunk's tail, a few hundred characters apart)."""
        if not offsets:
            return []
        self.ensure(offsets[-1])
        block = bisect_right(self._block_starts, offsets[0]) - 1
        if block < 0 or block != bisect_right(self._block_starts, offsets[-1]) - 1:
            return [self.tokens_before(pos) for pos in offsets]
        ends, base = self._block_ends[block], self._block_tokens[block]
        if isinstance(ends, _SEQUENCES):
            return [base + bisect_right(ends, pos) for pos in offsets]
        return [base + k for k in ends.count_each(offsets)]

    def offset_after(self, k: int) -> int:
        """The character offset where the first k document tokens end; a token that
        ends inside a character (a byte of a longer UTF-8 sequence) counts it whole."""
        if k <= 0:
            return 0
        while self.tokens < k and self.done < self.n:
            self._extend()
        if k > self.tokens:
            return self.n
        block = bisect_right(self._block_tokens, k - 1) - 1
        ends, base = self._block_search[block]
        i = k - 1 - self._block_tokens[block]
        return base + ends[i] if ends is not None else self._block_ends[block][i]

    # -- exact counts --------------------------------------------------------
    def count(self, a: int, b: int) -> int:
        """The exact token count of text[a:b]."""
        return self._count(a, b, self.tokens_before)

    def count_knowing_total(self, a: int, b: int, total: int) -> int:
        """The exact token count of text[a:b] where the whole text's count is known (the
        tokenizer's, `total`) and the text is not tokenized here: the tokens before a
        separable offset are then a tiny encode of the text before it, or the total less
        one of the text after it (count's formula, without the index). For a short text
        less the whitespace at its ends (the packer's whole text, as one chunk)."""
        text, n, encode, encode_tail = self.text, self.n, self._encode, self._encode_tail

        def tokens_before(q: int) -> int:  # (q is 0, n, or separable: see _head and _tail)
            if q == 0:
                return 0
            if q == n:
                return total
            return len(encode(text[:q])) if q <= n - q else total - len(encode_tail(text[q:]))

        return self._count(a, b, tokens_before)

    def _count(self, a: int, b: int, tokens_before) -> int:
        if b - a <= _SHORT:
            piece = self.text[a:b]
            # Short ASCII is cheapest to encode whole. Other scripts can be one long
            # pre-token (a CJK clause) whose merge cost grows with its square.
            if b - a <= 12 or piece.isascii():
                return len(self._encode(piece))
        if a == 0:  # the first block was encoded from the start, as this slice is (a BOS at 0 included)
            q2, tail = self._tail(0, b)
            if q2 > 0:
                return tokens_before(q2) + tail
        q1, head = self._head(a, b)
        if q1 is None:
            return len(self._encode(self.text[a:b]))
        q2, tail = self._tail(q1, b)
        return head + tokens_before(q2) - tokens_before(q1) + tail

    # A chunk's count and its overlap's count share their end, and the next
    # chunk starts where the overlap did: remember the last head and tail.
    def _head(self, a: int, b: int) -> tuple[int | None, int]:
        """The first separable offset q1 in (a, b), or a itself, and the count of text[a:q1]."""
        memo = self._head_memo
        if memo[0] == a and memo[1] is not None and memo[1] < b:
            return memo[1], memo[2]
        if self.text[a - 1 : a] in ("\n", "\r") and self.is_separable(a):
            q1, head = a, 0
        else:
            q1 = self.first_separable(a + 1, b)
            head = self._count_piece(self.text[a:q1], self._piece_counts, self._encode) if q1 is not None else 0
        self._head_memo = (a, q1, head)
        return q1, head

    def _tail(self, q1: int, b: int) -> tuple[int, int]:
        """The last separable offset q2 in (q1, b], else q1, and the count of text[q2:b]."""
        memo = self._tail_memo
        if memo[0] == b and memo[1] > q1:
            return memo[1], memo[2]
        q2 = b if b == self.n else (self.last_separable(q1 + 1, b) or q1)
        tail = self._count_piece(self.text[q2:b], self._tail_counts, self._encode_tail) if q2 < b else 0
        self._tail_memo = (b, q2, tail)
        return q2, tail

    @staticmethod
    def _count_piece(piece: str, memo: dict, encode) -> int:
        """Tokens of a head or tail; short ones repeat ("." "。" ")."), so they are remembered."""
        if len(piece) > 12:
            return len(encode(piece))
        known = memo.get(piece)
        if known is None:
            if len(memo) > 4096:
                memo.clear()
            known = memo[piece] = len(encode(piece))
        return known

    def is_separable(self, p: int) -> bool:
        m = self._separable.match(self._known, p)
        return m is not None and self._separable_match(self.text, m)
