"""Character classes as the Hugging Face `tokenizers` library (Rust, Oniguruma)
sees them, and a way to run patterns over them with the stdlib `re`.

Rust's char::is_whitespace and Oniguruma's \\s are Unicode White_Space; \\p{L}
and \\p{N} are general categories. Python's str.isspace() and `re`'s \\w differ,
so each pattern here runs over a string of one-character class codes (one code
per character, so match offsets are offsets into the original text), built
with str.translate and a table that fills itself on first sight of a character.
"""
from __future__ import annotations

from bisect import bisect_right

from . import unicode_tables
from ...unicode import classes
from ...unicode.whitespace import CHARS

# White_Space: what Rust's char::is_whitespace and Oniguruma's \s match.
WHITE_SPACE = CHARS


class RangeSet:
    """Code points given as "a-b,c" hex ranges (tokenizers' own Unicode tables)."""

    def __init__(self, spec: str):
        self.starts: list[int] = []
        self.ends: list[int] = []
        for part in filter(None, spec.split(",")):
            lo, _, hi = part.partition("-")
            self.starts.append(int(lo, 16))
            self.ends.append(int(hi or lo, 16))

    def boundaries(self) -> list[int]:
        """[start, end, start, end...], each end past its range."""
        return [b for lo, hi in zip(self.starts, self.ends) for b in (lo, hi + 1)]

    def __contains__(self, ch: str) -> bool:
        o = ord(ch)
        i = bisect_right(self.starts, o) - 1
        return i >= 0 and o <= self.ends[i]


def parse_mapping(spec: str) -> dict[int, str]:
    """A str.translate table from "code:replacement.code.points" entries."""
    table = {}
    for entry in filter(None, spec.split(",")):
        key, _, value = entry.partition(":")
        table[int(key, 16)] = "".join(chr(int(x, 16)) for x in value.split(".") if x)
    return table


PUNCTUATION = RangeSet(unicode_tables.PUNCTUATION)
# Oniguruma's \p{L} and \p{N}: the letters and numbers of the library's Split patterns.
LETTER = RangeSet(unicode_tables.ONIG_LETTER)
NUMBER = RangeSet(unicode_tables.ONIG_NUMBER)
_LOWER = LOWERCASE_TABLE = parse_mapping(unicode_tables.LOWERCASE)


class Categories:
    """The general category of each code point by the library's Unicode ("Lu", "Nd",
    "Cn"...), from "start:Cat" runs (Oniguruma's \\p{..} and \\d in Split patterns:
    CPython 3.11's unicodedata is Unicode 14, Pyodide's 16, the library's its own)."""

    def __init__(self, spec: str):
        self.starts: list[int] = []
        self.names: list[str] = []
        for entry in spec.split(","):
            start, _, name = entry.partition(":")
            self.starts.append(int(start, 16))
            self.names.append(name)

    def __call__(self, ch: str) -> str:
        return self.names[bisect_right(self.starts, ord(ch)) - 1]


_categories: Categories | None = None


def category(ch: str) -> str:
    """unicodedata.category as the library sees it (its table is read on first use)."""
    global _categories
    if _categories is None:
        _categories = Categories(unicode_tables.ONIG_CATEGORIES)
    return _categories(ch)


def is_bert_punctuation(ch: str) -> bool:
    """tokenizers' is_bert_punc: ASCII punctuation or a Unicode P* category (its tables)."""
    return ch in PUNCTUATION


class CodeTable(dict):
    """A str.translate table mapping each code point to a class code, computed once."""

    def __init__(self, classify):
        super().__init__()
        self._classify = classify

    def __missing__(self, code: int) -> str:
        value = self[code] = self._classify(chr(code))
        return value

    def codes(self, text: str) -> str:
        return text.translate(self)


def _stand_in(ch: str) -> str:
    word = ch in LETTER or ch in NUMBER
    return ch if ch.isalnum() == word else "\u00e9" if word else "\u00ac"  # é ¬: known to every Python


_STAND_INS = classes.StandIns(_stand_in, [LETTER.boundaries(), NUMBER.boundaries()])


def as_known(text: str) -> str:
    """text with every character that the running Python's re classifies as \\w (str.isalnum)
    otherwise than the library does (a letter or number in its tables) replaced by one it
    classifies alike; offsets are unchanged (\\d is not asked). CPython 3.11 knows Unicode
    14, Pyodide 16: where a text may be split must not depend on which runs."""
    if text.isascii():
        return text
    return _STAND_INS.apply(text)


def lowercase(text: str) -> str:
    """Rust's per-character to_lowercase (no final-sigma rule), with the
    `tokenizers` build's Unicode tables."""
    return text.translate(_LOWER)


def split_spans(n: int, spans, behavior: str, invert: bool = False) -> list[tuple[int, int]]:
    """tokenizers' NormalizedString::split: the text [0, n) cut by the matched
    spans (start, end) under a SplitDelimiterBehavior; empty pieces are dropped."""
    parts: list[tuple[int, int, bool]] = []  # (start, end, is_match)
    pos = 0
    for start, end in spans:
        if start == end:
            continue
        if start > pos:
            parts.append((pos, start, invert))
        parts.append((start, end, not invert))
        pos = end
    if pos < n:
        parts.append((pos, n, invert))
    out: list[tuple[int, int]] = []
    if behavior == "Removed":
        return [(s, e) for s, e, m in parts if not m]
    if behavior == "Isolated":
        return [(s, e) for s, e, _ in parts]
    if behavior == "MergedWithPrevious":
        prev_match = False
        for s, e, m in parts:
            if m and out and not prev_match:
                out[-1] = (out[-1][0], e)
            else:
                out.append((s, e))
            prev_match = m
        return out
    if behavior == "MergedWithNext":
        pending = None
        for s, e, m in parts:
            if m:
                if pending is not None:
                    out.append(pending)
                pending = (s, e)
            else:
                out.append((pending[0], e) if pending is not None else (s, e))
                pending = None
        if pending is not None:
            out.append(pending)
        return out
    if behavior == "Contiguous":
        prev_match = False
        for s, e, m in parts:
            if m and prev_match and out:
                out[-1] = (out[-1][0], e)
            else:
                out.append((s, e))
            prev_match = m
        return out
    raise ValueError(f"unknown split behavior {behavior!r}")
