"""Packing a Document under a budget: the settings decide every cut.

The packing routine places every cut under the exact budget. Each chunk starts at a;
  1. estimate hi, the farthest end within the budget, from the token index;
  2. pick a cut in (floor, hi] by the strategy's policy (strongest first for smart);
  3. count the chunk exactly; if it is over (estimates can be off by a token
     or two at the edges), lower hi and pick again.
Overlap: the next chunk starts inside this one's tail (where a unit of the
strategy starts, see _overlap_start), and `floor` makes sure it still ends past this one.
Context (context.py): the chunk's text gets the budget its context leaves.
Parents (parent_tokens): the same strategy makes the parents first; the chunks are
then packed within each parent in turn, so they tile it.
"""
from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import Iterator

from ..cached import cached_property
from ..text import graphemes
from . import topics
from ..code.cuts import CodeOutline
from ..code.languages import resolve
from ..text.markdown import Outline
from ..types import (
    BOUNDARIES, DEFAULT_CONTEXT, DEFAULT_ENCODING, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_UNIT, DEFAULT_STRATEGY, HEADING, SENTENCE, TOKEN,
    Chunk, Result,
)
from ..text.separators import Separators, next_space, skip_space, trim_end
from . import langchain
from .strategies import CODE, CODE_STRUCTURE, END, LEAST_FILL, MIN_FILL, REFERENCE, SPECS
from ..unicode.whitespace import is_space
from .context import NO_PREFIX, Context, Prefix
from .cuts import Candidate, Ending, Overlap, Window
from .document import Document
from .policies import POLICIES
from .settings import Checked, check_settings, overlap_range
from ..tokenizer.registry import get_tokenizer

_NOT_YET = object()  # (a reference strategy's next chunk, not looked for yet)

# A text of at most this many UTF-8 bytes a token of the budget is first counted whole,
# before any token index: when it fits, it is the one chunk. Text of every script takes
# more bytes a token than this (in cl100k: English and code 3.4-4.9, Russian 4.1, CJK 2.4,
# where characters a token range from 1.1 to 4.9), so the count is seldom wasted on a
# text over the budget (then one more pass). The index keeps a longer text's ids better.
_WHOLE_TEXT_BYTES_PER_TOKEN = 3
_WHOLE_TEXT_MAX_CHARS = 1 << 14


@lru_cache(maxsize=64)
def _fill_tokens(budget: int) -> tuple[dict[int, int], int]:
    """Tokens a chunk must reach for a cut of each level to be taken (structure first), and
    the least fill (topics; smart reads its Balance): the same for every job of a budget."""
    return {level: math.ceil(share * budget) for level, share in MIN_FILL.items()}, math.ceil(LEAST_FILL * budget)


