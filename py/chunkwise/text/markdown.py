"""Markdown structure: fenced code, ATX and Setext headings, the heading path."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from .tables import Tables, delimited_table, markdown_tables
from ..unicode.whitespace import is_blank, skip_space, strip

# Line-based patterns start with a literal "\n" so the regex engine can jump from
# newline to newline (a "^" with re.M tries every offset: 5x slower on 1 MB).
# The text is searched with a "\n" prepended, so offsets shift by one.
_FENCE = re.compile(r"\n {0,3}(`{3,}|~{3,})([^\n]*)")
# (the title's trailing whitespace is stripped in Python: a lazy title before "[ \t]*$"
# rescanned a long run of spaces inside a title from each of its characters)
_ATX = re.compile(r"\n {0,3}(#{1,6})(?:[ \t]+([^\n]*))?(?=\n|\Z)")
_UNDERLINE = re.compile(r"\n {0,3}(=+|-+)[ \t\r]*(?=\n|\Z)")
_FENCE_MARK = re.compile(r"\n {0,3}[`~]")
_HEADING_MARK = re.compile(r"\n {0,3}[#=\-]")
_ANY_MARK = re.compile(r"\n {0,3}[`~#=\-]")  # either of the two above


@dataclass(slots=True)  # (no __dict__: a document can have a million headings; not frozen: made faster)
class Heading:
    start: int  # where the heading's first line begins: the cut goes before it
    end: int  # end of its last line (the underline for Setext)
    level: int
    title: str


class Fence(NamedTuple):
    """A fenced code block: its fence lines included, [start, end); its body
    (the lines between the fences, without the line break before the closing
    fence), [body, body_end); and the opening fence's info string ("python")."""

    start: int
    end: int
    body: int
    body_end: int
    info: str


def _pair_fences(fences: list[re.Match], length: int) -> list[Fence]:
    """The fenced code blocks (offsets in the text, not the padded text the
    matches are from); an unclosed fence runs to the end."""
    blocks = []
    opening = None  # the opening fence's match
    for m in fences:
        fence = m.group(1)
        if opening is None:
            if fence[0] != "`" or "`" not in m.group(2):  # (a backtick in the info string: inline code, no fence)
                opening = m
        elif fence[0] == opening.group(1)[0] and len(fence) >= len(opening.group(1)) and is_blank(m.group(2)):
            body = min(opening.end(), length)
            blocks.append(Fence(opening.start(), m.end() - 1, body, max(body, m.start() - 1), strip(opening.group(2))))
            opening = None
    if opening is not None:
        body = min(opening.end(), length)
        blocks.append(Fence(opening.start(), length, body, length, strip(opening.group(2))))
    return blocks


