"""The pinned character classes (unicode_data.py, tiktoken's Unicode version), for
code that must decide the same way on every Python: CPython 3.11 knows Unicode 14,
Pyodide 16, so unicodedata.category(), str.islower() and re's \\w may disagree
between the CLI and the page. Every such decision in the package goes through here."""
from __future__ import annotations

from bisect import bisect_right

from . import unicode_data

STARTS = [int(s, 16) for s in unicode_data.STARTS.split()]
KINDS = unicode_data.KINDS
FOLDS = dict((int(o, 16), letter) for o, letter in (f.split(":") for f in unicode_data.FOLDS.split()))


def kind(o: int) -> str:
    """u: Lu Lt, l: Ll, o: Lm Lo, n: a number, m: a mark, -: anything else."""
    return KINDS[bisect_right(STARTS, o) - 1]


def is_mark(ch: str) -> bool:
    return kind(ord(ch)) == "m"


def _points(ranges: str) -> frozenset[int]:
    out: set[int] = set()
    for part in ranges.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return frozenset(out)


_LOWER_EXTRA = _points(unicode_data.LOWER_EXTRA)
_UPPER_EXTRA = _points(unicode_data.UPPER_EXTRA)
_TITLE = _points(unicode_data.TITLE)
_DECIMAL = _points(unicode_data.DECIMAL)


# str's own questions about one character, answered from the pinned tables (ASCII,
# the same in every Unicode version, by str itself: fast).
def is_lower(ch: str) -> bool:
    """str.islower(): Ll, and the Other_Lowercase letters and symbols (ª ʰ ⓐ)."""
    if ch < "\x80":
        return ch.islower()
    o = ord(ch)
    return kind(o) == "l" or o in _LOWER_EXTRA


def is_upper(ch: str) -> bool:
    """str.isupper(): Lu, and the Other_Uppercase (Ⅰ Ⓐ); not titlecase (ǅ)."""
    if ch < "\x80":
        return ch.isupper()
    o = ord(ch)
    return (kind(o) == "u" and o not in _TITLE) or o in _UPPER_EXTRA


def is_alnum(ch: str) -> bool:
    """str.isalnum(): a letter or a number (L*, N*)."""
    return ch.isalnum() if ch < "\x80" else kind(ord(ch)) in "ulon"


def is_decimal(ch: str) -> bool:
    """str.isdecimal() (re's \\d): a decimal digit (Nd)."""
    return ch.isdecimal() if ch < "\x80" else ord(ch) in _DECIMAL


def char_class(kinds: str) -> str:
    """The code points of these kinds as the inside of a regex character class
    (for patterns that would otherwise use re's \\w, which follows the running
    Python's Unicode)."""
    parts: list[list[int]] = []
    for start, end, k in zip(STARTS, STARTS[1:] + [0x110000], KINDS):
        if k in kinds:
            if parts and parts[-1][1] == start:
                parts[-1][1] = end
            else:
                parts.append([start, end])
    return "".join(f"\\U{a:08x}" if b == a + 1 else f"\\U{a:08x}-\\U{b - 1:08x}" for a, b in parts)


LETTER = char_class("ulo")  # re's [^\W\d_], by the pinned tables
WORD = char_class("ulon") + "_"  # re's \w, by the pinned tables