class ChunkJob:
    """Chunks one document incrementally: step() returns the next chunks within a
    time slice, so a caller (the page's worker) can render and cancel between slices.
    `source` is a Document (prepared once, for many runs) or the text itself, read
    as `language` (see Document). Smart chunks code by the code ladder."""

    def __init__(
        self, source: Document | str, *, max_tokens=DEFAULT_MAX_TOKENS, overlap=None, strategy=DEFAULT_STRATEGY, encoding=DEFAULT_ENCODING,
        language: str | None = None, overlap_unit=DEFAULT_OVERLAP_UNIT, context=DEFAULT_CONTEXT, parent_tokens=None,
        checked: Checked | None = None,
    ):
        """`checked`: the settings checked once already (a Chunker's); the others are then not read."""
        if checked is None:
            checked = check_settings(max_tokens, overlap, strategy, encoding, overlap_unit, context, parent_tokens)
        self.settings = settings = checked.settings
        if checked.tokenizer is not None:
            self.tokenizer = checked.tokenizer
        budget, overlap, strategy, encoding = settings.max_tokens, settings.overlap, settings.strategy, settings.encoding
        overlap_unit, context, parent_tokens = settings.overlap_unit, settings.context, settings.parent_tokens
        if isinstance(source, Document):
            if language is not None and resolve(language) != (source.language or "text"):
                raise ValueError("a Document has its language already; make a new Document for another")
            doc = source
        else:
            doc = Document(source, language)
        self.document = doc
        self.text = doc.text
        # an overlap the caller gave (not the default): say so when no chunk got one
        self._overlap_given = checked.overlap_given
        self.warnings = [*checked.warnings, *doc.warnings]
        self.strategy = SPECS["code" if strategy == "smart" and doc.is_code else strategy]
        self._no_unit_start = 0  # chunks left without an overlap: no unit start within reach
        # chunk starts known to begin a sentence (a unit start: after a cut of a sentence's
        # level or stronger, or where a unit overlap starts): the judge need not be asked
        self._known_starts: set[int] = set()
        # a reference strategy is its own algorithm (langchain.py), chunks made lazily, in order
        self._reference = self._pending = None
        if self.strategy.kind == REFERENCE:  # (on the whole text, trailing whitespace too, as LangChain is given it)
            self._reference = langchain.split(doc.text, doc.index_of(self.tokenizer), budget, overlap, lambda a: self.outline.path_at(a))
            self._pending = _NOT_YET
        else:
            self.policy = POLICIES[self.strategy.kind](self.strategy)
        self._fill, self._least_fill = _fill_tokens(budget)
        self._source_tokens = None  # the text's count, when _whole_text knew it without the index
        self.chunks: list[Chunk] = []
        self.stop = doc.stop  # where the text to chunk ends: the document's, or the parent's
        self.pos = doc.first
        self.prev_end = 0  # end of the previous chunk: overlap lies before it
        self.overlap_tokens = 0  # exact count of text[pos:prev_end]
        self._over_budget_warned = False  # (see _lone_character)
        self.context = Context(doc, self.tokenizer, budget) if context == "headings" else None
        self.parents: list[Chunk] = []
        self._parent = None  # the index of the parent being tiled
        if parent_tokens is not None:
            parents = ChunkJob(
                doc, max_tokens=parent_tokens, overlap=0, strategy=strategy, encoding=encoding,
                overlap_unit=overlap_unit, context=context,
            )
            self.parents = parents.result().chunks
            self.warnings += [w for w in parents.warnings if w not in self.warnings]
            if self.parents:
                self._tile(0)

    def _tile(self, i: int) -> None:
        """Pack the chunks of parent i next: within it, no overlap from the one before."""
        parent = self.parents[i]
        self._parent, self.pos, self.stop = i, parent.start, parent.end
        self.prev_end, self.overlap_tokens = parent.start, 0

    @cached_property
    def tokenizer(self):
        """The encoding's tokenizer (unless the settings came with it loaded)."""
        return get_tokenizer(self.settings.encoding)

    @cached_property
    def index(self):
        """The document's token index for this encoding, built on first use (_whole_text
        may make one chunk of the whole text without it)."""
        return self.document.index_of(self.tokenizer)

    @cached_property
    def _overlap_range(self) -> tuple[int, int, int]:
        s = self.settings
        return overlap_range(s.overlap, s.max_tokens, self.strategy.whole_units and s.overlap_unit == "unit")

    # The outline and the cuts are looked for only once there is a chunk to make:
    # text of whitespace alone makes none (its token count is all it gets).
    @cached_property
    def outline(self) -> Outline | CodeOutline:
        return self.document.outline

    @cached_property
    def seps(self) -> Separators:
        doc = self.document
        return doc.code_separators if doc.is_code or self.strategy.kind == CODE else doc.separators

    @property
    def done(self) -> bool:
        if self._reference is not None:
            return self._peek() is None
        return self.pos >= self.stop and (self._parent is None or self._parent + 1 >= len(self.parents))

    @property
    def progress(self) -> float:
        return 1.0 if self.done else self.pos / self.document.stop

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

    def _explain_no_overlap(self) -> None:
        """An overlap was asked for and no chunk repeats any text: say why, once the last
        chunk is made (else it looks as if the setting did nothing)."""
        chunks = self.chunks
        if not self._overlap_given or len(chunks) < 2:
            return
        if any(c.overlap_tokens for c in chunks):
            if self._no_unit_start and self.strategy.whole_units and self.settings.overlap_unit == "unit":
                n = self._no_unit_start
                self.warnings.append(
                    f"overlap {self.settings.overlap}: {n} chunk{'s' if n > 1 else ''} repeat{'' if n > 1 else 's'} no text"
                    " from the one before: no sentence, line or paragraph start lay within half the budget of its end,"
                    " and an overlap never starts mid-sentence (overlap_unit 'word' starts one at a word)."
                )
            return
        if all(c.boundary == "heading" for c in chunks[:-1]):
            why = "each ends before a heading, and an overlap never crosses one"
        elif self.strategy.whole_units and self.settings.overlap_unit == "unit":
            why = ("no sentence, line or paragraph start lay within half the budget of a chunk's end, and an overlap"
                   " never starts mid-sentence (overlap_unit 'word' starts one at a word)")
        else:
            why = "no place for one to start (a sentence, line or word start) lay within its reach"
        self.warnings.append(f"overlap {self.settings.overlap}: no chunk repeats text from the one before it: {why}.")

    def _explain_context(self) -> None:
        shortened = self.context.shortened if self.context is not None else 0
        if shortened:
            self.warnings.append(
                f"context: the heading path and table header of {shortened} chunk{'s' if shortened > 1 else ''}"
                f" took more than half of max_tokens {self.settings.max_tokens}; the outermost headings"
                " (then the table header) were left out of their embed_text."
            )

    def result(self) -> Result:
        while not self.done:  # (step() without its limits: a short text's one chunk costs no more)
            self._next_chunk()
        source_tokens = self.index.total() if self._source_tokens is None else self._source_tokens
        return Result(
            self.chunks, source_tokens, self.settings, self.warnings, self.document.language, self.parents, self._mid_sentence(),
        )

    def _mid_sentence(self) -> list[int]:
        """The chunks after the first that start mid-sentence (the judge: Document.starts_sentence)."""
        if len(self.chunks) < 2:
            return []
        # (known only where this run cuts by the separators the judge reads: not code's on prose)
        known = self._known_starts if self.document.is_code or self.strategy.kind != CODE else set()
        starts_sentence = self.document.starts_sentence
        return [c.index for c in self.chunks[1:] if c.start not in known and not starts_sentence(c.start)]

    # -- one chunk -----------------------------------------------------------
    def _next_chunk(self) -> Chunk:
        if self._reference is not None:
            return self._next_reference()
        if self.pos >= self.stop:  # this parent is tiled: the next one
            self._tile(self._parent + 1)
        a = self.pos
        ending, prefix, embed_tokens = self._whole_text(a) or self._fit(a, max(a, self.prev_end))
        if ending is None:  # the overlap left no room for new text: drop it
            a = self.document.chunk_start(self.prev_end)
            ending, prefix, embed_tokens = self._fit(a, max(a, self.prev_end))
        if ending is None:  # a line's indentation leaves no room for its text: drop it
            a = skip_space(self.text, a)
            ending, prefix, embed_tokens = self._fit(a, a)
        if ending is None:  # one character alone is over the budget (no room for a context either)
            ending, prefix = self._lone_character(a), NO_PREFIX
            embed_tokens = ending.tokens
        # a chunk that reaches the last text is the last (an overlap after it would add nothing)
        last = ending.level == END or ending.end == self.stop
        if last and self._parent is not None and self._parent + 1 < len(self.parents):
            boundary = self.parents[self._parent].boundary  # the last in its parent ends as the parent does
        elif last:
            boundary = "end"
        else:
            boundary = BOUNDARIES[self.seps.level_of(ending.cut, ending.level) + 1]
        text = self.text[a : ending.end]
        embed = {}
        if self.context is not None:
            embed = {"embed_text": prefix.text + text, "embed_tokens": embed_tokens}
        chunk = Chunk(
            index=len(self.chunks),
            text=text,
            start=a,
            end=ending.end,
            token_count=ending.tokens,
            overlap_tokens=self.overlap_tokens if a < self.prev_end else 0,
            boundary=boundary,
            headings=self.outline.path_at(a),
            parent=self._parent,
            **embed,
        )
        self.chunks.append(chunk)
        self._advance(a, ending, last)
        if self.done:
            self._explain_no_overlap()
            self._explain_context()
        return chunk

    def _peek(self) -> Chunk | None:
        """The reference strategy's next chunk (None after the last), made when first asked for."""
        if self._pending is _NOT_YET:
            self._pending = next(self._reference, None)
        return self._pending

    def _next_reference(self) -> Chunk:
        chunk = self._peek()
        self._pending = _NOT_YET
        self.chunks.append(chunk)
        self.pos = min(chunk.end, self.stop)  # (the progress)
        return chunk

    def _advance(self, a: int, ending: Ending, last: bool) -> None:
        if last:
            self.pos = self.stop
            return
        fresh = self.document.chunk_start(ending.cut)
        self.prev_end = ending.end
        # A new section starts clean: no overlap across a heading.
        overlap = None
        if self.settings.overlap and ending.level != HEADING and fresh < self.stop:
            overlap = self._overlap_start(a, ending.end)
            self._no_unit_start += overlap is None
        self.pos, self.overlap_tokens = overlap or (fresh, 0)
        if overlap is None and ending.level <= SENTENCE:
            self._known_starts.add(fresh)

    def _fit(self, a: int, floor: int) -> tuple[Ending | None, Prefix, int | None]:
        """The end of the chunk starting at a (past floor), its context, and the exact
        count of the two together, which fits the budget; (None, ...) when no end does.
        Where they take more than their parts (a merge across the join), the text's
        budget shrinks by the difference and the end is picked again."""
        budget = self.settings.max_tokens
        if self.context is None:
            ending = self._ending(a, floor, budget)
            return ending, NO_PREFIX, ending and ending.tokens
        prefix = self.context.at(a)
        room = budget - prefix.tokens
        while room > 0:
            ending = self._ending(a, floor, room)
            if ending is None or not prefix.text:
                return ending, prefix, ending and ending.tokens
            total = self.context.embed_tokens(prefix, self.text[a : ending.end], ending.tokens)
            if total <= budget:
                return ending, prefix, total
            room -= total - budget
        return None, prefix, None

    def _whole_text(self, a: int) -> tuple[Ending, Prefix, int] | None:
        """The whole text as the first and only chunk, known from a count of the text (and
        tiny ones at its ends, where it has whitespace there) before it is tokenized again:
        a short document, as a corpus job's rows mostly are, then costs about one tokenizer
        pass. The same chunk _fit makes: with the text under the budget, its reach is the
        end of the text, and the whole rest fits. None when that is not so, or not asked."""
        budget, text, stop = self.settings.max_tokens, self.text, self.stop
        most = min(_WHOLE_TEXT_BYTES_PER_TOKEN * budget, _WHOLE_TEXT_MAX_CHARS)
        if (self.chunks or self.context is not None or self._parent is not None or a >= stop
                or not self.policy.whole_rest_fits_one_chunk or len(text) > most or len(text.encode()) > most):
            return None
        tokenizer = self.tokenizer
        if self.document.has_index(tokenizer):  # (a Document chunked before: its index counts)
            return None
        total = tokenizer.count(text)
        if total >= budget:  # (at the budget exactly, the reach can stop short of the end)
            return None
        count = total if a == 0 and stop == len(text) else tokenizer.index(text).count_knowing_total(a, stop, total)
        if count > budget:
            return None
        self._source_tokens = total
        return Ending(stop, END, stop, count), NO_PREFIX, count

    def _ending(self, a: int, floor: int, budget: int) -> Ending | None:
        """The end of the chunk starting at a (past floor) that fits the budget, or None."""
        hi = self._reach(a, budget)
        if hi >= self.stop and self.policy.whole_rest_fits_one_chunk:
            count = self.index.count(a, self.stop)
            if count <= budget:
                return Ending(self.stop, END, self.stop, count)
            hi = self.stop - 1
        while hi > floor:
            cut, level = self.policy.pick(self, Window(a, floor, min(hi, self.stop)))
            end = self.stop if level == END else trim_end(self.text, a, cut)
            count = self.index.count(a, end)
            if count <= budget:
                return Ending(cut, level, end, count)
            if end > hi:  # the one-character fallback did not fit either
                break
            hi = end - 1
        return None

    def _lone_character(self, a: int) -> Ending:
        """The character at a as a chunk of its own, over the budget: it alone takes more
        tokens than that. Never with tiktoken (at most MIN_BPE_BUDGET); a Hugging Face
        tokenizer may expand one (NFKC makes ㌚ five katakana, six tokens in
        multilingual-e5-small; byte fallback with a word prefix gives an emoji five).
        The first such character is named in a warning."""
        count = self.index.count(a, a + 1)
        if not self._over_budget_warned:
            self._over_budget_warned = True
            ch = self.text[a]
            self.warnings.append(
                f"U+{ord(ch):04X} ({ch}) alone is {count} tokens, more than max_tokens {self.settings.max_tokens}:"
                f" each such character is a chunk of its own, over the budget."
            )
        return Ending(a + 1, TOKEN, a + 1, count)

    def _reach(self, a: int, tokens: int) -> int:
        """Roughly the farthest offset that keeps text[a:] within `tokens`."""
        k = self.index.tokens_before(a) + tokens
        return self.index.offset_after(k)

    # -- the candidates a policy picks from -----------------------------------
    def candidates(self, w: Window, levels: tuple[int, ...], filled: bool = False) -> Iterator[Candidate]:
        """For each level in order, its last cut in the window, where one leaves some
        text in the chunk (no cut, or only whitespace before it: an earlier one will
        not do either). Lazy: a policy that stops early searches no weaker level.
        `filled`: separators that choose among their cuts by the fill (fenced code:
        the strongest code cut that keeps the chunk full enough) are told it."""
        last, text = self.seps.last, self.text
        fill = filled and self.seps.uses_fill
        for level in self.seps.present(levels):
            cut = last(level, w.floor + 1, w.hi, self._fill_offset(w.a, self._fill[level])) if fill else last(level, w.floor + 1, w.hi)
            if cut is not None and trim_end(text, w.a, cut) > w.floor:
                yield Candidate(cut, level)

    def structure_first(self, w: Window, levels: tuple[int, ...]) -> Candidate:
        """The strongest cut that keeps the chunk reasonably full; else the farthest
        cut of any level below its fill; else a cut between tokens. A weak cut (in
        fenced code: inside a string, a comment or a line) comes after every other:
        the first weak one that fills the chunk, else the farthest weak one."""
        fallback = weak_filled = weak_fallback = None
        is_weak = self.seps.is_weak
        for c in self.candidates(w, levels, filled=True):
            filled = c.cut >= self._fill_offset(w.a, self._fill[c.level])
            if is_weak(c.cut):
                if filled and weak_filled is None:
                    weak_filled = c
                elif weak_fallback is None or c.cut > weak_fallback.cut:
                    weak_fallback = c
                continue
            if filled:
                return c
            if fallback is None or c.cut > fallback.cut:
                fallback = c
        return fallback or weak_filled or weak_fallback or self.token_cut(w)

    def code_first(self, w: Window, levels: tuple[int, ...]) -> Candidate:
        """The code ladder: the strongest level with a cut that keeps the chunk
        reasonably full, and of its cuts the shallowest (the last of those); else
        the farthest cut outside strings and comments; else the farthest line end;
        else the farthest word; else a cut between tokens."""
        best, text = self.seps.best, self.text
        for level in levels:
            if level not in CODE_STRUCTURE:
                break
            cut = best(level, max(w.floor + 1, self._fill_offset(w.a, self._fill[level])), w.hi)
            if cut is not None and trim_end(text, w.a, cut) > w.floor:
                return Candidate(cut, level)
        structural = tuple(level for level in levels if level in CODE_STRUCTURE)
        rest = tuple(level for level in levels if level not in CODE_STRUCTURE)
        for group in (structural,) + tuple((level,) for level in rest):
            found = max(self.candidates(w, group), key=lambda c: c.cut, default=None)
            if found is not None:
                return found
        return self.token_cut(w)

    def _fill_offset(self, a: int, tokens: int) -> int:
        """Where a chunk starting at a reaches this many tokens."""
        return self.index.offset_after(self.index.tokens_before(a) + tokens)

    def topic_cut(self, w: Window) -> Candidate | None:
        """Of the heading, paragraph, line and sentence cuts that leave the chunk at
        least LEAST_FILL of the budget, the one where the topic shifts most for
        its strength (topics.best_cut); None when there is none."""
        lo = max(w.floor + 1, self._fill_offset(w.a, self._least_fill))
        if lo > w.hi:
            return None
        text = self.text
        found = [
            (cut, level)
            for level in topics.LEVELS
            for cut in self.seps.cuts(level, lo, w.hi)
            if trim_end(text, w.a, cut) > w.floor and not self.seps.is_weak(cut)  # (fenced code)
        ]
        return Candidate(*topics.best_cut(self.document.cohesion, w.a, found)) if found else None

    def heading_cut(self, w: Window) -> Candidate | None:
        """The first cut before a heading after some body text of this chunk."""
        body = self.outline.body_after(w.a)
        for cut in self.seps.cuts(HEADING, max(w.floor + 1, body + 1), w.hi):
            if trim_end(self.text, w.a, cut) > w.floor:
                return Candidate(cut, HEADING)
        return None

    def token_cut(self, w: Window) -> Candidate:
        """A cut between tokens at or before hi that splits no grapheme cluster;
        at the least, one more character than the floor."""
        cut = graphemes.snap_back(self.text, w.hi, w.floor)
        if trim_end(self.text, w.a, cut) <= w.floor:
            cut = skip_space(self.text, w.floor) + 1
        return Candidate(cut, TOKEN)

    # -- overlap -------------------------------------------------------------
    def _overlap_start(self, a: int, end: int) -> Overlap | None:
        """Where the next chunk starts inside this one's tail (a..end), with the exact
        count of the repeated text; None for no overlap.

        overlap_unit="unit": at a unit start of the strategy (strongest group first)
        whose overlap lies in overlap_range()'s fewest..most, the one nearest the
        requested size; else at the nearest shorter one; else at the nearest longer
        one up to longest; where there is none, at a word start (strategies of whole
        units: no overlap).
        overlap_unit="word", or no unit start in range: the longest tail of whole
        words within the requested size. Token windows: the longest tail of
        characters (never splitting a grapheme cluster)."""
        settings, index = self.settings, self.index
        end_tokens = index.tokens_before(end)
        groups = self.strategy.overlap_starts
        if groups is not None and settings.overlap_unit == "unit":
            found = self._unit_overlap(a, end, end_tokens, groups)
            if found is not None:
                self._known_starts.add(found.start)
            if found is not None or self.strategy.whole_units:
                return found
        first = end_tokens - settings.overlap
        lo = max(a + 1, index.offset_after(first) if first > index.tokens_before(a) else a + 1)
        if lo >= end:
            return None
        starts = self._char_starts(lo, end) if groups is None else self._word_starts(lo, end)
        tables = getattr(self.seps, "tables", None)
        if tables and settings.overlap_unit == "unit":  # no unit start in reach: a word, but not inside a table row
            starts = (s for s in starts if not tables.inside_row(s))
        for start in starts:
            count = index.count(start, end)
            if count <= settings.overlap:
                return Overlap(start, count)
        return None

    def _unit_overlap(self, a: int, end: int, end_tokens: int, groups) -> Overlap | None:
        """The unit start nearest the requested overlap within overlap_range(); where
        there is none, the nearest shorter one (a short overlap that starts where a
        sentence starts reads better than a long one that starts mid-sentence);
        where there is none either, the nearest longer one up to `longest`."""
        index, text, chunk_start, unit_starts_in = self.index, self.text, self.document.chunk_start, self.seps.unit_starts
        fewest, most, longest = self._overlap_range
        a_tokens = index.tokens_before(a)

        def reach(tokens: int) -> int:
            """The first offset whose tail holds about `tokens` (an estimate from the
            token index; the chosen start is counted exactly)."""
            return max(a + 1, index.offset_after(end_tokens - tokens) if end_tokens - tokens > a_tokens else a + 1)

        near, lo = reach(most), reach(longest)
        if lo >= end:
            return None
        # The starts before `short` leave a tail of at least `fewest` (tokens_before(s)
        # <= end_tokens - fewest exactly when s < short): the text after it is searched
        # only when nothing in range is found.
        short = min(end, max(near, index.offset_after(end_tokens - fewest + 1)))

        def unit_starts(first: int, stop: int) -> Iterator[list[tuple[int, int]]]:
            """Per group, the (tail estimate, start) of each unit start in [first, stop);
            lazily: a weaker group is searched only when a stronger one has no start."""
            if first >= stop:
                return
            # a unit may follow a cut in the whitespace before first (a start is never before its cut)
            scan_from = trim_end(text, a, first)
            for levels in groups:
                starts = [s for s in unit_starts_in(levels, scan_from, stop - 1, chunk_start) if first <= s < stop]
                yield [(end_tokens - tokens, s) for tokens, s in zip(index.tokens_before_each(starts), starts)]

        wanted = self.settings.overlap

        def nearest(tails, limit: int) -> Overlap | None:
            for _, start in sorted(tails, key=lambda ts: (abs(ts[0] - wanted), ts[1]))[:4]:
                count = index.count(start, end)
                if 0 < count <= limit:
                    return Overlap(start, count)
            return None

        # in range (about fewest..most tokens), then shorter, then the longer ones
        # before `near`: each searched only when the one before found nothing
        for first, stop in ((near, short), (short, end)):
            for tails in unit_starts(first, stop):
                found = nearest(tails, most)
                if found is not None:
                    return found
        for tails in unit_starts(lo, near):
            found = nearest(tails, longest)
            if found is not None:
                return found
        return None

    def _char_starts(self, lo: int, end: int) -> Iterator[int]:
        """Each offset in [lo, end) that splits no grapheme cluster, past whitespace."""
        text = self.text
        start = skip_space(text, graphemes.snap_forward(text, lo, end))
        while start < end:
            yield start
            start = skip_space(text, graphemes.snap_forward(text, start + 1, end))

    def _word_starts(self, lo: int, end: int) -> Iterator[int]:
        start = self._word_start(lo, end)
        while start is not None:
            yield start
            start = self._word_start(start + 1, end)

    def _word_start(self, lo: int, end: int) -> int | None:
        """The first offset in [lo, end) that begins a word (follows whitespace)."""
        text = self.text
        i = lo
        if i > 0 and not is_space(text[i - 1]):
            i = next_space(text, i, end)
            if i is None:
                return None
        start = skip_space(text, i)
        return start if start < end else None


def chunk_document(
    text: str, *, max_tokens=DEFAULT_MAX_TOKENS, overlap=None, strategy=DEFAULT_STRATEGY, encoding=DEFAULT_ENCODING, language: str | None = None,
    overlap_unit=DEFAULT_OVERLAP_UNIT, context=DEFAULT_CONTEXT, parent_tokens=None,
) -> Result:
    """Chunk the whole text at once; the Result also carries warnings and the source's token count.
    `text` may be a Document, prepared once for many settings; `language` as for Document."""
    return ChunkJob(
        text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding, language=language,
        overlap_unit=overlap_unit, context=context, parent_tokens=parent_tokens,
    ).result()