def _inside(pos: int, ranges: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and pos < ranges[i][1]


def scan_markdown(text: str) -> tuple[list[Heading], list[Fence]]:
    """Every heading outside fenced code, and every fenced code block, in document order."""
    padded = "\n" + text  # offsets in padded are one more than in text
    if _ANY_MARK.search(padded) is None:  # (most paragraphs: one search, not the passes below)
        return [], []
    # Two passes over the lines that could matter, then the exact pattern for each
    # line: the fences first (a heading inside one is none), then the headings, each
    # made as it is found (a document can have a million: no match is kept).
    fences = [f for m in _FENCE_MARK.finditer(padded) if (f := _FENCE.match(padded, m.start()))]
    blocks = _pair_fences(fences, len(text))
    code = [(b.start, b.end) for b in blocks]
    starts = [r[0] for r in code]
    found = []
    titles: dict[str, str] = {}  # one string per distinct title
    for m in _HEADING_MARK.finditer(padded):
        if padded[m.end() - 1] == "#":
            atx = _ATX.match(padded, m.start())
            if atx and not (code and _inside(atx.start(), code, starts)):
                title = strip(atx.group(2) or "")
                if title.endswith("#"):  # (most titles have no closing hashes to drop)
                    title = _drop_closing_hashes(title)
                found.append(Heading(atx.start(), atx.end() - 1, len(atx.group(1)), titles.setdefault(title, title)))
        else:
            line = _UNDERLINE.match(padded, m.start())
            heading = line and _setext(text, line.start(), line.end() - 1, line.group(1)[0])
            if heading and not (code and _inside(heading.start, code, starts)):
                found.append(heading)
    found.sort(key=attrgetter("start"))
    return found, blocks


def _drop_closing_hashes(title: str) -> str:
    """"Title ##" -> "Title", "##" -> "": a closing sequence is hashes after a space or
    tab, or the whole title (CommonMark). (Not a regex: "[ \t]+#+$" tried from each
    space of a long run, and scanned the rest of it each time.)"""
    body = title.rstrip("#")
    if not body:
        return ""
    return strip(body.rstrip(" \t")) if body[-1] in " \t" else title


def _setext(text: str, underline: int, end: int, char: str) -> Heading | None:
    """A one-line paragraph (after a blank line or at the start) over === or ---."""
    line_start = text.rfind("\n", 0, max(0, underline - 1)) + 1
    line = text[line_start : max(line_start, underline - 1)]
    if is_blank(line) or line.startswith("    ") or strip(line).startswith(_NOT_SETEXT_TEXT):
        return None
    if line_start > 0:
        previous = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
        if not is_blank(previous):
            return None  # the line continues a paragraph: not a one-line heading
    return Heading(line_start, end, 1 if char == "=" else 2, strip(line))


_NOT_SETEXT_TEXT = ("#", ">", "-", "*", "+", "|", "`", "~", "=")


class Outline:
    """The headings of a document and the heading path in effect at any offset."""

    def __init__(self, text: str):
        self.text = text
        self.headings, self.fences = scan_markdown(text)
        self.starts = []
        self._paths = []
        self._parents: list[int] = []  # each heading's parent on the path (-1: none)
        if self.headings:  # (most short texts, a corpus job's rows, have none)
            self._open_paths()

    def _open_paths(self) -> None:
        """Each heading's path and parent: the headings open at its start, outermost first."""
        self.starts = [h.start for h in self.headings]
        paths: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per distinct path
        levels: list[int] = []  # the open headings' levels, titles and indexes, outermost first
        titles: list[str] = []
        opened: list[int] = []
        for i, h in enumerate(self.headings):
            while levels and levels[-1] >= h.level:
                levels.pop()
                titles.pop()
                opened.pop()
            self._parents.append(opened[-1] if opened else -1)
            levels.append(h.level)
            titles.append(h.title)
            opened.append(i)
            path = tuple(titles)
            self._paths.append(paths.setdefault(path, path))

    @cached_property
    def tables(self) -> Tables:
        """The pipe tables outside fenced code (text/tables.py)."""
        return Tables(self.text, markdown_tables(self.text, self.fences))

    def path_at(self, pos: int) -> tuple[str, ...]:
        i = bisect_right(self.starts, pos) - 1
        return self._paths[i] if i >= 0 else ()

    def chain_at(self, pos: int) -> list[Heading]:
        """The headings of the path at pos, outermost first."""
        chain: list[Heading] = []
        i = bisect_right(self.starts, pos) - 1
        while i >= 0:
            chain.append(self.headings[i])
            i = self._parents[i]
        chain.reverse()
        return chain

    def heading_at(self, pos: int) -> Heading | None:
        """The heading whose line starts exactly at pos, if any."""
        i = bisect_right(self.starts, pos) - 1
        return self.headings[i] if i >= 0 and self.starts[i] == pos else None

    def body_after(self, pos: int) -> int:
        """Where the body text of a chunk starting at pos begins: past the heading
        that starts at pos and every heading right after it (nothing but whitespace
        between). pos itself when no heading starts there. One lookup: the runs of
        consecutive headings are measured once, from the last heading back."""
        i = bisect_right(self.starts, pos) - 1
        if i < 0 or self.starts[i] != pos:
            return pos
        return self._bodies[i]

    @cached_property
    def _bodies(self) -> list[int]:
        bodies = [0] * len(self.headings)
        following = None  # the start of the heading after this one
        for i in range(len(self.headings) - 1, -1, -1):
            body = skip_space(self.text, self.headings[i].end)
            bodies[i] = bodies[i + 1] if body == following else body
            following = self.headings[i].start
        return bodies


class TableOutline(Outline):
    """A CSV or TSV text: one table, no headings and no fenced code."""

    def __init__(self, text: str, delimiter: str):
        self.text = text
        self.headings, self.fences, self.starts, self._paths, self._parents = [], [], [], [], []
        table = delimited_table(text, delimiter)
        self.tables = Tables(text, [table] if table else [])
