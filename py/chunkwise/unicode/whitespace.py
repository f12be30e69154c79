"""Whitespace, as the tokenizer sees it: the one definition every module uses.

Only whitespace may be left out between chunks (README guarantee 3), so what
counts as whitespace must be what the tokenizer counts as whitespace: tiktoken's
pattern says \\s, which in its regex engine (Rust) is the Unicode White_Space
property. Python's str.isspace() and re's \\s also accept U+001C..U+001F (the
information separators), which the tokenizer counts as tokens like any other
symbol: chunkwise never uses either to decide what may be dropped.
"""
from __future__ import annotations

import re

# Unicode White_Space (unchanged since Unicode 6.3): the one spelling of it.
CHARS = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    map(chr, range(0x2000, 0x200B))
)
# The same as a regex class body (none of them is special inside a class), and
# without the line breaks \r and \n.
CLASS = "".join(sorted(CHARS))
HORIZONTAL = "".join(sorted(CHARS - {"\r", "\n"}))

SPACE_RUN = re.compile(f"[{CLASS}]+")
NONSPACE = re.compile(f"[^{CLASS}]")
_STRIP = "".join(sorted(CHARS))


def is_space(ch: str) -> bool:
    """True for one whitespace character (an empty string is not)."""
    return ch in CHARS and ch != ""


def strip(s: str) -> str:
    return s.strip(_STRIP)


def is_blank(s: str) -> bool:
    """True when s is empty or only whitespace."""
    return not s.strip(_STRIP)


def skip_space(text: str, i: int) -> int:
    """The first non-whitespace offset at or after i (len(text) if none)."""
    m = NONSPACE.search(text, i)
    return m.start() if m else len(text)


def next_space(text: str, i: int, end: int) -> int | None:
    """The first whitespace offset in [i, end), or None."""
    m = SPACE_RUN.search(text, i, end)
    return m.start() if m else None


def trim_end(text: str, lo: int, i: int) -> int:
    """i moved back over whitespace, but not below lo."""
    chars = CHARS
    stop = max(lo, i - 32)
    while i > stop and text[i - 1] in chars:
        i -= 1
    width = 256
    while i == stop and i > lo and text[i - 1] in chars:  # a long run: strip it in C
        # ...in windows growing back from i, so the cost is the run's, not i - lo's (from lo,
        # each chunk's start copied the text before it: quadratic). str's own whitespace is
        # ours and a few more (U+001C..U+001F): it strips 20x faster than a set of
        # characters, and what it strips is checked in C as well
        stop = max(lo, i - width)
        j = stop + len(text[stop:i].rstrip())
        if (j > stop and text[j - 1] in chars) or NONSPACE.search(text, j, i) is not None:
            j = stop + len(text[stop:i].rstrip(_STRIP))  # (one of the few among them)
        i = j
        width *= 4
    return i
