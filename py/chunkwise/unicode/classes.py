"""The pinned character classes (unicode/tables.py, tiktoken's Unicode version), for
code that must decide the same way on every Python: CPython 3.11 knows Unicode 14,
Pyodide 16, so unicodedata.category(), str.islower() and re's \\w may disagree
between the CLI and the page. Every such decision in the package goes through here."""
from __future__ import annotations

import unicodedata
from bisect import bisect_right

from . import tables

STARTS = [int(s, 16) for s in tables.STARTS.split()]
KINDS = tables.KINDS
FOLDS = dict((int(o, 16), letter) for o, letter in (f.split(":") for f in tables.FOLDS.split()))


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
_STAND_IN: dict[str, str] = {}  # character -> itself, or its stand-in
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


def as_known(text: str) -> str:
    """text with every character that the running Python's re (\\w \\d \\b) would
    classify otherwise than the pinned tables replaced by one it classifies alike;
    text itself when there is none (always for ASCII, and on a Python of the
    pinned Unicode version)."""
    if NATIVE or text.isascii():
        return text
    return with_stand_ins(text, _STAND_IN, _stand_in)


def with_stand_ins(text: str, memo: dict[str, str], stand_in) -> str:
    """text with each character ch replaced by stand_in(ch) (ch itself: kept), asked once
    per character (memo); text.as_known does the same for the tokenizers library's classes."""
    chars = set(text)
    for ch in chars.difference(memo):
        memo[ch] = stand_in(ch)
    changed = {ord(ch): memo[ch] for ch in chars if memo[ch] != ch}
    return text.translate(changed) if changed else text
