"""Grapheme cluster boundaries, enough of UAX #29 that a hard cut never splits
what a reader sees as one character: combining marks, ZWJ emoji sequences,
skin tones, variation selectors, flags (regional indicator pairs), tag
sequences, Hangul syllables and CR LF."""
from __future__ import annotations

import re
from bisect import bisect_right

from ..unicode.classes import is_mark

_ZWJ = "\u200d"


def _extends(ch: str) -> bool:
    """Characters that attach to the one before them."""
    o = ord(ch)
    return (
        is_mark(ch)  # Mn Mc Me, by the pinned tables: the same on every Python
        or o == 0x200D
        or 0xFE00 <= o <= 0xFE0F  # variation selectors
        or 0xE0100 <= o <= 0xE01EF
        or 0x1F3FB <= o <= 0x1F3FF  # skin tone modifiers
        or 0xE0020 <= o <= 0xE007F  # tag characters (subdivision flags)
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


_REGIONAL_RUN = re.compile("[\U0001F1E6-\U0001F1FF]{2,}")
# The runs of regional indicators of the last text asked about: (text, starts, ends).
_runs: tuple = ("", [], [])


def _regional_run_start(text: str, j: int) -> int:
    """Where the run of regional indicators holding text[j] starts. The runs of a
    text are found once (one regex pass), so a flag run of any length costs a
    lookup per call, not a walk back over the run."""
    global _runs
    if _runs[0] is not text:
        matches = list(_REGIONAL_RUN.finditer(text))
        _runs = (text, [m.start() for m in matches], [m.end() for m in matches])
    k = bisect_right(_runs[1], j) - 1
    return _runs[1][k]


def _hangul(ch: str) -> str:
    o = ord(ch)
    if 0x1100 <= o <= 0x115F or 0xA960 <= o <= 0xA97C:
        return "L"
    if 0x1160 <= o <= 0x11A7 or 0xD7B0 <= o <= 0xD7C6:
        return "V"
    if 0x11A8 <= o <= 0x11FF or 0xD7CB <= o <= 0xD7FB:
        return "T"
    if 0xAC00 <= o <= 0xD7A3:
        return "LV" if (o - 0xAC00) % 28 == 0 else "LVT"
    return ""


def is_boundary(text: str, i: int) -> bool:
    """True when a cut before text[i] splits no grapheme cluster."""
    if i <= 0 or i >= len(text):
        return True
    before, after = text[i - 1], text[i]
    if before == "\r" and after == "\n":
        return False
    if _extends(after) or before == _ZWJ:
        return False
    if _regional(before) and _regional(after):
        return (i - _regional_run_start(text, i - 1)) % 2 == 0  # flags pair up left to right
    hb, ha = _hangul(before), _hangul(after)
    if hb and ha:
        if hb == "L" and ha in ("L", "V", "LV", "LVT"):
            return False
        if hb in ("LV", "V") and ha in ("V", "T"):
            return False
        if hb in ("LVT", "T") and ha == "T":
            return False
    return True


def snap_back(text: str, i: int, floor: int) -> int:
    """The nearest grapheme boundary at or before i and above floor, else i itself
    (a cluster longer than the whole budget is cut between code points)."""
    j = i
    while j > floor and not is_boundary(text, j):
        j -= 1
    return j if j > floor else i


def snap_forward(text: str, i: int, limit: int) -> int:
    """The nearest grapheme boundary at or after i, not past limit."""
    j = i
    while j < limit and not is_boundary(text, j):
        j += 1
    return j
