"""The packing routine: one loop that places every cut under the exact budget.

Each chunk starts at a;
  1. estimate hi, the farthest end within the budget, from the token index;
  2. pick a cut in (floor, hi] by the strategy's rule (strongest first for smart);
  3. count the chunk exactly; if it is over (estimates can be off by a token
     or two at the edges), lower hi and pick again.
Overlap: the next chunk starts inside this one's tail (at a sentence or word
start), and `floor` makes sure it still ends past this one.
"""
from __future__ import annotations

import math
import time

from . import graphemes
from .counter import CharIndex, TokenIndex
from .markdown import Outline
from .model import BOUNDARIES, ENCODINGS, HEADING, STRATEGIES, TOKEN, Chunk, Result, Settings
from .separators import Separators, next_space, skip_space, trim_end
from .strategies import MIN_FILL, RULES, fallback_levels
from .textio import replace_surrogates
from .tokenizers import get_tokenizer

END = -1  # the pseudo level of the document's end
# Any single code point is at most 4 UTF-8 bytes, each a token of its own at worst.
MIN_BPE_BUDGET = 4


def settle(max_tokens, overlap, strategy: str, encoding: str) -> tuple[int, int, list[str]]:
    """Validate settings; return the budget and overlap to use, and what was adjusted."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    for name, value in (("max_tokens", max_tokens), ("overlap", overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be a whole number, not {value!r}")
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, not {max_tokens}")
    if overlap < 0:
        raise ValueError(f"overlap must be 0 or more, not {overlap}")
    warnings = []
    budget = max_tokens
    if encoding != "chars" and budget < MIN_BPE_BUDGET:
        budget = MIN_BPE_BUDGET
        warnings.append(
            f"max_tokens {max_tokens} is too small: one character can take up to {MIN_BPE_BUDGET} tokens,"
            f" so chunks use a budget of {MIN_BPE_BUDGET}."
        )
    elif budget == 1:
        warnings.append("max_tokens 1 makes every character its own chunk.")
    limit = budget // 2
    if overlap > limit:
        warnings.append(
            f"overlap {overlap} is more than half of the {budget}-token budget;"
            f" it was clamped to {limit} so every chunk still adds new text."
        )
        overlap = limit
    return budget, overlap, warnings


class ChunkJob:
    """Chunks one document incrementally: step() returns the next chunks within a
    time slice, so a caller (the page's worker) can render and cancel between slices."""

    def __init__(self, text: str, *, max_tokens=512, overlap=64, strategy="smart", encoding="cl100k_base"):
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        budget, overlap, warnings = settle(max_tokens, overlap, strategy, encoding)
        text, surrogates = replace_surrogates(text)
        if surrogates:
            warnings.append(f"{surrogates} lone surrogate code point(s) were replaced by U+FFFD.")
        self.text = text
        self.settings = Settings(budget, overlap, strategy, encoding)
        self.warnings = warnings
        self.rule = RULES[strategy]
        # Tokens a chunk must reach for a cut of each level to be taken (smart).
        self._fill = {level: math.ceil(share * budget) for level, share in MIN_FILL.items()}
        tokenizer = get_tokenizer(encoding)
        self.index = CharIndex(text) if encoding == "chars" else TokenIndex(text, tokenizer)
        self.outline = Outline(text)
        self.seps = Separators(text, self.outline)
        self.chunks: list[Chunk] = []
        self.stop = trim_end(text, 0, len(text))  # end of the last non-whitespace character
        self.pos = skip_space(text, 0) if self.stop else 0
        self.prev_end = 0  # end of the previous chunk: overlap lies before it
        self.overlap_tokens = 0  # exact count of text[pos:prev_end]

    @property
    def done(self) -> bool:
        return self.pos >= self.stop

    @property
    def progress(self) -> float:
        return 1.0 if self.done else self.pos / self.stop

    def step(self, max_seconds: float | None = None, max_chunks: int | None = None) -> list[Chunk]:
        """Make chunks until the time or count limit, or the end; returns the new ones."""
        made = []
        started = time.perf_counter()
        while not self.done:
            made.append(self._next_chunk())
            if max_chunks is not None and len(made) >= max_chunks:
                break
            if max_seconds is not None and time.perf_counter() - started >= max_seconds:
                break
        return made

    def result(self) -> Result:
        self.step()
        return Result(self.chunks, self.index.total(), self.settings, self.warnings)

    # -- one chunk -----------------------------------------------------------
    def _next_chunk(self) -> Chunk:
        a = self.pos
        floor = max(a, self.prev_end)
        plan = self._plan(a, floor)
        if plan is None:  # the overlap left no room for new text: drop it
            a = floor = skip_space(self.text, self.prev_end)
            plan = self._plan(a, floor)
        cut, level, end, count = plan
        overlap_tokens = self.overlap_tokens if a < self.prev_end else 0
        chunk = Chunk(
            index=len(self.chunks),
            text=self.text[a:end],
            start=a,
            end=end,
            token_count=count,
            overlap_tokens=overlap_tokens,
            boundary=BOUNDARIES[level + 1] if level != END else "end",
            headings=self.outline.path_at(a),
        )
        self.chunks.append(chunk)
        self._advance(a, cut, level, end)
        return chunk

    def _advance(self, a: int, cut: int, level: int, end: int) -> None:
        if level == END:
            self.pos = self.stop
            return
        fresh = skip_space(self.text, cut)
        self.prev_end = end
        # A new section starts clean: no overlap across a heading.
        overlap = None
        if self.settings.overlap and level != HEADING and fresh < self.stop:
            overlap = self._overlap_start(a, end)
        self.pos, self.overlap_tokens = overlap or (fresh, 0)

    def _plan(self, a: int, floor: int):
        """(cut, level, end, exact count) for the chunk starting at a, or None."""
        budget = self.settings.max_tokens
        hi = self._reach(a, budget)
        if hi >= self.stop and not self.rule.must:
            count = self.index.count(a, self.stop)
            if count <= budget:
                return self.stop, END, self.stop, count
            hi = self.stop - 1
        while hi > floor:
            cut, level = self._pick(a, floor, min(hi, self.stop))
            end = self.stop if level == END else trim_end(self.text, a, cut)
            count = self.index.count(a, end)
            if count <= budget:
                return cut, level, end, count
            if end > hi:  # the one-character fallback did not fit either
                break
            hi = end - 1
        if a == floor:  # no room even for one character: impossible with budget >= 4
            raise AssertionError("no cut fits the budget")  # pragma: no cover
        return None

    def _reach(self, a: int, tokens: int) -> int:
        """Roughly the farthest offset that keeps text[a:] within `tokens`."""
        k = self.index.tokens_before(a) + tokens
        return self.index.offset_after(k)

    def _pick(self, a: int, floor: int, hi: int):
        """Choose a cut in (floor, hi]: (cut, level); a token cut when nothing else fits."""
        rule, seps, text = self.rule, self.seps, self.text
        if rule.hard:
            return self._token_cut(a, floor, hi), TOKEN
        if rule.must:
            cut = self._must_cut(a, floor, hi)
            if cut is not None:
                return cut, rule.must[0]
            if hi >= self.stop:
                return self.stop, END
        if rule.greedy:
            best = None
            for level in rule.levels:
                cut = seps.last(level, floor + 1, hi)
                if cut is not None and trim_end(text, a, cut) > floor and (best is None or cut > best[0]):
                    best = (cut, level)
            if best:
                return best
            levels = fallback_levels(rule)
        else:
            levels = rule.levels
        # Structure first: the strongest cut that keeps the chunk reasonably full;
        # else the farthest cut of any level below its fill, before a token cut.
        # The last cut of a level decides both, so each level is searched once,
        # and its fill offset is looked up only when it has a cut at all.
        first_token = self.index.tokens_before(a)
        fallback = None
        for level in levels:
            cut = seps.last(level, floor + 1, hi)
            if cut is None or trim_end(text, a, cut) <= floor:
                continue  # no cut, or only whitespace before it: neither will an earlier one do
            if cut >= self.index.offset_after(first_token + self._fill[level]):
                return cut, level
            if fallback is None or cut > fallback[0]:
                fallback = (cut, level)
        if fallback:
            return fallback
        return self._token_cut(a, floor, hi), TOKEN

    def _must_cut(self, a: int, floor: int, hi: int) -> int | None:
        """The first must-cut (a heading) after some body text of this chunk."""
        body = a
        while (heading := self.outline.heading_at(body)) is not None:
            body = skip_space(self.text, heading.end)
        for cut in self.seps.cuts(HEADING, max(floor + 1, body + 1), hi):
            if trim_end(self.text, a, cut) > floor:
                return cut
        return None

    def _token_cut(self, a: int, floor: int, hi: int) -> int:
        """A cut between tokens at or before hi that splits no grapheme cluster;
        at the least, one more character than the floor."""
        cut = graphemes.snap_back(self.text, hi, floor)
        if trim_end(self.text, a, cut) > floor:
            return cut
        return skip_space(self.text, floor) + 1

    # -- overlap -------------------------------------------------------------
    def _overlap_start(self, a: int, end: int) -> tuple[int, int] | None:
        """Where the next chunk starts inside this one's tail and the exact token
        count of the repeated text, or None for no overlap."""
        overlap, index, text = self.settings.overlap, self.index, self.text
        end_tokens = index.tokens_before(end)
        first = end_tokens - overlap
        lo = max(a + 1, index.offset_after(first) if first > index.tokens_before(a) else a + 1)
        if lo >= end:
            return None
        rule = self.rule
        if rule.overlap_unit is None:
            start = skip_space(text, graphemes.snap_forward(text, lo, end))
            while start < end:
                count = index.count(start, end)
                if count <= overlap:
                    return start, count
                start = skip_space(text, graphemes.snap_forward(text, start + 1, end))
            return None
        # Choose by the estimate from the token index, then count exactly once.
        start = self.seps.unit_start(rule.overlap_unit, lo, end)
        if start is not None and end_tokens - index.tokens_before(start) >= overlap * rule.overlap_min_share:
            count = index.count(start, end)
            if count <= overlap:
                return start, count
        start = self._word_start(lo, end)
        while start is not None:
            count = index.count(start, end)
            if count <= overlap:
                return start, count
            start = self._word_start(start + 1, end)
        return None

    def _word_start(self, lo: int, end: int) -> int | None:
        """The first offset in [lo, end) that begins a word (follows whitespace)."""
        text = self.text
        i = lo
        if i > 0 and not text[i - 1].isspace():
            i = next_space(text, i, end)
            if i is None:
                return None
        start = skip_space(text, i)
        return start if start < end else None


def chunk_document(text: str, *, max_tokens=512, overlap=64, strategy="smart", encoding="cl100k_base") -> Result:
    """Chunk the whole text at once; the Result also carries warnings and the source's token count."""
    job = ChunkJob(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
    return job.result()
