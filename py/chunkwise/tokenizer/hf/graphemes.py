"""Extended grapheme clusters (UAX #29) as far as the Precompiled normalizer
needs them: it treats a cluster of fewer than 6 UTF-8 bytes as one unit, so only
clusters of a 1- or 2-byte character with marks after it, CR LF, and Prepend
characters matter (emoji, flag and Hangul sequences are 6 bytes or more, and
are normalized character by character either way).
"""
from __future__ import annotations

import re

from . import unicode_tables
from .text import RangeSet, category

# Grapheme_Cluster_Break=Prepend.
PREPEND = frozenset(
    [0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x0D4E,
     0x110BD, 0x110CD, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84, 0x11A85, 0x11A86, 0x11A87,
     0x11A88, 0x11A89, 0x11D46, 0x11F02]
)
# Spacing marks (Mc) whose Grapheme_Cluster_Break is Other: they do not join.
_MC_OTHER = frozenset(
    [0x102B, 0x102C, 0x1038, 0x1062, 0x1063, 0x1064, 0x1067, 0x1068, 0x1069, 0x106A, 0x106B, 0x106C,
     0x106D, 0x1083, 0x1087, 0x1088, 0x1089, 0x108A, 0x108B, 0x108C, 0x108F, 0x109A, 0x109B, 0x109C,
     0x1A61, 0x1A63, 0x1A64, 0xAA7B, 0xAA7D, 0x11720, 0x11721]
)


# Characters of the BMP that join the cluster before them, from the library's
# own segmentation tables (see tools/gen_hf_unicode.py); others by category (the
# library's Unicode, text.category: the running Python's may be older).
_JOINS = RangeSet(unicode_tables.GRAPHEME_JOINS)


def _code(ch: str) -> str:
    o = ord(ch)
    if o < 0x80:
        if o == 13:
            return "r"
        if o == 10:
            return "n"
        return "C" if o < 32 or o == 127 else "o"
    if o in PREPEND:
        return "P"
    if o < 0x10000:
        if ch in _JOINS or o in (0x200C, 0x200D) or 0xFE00 <= o <= 0xFE0F:  # these the probe cannot see
            return "E"
        cat = category(ch)
        return "C" if cat in ("Cc", "Zl", "Zp", "Cf") else "o"
    cat = category(ch)
    if cat[0] == "M":
        return "o" if o in _MC_OTHER else "E"
    if (
        o in (0x200C, 0x200D, 0x0E33, 0x0EB3, 0xFF9E, 0xFF9F)
        or 0x1F3FB <= o <= 0x1F3FF
        or 0xE0020 <= o <= 0xE007F
    ):
        return "E"
    if cat in ("Cc", "Zl", "Zp", "Cf"):
        return "C"
    return "o"


class _Codes(dict):
    def __missing__(self, code: int) -> str:
        value = self[code] = _code(chr(code))
        return value


_CODES = _Codes()
# Clusters of more than one character: CR LF, Prepend+ (base) marks, base marks, marks.
_MULTI = re.compile(r"rn|P+o?E*|oE+|E{2,}")


def multi_char_clusters(text: str):
    """(start, cluster) for each grapheme cluster of two or more characters."""
    if text.isascii() and "\r\n" not in text:
        return
    codes = text.translate(_CODES)
    for m in _MULTI.finditer(codes):
        start, end = m.span()
        if end - start > 1:
            yield start, text[start:end]
