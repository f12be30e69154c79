"""What a scan finds (scan.py): each line break with what it is inside of (CODE,
STRING, COMMENT) and the depth after it, and the definitions with their spans and
labels, in one CodeStructure: what the code ladder cuts by (cuts.py)."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

CODE, STRING, COMMENT = 0, 1, 2  # what a line break is inside of
# A chunk's definition path holds at most this many, the innermost: every chunk of a text
# nested 100,000 deep (a line of CSS or JSON that opens a block and never closes it, again
# and again) held all of them, so the paths alone grew with the square of the text.
PATH_DEPTH = 16
PATH_CUT = "…"  # first in a path that left outer definitions out, so no one reads it as the top level
# A line's indentation, as every part of the scanner reads it.
_INDENT = re.compile(r"[ \t\f\v]*")


@dataclass(frozen=True)
class Definition:
    start: int  # where its first attached line (decorator, attribute, doc comment) begins
    line: int  # where its own first line begins
    end: int  # where it ends: the start of the line after its last line
    label: str  # its entry in the definition path: "class Parser", "def parse_args"
    level: int  # 0: top level; 1: nested in one definition (a method)...
    parent: int  # index of the enclosing definition, -1 for none
    signature: str  # its first line, stripped (the optional context)
    transparent: bool = False  # a namespace: its members count as top level


class CodeStructure:
    """Line breaks (offset, state, depth after it) and definitions of one text."""

    def __init__(self, text: str, language: str, nls, states, depths, defs: list[Definition]):
        self.text = text
        self.language = language
        self.nls = nls  # offsets of "\n"
        self.states = states  # CODE, STRING or COMMENT: what each "\n" is inside of
        self.depths = depths  # bracket (and for Python, indentation) depth after each "\n"
        self.definitions = defs  # sorted by start
        self._starts = [d.start for d in defs]
        self._ended: dict[int, tuple[int, int]] = {}  # innermost's memo: first -> (pos, where its walk got)

    def path_at(self, pos: int) -> tuple[str, ...]:
        """The definition path in effect at pos: ("class Parser", "def parse_args"); its
        innermost PATH_DEPTH definitions after PATH_CUT where more enclose pos."""
        d = self.innermost(pos)
        path = []
        while d is not None and len(path) < PATH_DEPTH:
            path.append(self.definitions[d].label)
            d = self.definitions[d].parent
            d = None if d < 0 else d
        if d is not None:
            path.append(PATH_CUT)
        return tuple(reversed(path))

    def innermost(self, pos: int) -> int | None:
        """The index of the innermost definition containing pos, or None."""
        first = i = bisect_right(self._starts, pos) - 1
        # The walk up from the last definition that starts before pos skips those that
        # ended by pos; they stay ended for every later pos, so where it got to is kept
        # and a later pos goes on from there (each chunk after a block nested 10,000 deep
        # walked all of it again).
        known = self._ended.get(first)
        if known is not None and known[0] <= pos:
            i = known[1]
        all_ended = True
        while i >= 0:
            d = self.definitions[i]
            if d.start <= pos < d.end:
                break
            all_ended = all_ended and d.start <= pos
            i = d.parent if d.parent >= 0 else -1
            # a sibling that ended before pos: its parent may still contain pos
        if all_ended and first >= 0 and (known is None or known[0] <= pos):
            self._ended[first] = (pos, i)
        return i if i >= 0 else None

    def context_at(self, pos: int) -> str:
        """The signature line of the innermost definition that starts before pos
        (the chunk starts inside it), or "" at a definition's own start."""
        i = self.innermost(pos)
        while i is not None:
            d = self.definitions[i]
            if d.start < pos and pos > d.line:
                return d.signature
            i = d.parent if d.parent >= 0 else None
        return ""
