"""The pinned character classes (unicode/tables.py, tiktoken's Unicode version), for
code that must decide the same way on every Python: CPython 3.11 knows Unicode 14,
Pyodide 16, so unicodedata.category(), str.islower() and re's \\w may disagree
between the CLI and the page. Every such decision in the package goes through here."""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from itertools import chain, islice

from . import tables

STARTS = [int(s, 16) for s in tables.STARTS.split()]
KINDS = tables.KINDS
FOLDS = dict((int(o, 16), letter) for o, letter in (f.split(":") for f in tables.FOLDS.split()))


def kind(o: int) -> str:
    """u: Lu Lt, l: Ll, o: Lm Lo, n: a number, m: a mark, -: anything else."""
    return KINDS[bisect_right(STARTS, o) - 1]


def is_mark(ch: str) -> bool:
    return kind(ord(ch)) == "m"


def _ranges(spec: str) -> list[int]:
    """The boundaries [start, end, start, end...] of "a-b,c" hex ranges (tables.py), each end past its range."""
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += [int(lo, 16), int(hi or lo, 16) + 1]
    return out


def _points(spec: str) -> frozenset[int]:
    bounds = _ranges(spec)
    return frozenset(o for lo, hi in zip(bounds[::2], bounds[1::2]) for o in range(lo, hi))


_LOWER_EXTRA = _points(tables.LOWER_EXTRA)
_UPPER_EXTRA = _points(tables.UPPER_EXTRA)
_TITLE = _points(tables.TITLE)
_DECIMAL = _points(tables.DECIMAL)


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


def is_letter(ch: str) -> bool:
    """str.isalpha() (re's [^\\W\\d_]): a letter (L*)."""
    return ch.isalpha() if ch < "\x80" else kind(ord(ch)) in "ulo"


def is_alnum(ch: str) -> bool:
    """str.isalnum(): a letter or a number (L*, N*)."""
    return ch.isalnum() if ch < "\x80" else kind(ord(ch)) in "ulon"


def is_decimal(ch: str) -> bool:
    """str.isdecimal() (re's \\d): a decimal digit (Nd)."""
    return ch.isdecimal() if ch < "\x80" else ord(ch) in _DECIMAL


# -- re's \w \d \b, the same on every Python ----------------------------------------------
# re decides \w (and so \b) and \d by the running Python's Unicode. Spelling them with the
# pinned classes makes patterns slow (re checks a long list of ranges) and costly to compile,
# so the text is mapped instead: every character whose answers differ (a letter of a newer
# Unicode than the running Python's, say) becomes one the running Python answers as the
# pinned tables do. Offsets are unchanged; take matched text from the original.
# On a Python of the pinned Unicode version (Pyodide's), the tables were made from its
# own classes: the generator checks that re's \w (str.isalnum) agrees with them on every
# code point, and \d's table is made from str.isdecimal itself. Nothing needs a stand-in
# (set(text) alone costs 36 ms a MB in the page).
NATIVE = unicodedata.unidata_version == tables.UNICODE_VERSION


def _stand_in(ch: str) -> str:
    o = ord(ch)
    word, digit = kind(o) in "ulon", o in _DECIMAL
    if ch.isalnum() == word and ch.isdecimal() == digit:
        return ch
    return "\u0663" if digit else "\u00e9" if word else "\u00ac"  # ٣ é ¬: known to every Python


def _pinned_words() -> list[int]:
    """The boundaries of the tables' letters and numbers (re's \\w but "_")."""
    ends = STARTS[1:] + [0x110000]
    return [b for start, end, k in zip(STARTS, ends, KINDS) if k in "ulon" for b in (start, end)]


_FEW = 64  # characters of to_read in a text that are looked at one by one; past that, set(text)


