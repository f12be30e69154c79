"""Markdown with code: a fenced block whose info string names a language
(```python, ```js, ```rust,ignore) is cut like that language's code.

Inside such a block the prose levels are replaced by the code ladder's
(code/cuts.py), read from a scan of the block's body in its own language:
  PARAGRAPH  before a top-level definition, then before a nested one, then a
             blank line outside strings and comments (the strongest that keeps
             the chunk full enough, the shallowest of its cuts)
  LINE       a line end outside strings and comments (the shallowest)
  SENTENCE   any line end (code has no sentences: this is the code ladder's LINE)
  PHRASE     none
Headings and words are the same as outside. The fence lines themselves are
never cut after (the opening) or before (the closing): a chunk never ends with
a lone ```python nor starts with a lone ```. A chunk that starts inside a block
keeps its line's indentation, as code does. Chunks report the code level they
end at (definition, nested, statement...). Blocks without a known language stay
prose, as before.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cached_property

from ..code.scan import scan
from ..code.cuts import CodeOutline, CodeSeparators, code_chunk_start
from ..code.languages import fence_language
from .markdown import Outline
from ..types import DEFINITION, LINE, NESTED, PARAGRAPH, PHRASE, SENTENCE, STATEMENT
from .separators import Separators
from ..unicode.whitespace import skip_space, trim_end
from ..packing.strategies import CODE_STRUCTURE as _STRUCTURAL

# A prose level -> the code levels that stand for it inside a block, strongest first.
_CODE_LEVELS = {
    PARAGRAPH: (DEFINITION, NESTED, PARAGRAPH),
    LINE: (STATEMENT,),
    SENTENCE: (LINE,),
    PHRASE: (),
}


class _Block:
    """One fenced block of a known language: its span (no prose cut in it) and its
    code cuts, as offsets in the whole text. The body is scanned when a cut is first
    looked for in it: most blocks of a document fit inside a chunk, and a scan costs
    about what encoding the block does."""

    def __init__(self, text: str, fence, language: str):
        self.start, self.end = fence.start, fence.end
        self.body, self.body_end = fence.body, fence.body_end
        self._text, self._language = text, language

    @cached_property
    def levels(self) -> dict[int, tuple[list[int], list]]:
        """code level -> (cuts, depth keys), sorted by cut."""
        body = self._text[self.body : self.body_end]
        structure = scan(body, self._language)
        code = CodeSeparators(body, CodeOutline(structure), structure)
        shift = self.body
        # A cut before the body's first text or after its last would leave a fence
        # line alone in a chunk (a blank line right inside a fence is no cut).
        first, last = skip_space(body, 0), trim_end(body, 0, len(body))
        levels = {}
        for level, (pos, keys) in code._levels.items():
            kept = [(p, key) for p, key in zip(pos, keys) if first < p < last]
            levels[level] = ([p + shift for p, _ in kept], [key for _, key in kept])
        return levels

    @cached_property
    def reported(self) -> dict[int, int]:
        """What each cut is reported as: the strongest code level it belongs to."""
        reported = {}
        for level in (LINE, STATEMENT, PARAGRAPH, NESTED, DEFINITION):
            for p in self.levels[level][0]:
                reported[p] = level
        return reported

    def cuts(self, level: int, lo: int, hi: int) -> list[int]:
        found = set()
        for code_level in _CODE_LEVELS[level]:
            pos = self.levels[code_level][0]
            found.update(pos[bisect_left(pos, lo) : bisect_right(pos, hi)])
        return sorted(found)

    def _best(self, code_level: int, lo: int, hi: int) -> int | None:
        """The shallowest cut of a code level in [lo, hi], the last of those."""
        pos, keys = self.levels[code_level]
        i, j = bisect_left(pos, lo), bisect_right(pos, hi)
        if j <= i:
            return None
        window = keys[i:j]
        shallowest = min(window)
        return pos[i + max(k for k, key in enumerate(window) if key == shallowest)]

    def pick(self, level: int, lo: int, hi: int, fill: int | None) -> int | None:
        """With a fill: the strongest code level with a cut at or after it (its
        shallowest, last); else, as without a fill, the last cut of any of them."""
        if hi < lo:
            return None
        if fill is not None:
            for code_level in _CODE_LEVELS[level]:
                cut = self._best(code_level, max(lo, fill), hi)
                if cut is not None:
                    return cut
        found = self.cuts(level, lo, hi)
        return found[-1] if found else None


class FencedSeparators(Separators):
    """Separators for Markdown (and prose) with fenced code of known languages."""

    uses_fill = True

    def __init__(self, text: str, outline: Outline, blocks: list[_Block]):
        super().__init__(text, outline)
        self.blocks = blocks
        self._starts = [b.start for b in blocks]

    def _block_at(self, pos: int) -> _Block | None:
        """The block whose span (fence lines included) holds pos."""
        i = bisect_right(self._starts, pos) - 1
        return self.blocks[i] if i >= 0 and pos < self.blocks[i].end else None

    def _blocks_in(self, lo: int, hi: int) -> list[_Block]:
        """The blocks whose spans meet [lo, hi], in order."""
        i = max(0, bisect_right(self._starts, lo) - 1)
        j = bisect_right(self._starts, hi)
        return [b for b in self.blocks[i:j] if b.end > lo]

    def _may_cut(self, level: int) -> bool:
        return level in _CODE_LEVELS or super()._may_cut(level)  # (a block's code cuts stand for them)

    def has_code(self, lo: int, hi: int) -> bool:
        # The last block that starts by hi meets [lo, hi] if any does: the blocks are
        # disjoint, so every earlier one ends before it starts.
        i = bisect_right(self._starts, hi) - 1
        return i >= 0 and self.blocks[i].end > lo

    def cuts(self, level: int, lo: int, hi: int):
        if level not in _CODE_LEVELS or not self.has_code(lo, hi):  # most windows: prose only
            return super().cuts(level, lo, hi)
        blocks = self._blocks_in(lo, hi)
        # the prose cuts outside the blocks (any block that holds one meets [lo, hi])
        prose = [c for c in super().cuts(level, lo, hi) if not any(b.start <= c < b.end for b in blocks)]
        code = [c for b in blocks for c in b.cuts(level, lo, hi)]
        return iter(sorted(prose + code))

    def _unit_starts(self, levels: tuple[int, ...], lo: int, hi: int, chunk_start) -> list[int]:
        # (unit_starts then drops those inside a table row, as it does without code)
        if self.has_code(lo, hi):  # a block's own cuts stand for the prose levels, and keep indentation
            return self._starts_of_cuts(levels, lo, hi, chunk_start)
        return super()._unit_starts(levels, lo, hi, chunk_start)

    def last(self, level: int, lo: int, hi: int, fill: int | None = None) -> int | None:
        if level not in _CODE_LEVELS or not self.has_code(lo, hi):  # most windows: prose only
            return super().last(level, lo, hi)
        if hi < lo:
            return None
        # the last prose cut outside the blocks
        prose, top = None, hi
        while top >= lo:
            cut = super().last(level, lo, top)
            block = None if cut is None else self._block_at(cut)
            if block is None:
                prose = cut
                break
            top = block.start - 1
        # a cut inside a block after it wins: the last block that has one
        after = lo if prose is None else prose + 1
        for block in reversed(self._blocks_in(after, hi)):
            cut = block.pick(level, after, hi, fill)
            if cut is not None:
                return cut
        return prose

    def level_of(self, cut: int, level: int) -> int:
        if level in _CODE_LEVELS:
            block = self._block_at(cut)
            if block is not None:
                return block.reported.get(cut, level)
        return level

    def is_weak(self, cut: int) -> bool:
        block = self._block_at(cut)
        if block is None:
            return super().is_weak(cut)
        return block.reported.get(cut) not in _STRUCTURAL

    def chunk_start(self, cut: int) -> int:
        start = super().chunk_start(cut)
        block = self._block_at(start)
        if block is not None and block.body <= start < block.body_end:
            return code_chunk_start(self.text, cut)  # indentation kept
        return start


def separators_for(text: str, outline) -> Separators:
    """FencedSeparators when the text has a fenced block of a known language, else Separators."""
    blocks = []
    for fence in getattr(outline, "fences", ()):
        language = fence_language(fence.info)
        if language is not None and fence.body_end > fence.body:
            blocks.append(_Block(text, fence, language))
    return FencedSeparators(text, outline, blocks) if blocks else Separators(text, outline)
