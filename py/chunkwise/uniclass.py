"""The pinned character classes (unicode_data.py, tiktoken's Unicode version), for
code that must decide the same way on every Python: CPython 3.11 knows Unicode 14,
Pyodide 16, so unicodedata.category() may disagree between the CLI and the page."""
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