class StandIns:
    """text with each character whose re classes the running Python answers otherwise
    than a pinned table (\\w, as str.isalnum; \\d, as str.isdecimal, where asked) replaced
    by stand_in(ch), which answers them as the table does; text itself when there is none.

    Each character is asked once (memo), but set(text) costs about 25 ns a character
    outside Latin-1 (a third of a tiktoken pass over Russian). Once a process has read
    ONE_BY_ONE characters so, the characters that differ are found from re's own runs
    over all code points (about 50 ms, once: what reading that many cost), and a text is
    read by one search of a few ns a character for those (and every one above U+FFFF): a
    text of the Basic Multilingual Plane has none of them, nearly always, and one with
    an emoji has its few asked."""

    ONE_BY_ONE = 1 << 21

    def __init__(self, stand_in, words: list[list[int]], digits: list[int] | None = None):
        """words: the boundaries [start, end, start, end...] of the table's \\w (its
        letters and numbers: disjoint lists); digits: of its \\d, where it is asked."""
        self._stand_in, self._words, self._digits = stand_in, words, digits
        self._memo: dict[str, str] = {}
        self._read = 0
        self._to_read: re.Pattern | None = None

    def apply(self, text: str) -> str:
        if self._to_read is None:
            self._read += len(text)
            if self._read > self.ONE_BY_ONE:
                self._to_read = self.to_read()
            chars = set(text)
        else:  # only the characters of to_read may differ: a few are asked alone
            found = [m.group() for m in islice(self._to_read.finditer(text), _FEW + 1)]
            if not found:
                return text
            chars = set(found) if len(found) <= _FEW else set(text)  # (not a list of millions of flags)
        memo = self._memo
        for ch in chars.difference(memo):
            memo[ch] = self._stand_in(ch)
        changed = {ord(ch): memo[ch] for ch in chars if memo[ch] != ch}
        return text.translate(changed) if changed else text

    def to_read(self) -> re.Pattern:
        """A class of the characters that send a text to be read one by one: those of the
        Basic Multilingual Plane that stand_in replaces, and every one above it (a class
        with many ranges above U+FFFF is checked range by range at every character: 20
        times slower; one range costs nothing)."""

        def running(cls: str) -> list[int]:
            pattern = re.compile(cls + "+")
            return [start + b for start, plane in _planes() for m in pattern.finditer(plane) for b in m.span()]

        differ = [_odd(running(r"[^\W_]"), *self._words)]
        if self._digits is not None:
            differ.append(_odd(running(r"\d"), self._digits))
        bmp = "".join(f"{re.escape(chr(lo))}-{re.escape(chr(min(hi, 0x10000) - 1))}"
                      for b in differ for lo, hi in zip(b[::2], b[1::2]) if lo < 0x10000)
        return re.compile(f"[{bmp}\U00010000-\U0010FFFF]")


def _odd(*boundaries: list[int]) -> list[int]:
    """The boundaries of the code points inside an odd number of these sets of runs
    (of two, where one holds them and the other not)."""
    counts = Counter(chain(*boundaries))
    return sorted(b for b, k in counts.items() if k % 2)


def _planes():
    """(first code point, its plane as a string) for the 17 planes, surrogates too
    (built bytewise: a join of 65,536 chr() calls takes three times as long)."""
    utf32 = bytearray(4 * 0x10000)
    utf32[0::4] = bytes(range(256)) * 256
    utf32[1::4] = b"".join(bytes([i]) * 256 for i in range(256))
    for plane in range(17):
        utf32[2::4] = bytes([plane]) * 0x10000
        yield plane << 16, utf32.decode("utf-32-le", "surrogatepass")


PINNED = StandIns(_stand_in, [_pinned_words()], _ranges(tables.DECIMAL))


def as_known(text: str) -> str:
    """text with every character that the running Python's re (\\w \\d \\b) would
    classify otherwise than the pinned tables replaced by one it classifies alike;
    text itself when there is none (always for ASCII, and on a Python of the
    pinned Unicode version)."""
    if NATIVE or text.isascii():
        return text
    return PINNED.apply(text)
