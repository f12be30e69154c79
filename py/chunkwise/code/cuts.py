"""Where code may be cut: the code ladder's candidate cuts, from a CodeStructure.

Every cut is a line break ("\\n"); the chunk after it starts at the start of its
first non-blank line, indentation kept. Levels (types.py), strongest first:
  DEFINITION  before a top-level definition (its comments and decorators included)
  NESTED      before a nested definition (a method); shallower nesting first
  PARAGRAPH   a blank line outside strings and comments
  STATEMENT   a line end outside strings and comments
  LINE        any line end (also inside a string or comment)
PARAGRAPH and STATEMENT prefer the shallowest depth (brackets, then indentation
of the next line): best() picks the shallowest cut in a window, the last of those.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import compress

from .structure import CODE, CodeStructure
from ..types import DEFINITION, LINE, NESTED, PARAGRAPH, STATEMENT
from ..text.separators import Separators
from ..unicode.whitespace import CHARS as SPACES, skip_space

_INDENT = re.compile(r"[ \t]*")
_BREAK_INDENT = re.compile(r"\n([ \t]*)")  # a line break and the next line's indentation
# A line break before a blank line: nothing but whitespace (as str.strip() reads it) up to the next
_BLANK_AFTER = re.compile(r"\n[^\S\n]*+(?=\n|\Z)")
_INDENTATION = re.compile(r"[ \t\f\v]*")  # what a chunk start may keep of its line
_CODE_LEVELS = (DEFINITION, NESTED, PARAGRAPH, STATEMENT, LINE)


class CodeOutline:
    """What Outline is for Markdown: here no headings at all (a '# comment' is no
    heading), and the path at an offset is the definition path."""

    starts: list[int] = []

    def __init__(self, structure: CodeStructure):
        self.structure = structure
        self.headings = []

    def path_at(self, pos: int) -> tuple[str, ...]:
        return self.structure.path_at(pos)

    def heading_at(self, pos: int):
        return None

    def body_after(self, pos: int) -> int:
        return pos  # (no heading to step over)


class CodeSeparators(Separators):
    """Candidate cuts of the code levels, found once; the prose levels below them
    (words) as for any text."""

    def __init__(self, text: str, outline: CodeOutline, structure: CodeStructure):
        super().__init__(text, outline)
        self.structure = structure
        nls, states, depths = structure.nls, structure.states, structure.depths
        n = len(text)
        # depth key of the line after each line break: brackets first, then indentation
        # (the indentation after every line break in one search, as the scan records them all)
        if len(nls) == text.count("\n"):
            widths = list(map(len, _BREAK_INDENT.findall(text)))
        else:  # pragma: no cover - a scan cut short
            widths = [_INDENT.match(text, nl + 1).end() - nl - 1 for nl in nls]
        keys = [d * 256 + (w if w < 255 else 255) for d, w in zip(depths, widths)]
        stmt_pos = list(compress(nls, map(CODE.__eq__, states)))
        stmt_key = list(compress(keys, map(CODE.__eq__, states)))
        # blank lines outside strings: the line break that ends the last non-blank line
        # (the line after a break is blank when str.strip() leaves nothing of it: found in one
        # search of the text, as the scan records every line break)
        if len(nls) == text.count("\n"):
            blank = {m.start() for m in _BLANK_AFTER.finditer(text)}
        else:  # pragma: no cover - a scan cut short
            blank = {nl for nl, nxt in zip(nls, nls[1:] + [n]) if not text[nl + 1 : nxt].strip()}
        par_pos, par_key = [], []
        last = len(nls) - 1
        for nl in sorted(blank):
            i = bisect_left(nls, nl)
            # the first blank line after a non-blank one (the text's first line counts as blank),
            # with a line after it
            if i == 0 or i == last or nls[i - 1] in blank or states[i] != CODE:
                continue
            j = i + 1  # the next non-blank line's break before it
            while j <= last and nls[j] in blank:
                j += 1
            if j <= last:
                par_pos.append(nl)
                par_key.append(keys[j])
        defs: dict[int, int] = {}  # cut -> nesting level (the strongest at that cut)
        for d in structure.definitions:
            if d.start > 0 and text[d.start - 1] == "\n":
                cut = d.start - 1
                defs[cut] = min(d.level, defs.get(cut, d.level))
        top = sorted(c for c, level in defs.items() if level == 0)
        nested = sorted(c for c, level in defs.items() if level > 0)
        self._levels = {
            DEFINITION: (top, [0] * len(top)),
            NESTED: (nested, [defs[c] for c in nested]),
            PARAGRAPH: (par_pos, par_key),
            STATEMENT: (stmt_pos, stmt_key),
            LINE: (nls, [0] * len(nls)),
        }

    def _may_cut(self, level: int) -> bool:
        return level in self._levels or super()._may_cut(level)  # (its own levels are found otherwise)

    def _range(self, level: int, lo: int, hi: int):
        pos, keys = self._levels[level]
        return pos, keys, bisect_left(pos, lo), bisect_right(pos, hi)

    def cuts(self, level: int, lo: int, hi: int):
        if level not in self._levels:
            return super().cuts(level, lo, hi)
        pos, _, i, j = self._range(level, lo, hi)
        return iter(pos[i:j])

    def unit_starts(self, levels: tuple[int, ...], lo: int, hi: int, chunk_start) -> list[int]:
        return self._starts_of_cuts(levels, lo, hi, chunk_start)  # code's own line cuts

    def last(self, level: int, lo: int, hi: int, fill: int | None = None) -> int | None:
        if level not in self._levels:
            return super().last(level, lo, hi)
        if hi < lo:
            return None
        pos, _, i, j = self._range(level, lo, hi)
        return pos[j - 1] if j > i else None

    def best(self, level: int, lo: int, hi: int) -> int | None:
        """The shallowest cut of this level in [lo, hi]; the last of those."""
        if level not in self._levels:
            return self.last(level, lo, hi)
        if hi < lo:
            return None
        pos, keys, i, j = self._range(level, lo, hi)
        if j <= i:
            return None
        window = keys[i:j]
        shallowest = min(window)
        window.reverse()
        return pos[j - 1 - window.index(shallowest)]

    def chunk_start(self, cut: int) -> int:
        return code_chunk_start(self.text, cut)


def code_chunk_start(text: str, cut: int) -> int:
    """Where the chunk after a cut in code starts: the start of its first non-blank
    line (indentation kept); after a cut inside a line, its next word."""
    if text[cut : cut + 1] == "\n":  # (the ladder's cuts: most lines have text after their indentation)
        q = _INDENTATION.match(text, cut + 1).end()
        if q < len(text) and text[q] not in SPACES:
            return cut + 1
    p = skip_space(text, cut)
    if p == len(text):
        return p
    # p's line start matters only if the line starts at the cut or after it: looked for
    # back to there only (back to the text's start, every chunk of a one-line text, a
    # minified script, cost the text's length: quadratic)
    line = text.rfind("\n", max(cut - 1, 0), p) + 1
    # keep the indentation, but only real indentation: a line entered through
    # a no-break or ideographic space starts at its first word
    return line if line >= cut and _INDENTATION.fullmatch(text, line, p) else p
